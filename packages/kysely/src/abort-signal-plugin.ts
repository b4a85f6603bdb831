import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'

/** Signals by query, filled by the plugin, read by the connection. */
const signals = new WeakMap<QueryId, AbortSignal>()

/** The signal a query was given with {@link withSignal}, if any. */
export function signalOf(queryId: QueryId): AbortSignal | undefined {
  return signals.get(queryId)
}

/**
 * A plugin that ties the queries built with it to an AbortSignal: when it fires, the client
 * stops the query (native: a Cancel packet; HTTP: the request is aborted) and the query
 * rejects with an AbortError. This is for Kysely 0.28, whose `execute()` and `stream()` take
 * no signal; on 0.29, `execute({ signal })` and `stream({ signal })` reach the driver directly.
 *
 * @example
 * ```ts
 * const controller = new AbortController()
 * for await (const row of db.selectFrom('hits').selectAll().withPlugin(withSignal(controller.signal)).stream()) {
 *   if (done(row)) controller.abort()
 * }
 * ```
 */
export function withSignal(signal: AbortSignal): KyselyPlugin {
  return {
    transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
      signals.set(queryId, signal)
      return node
    },
    async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      return result
    },
  }
}
