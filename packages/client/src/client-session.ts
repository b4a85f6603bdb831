import { newQueryId, type Transport, UsageError } from '@clickwire/protocol'
import type { CallObserver } from './call-observer.js'
import { ClickwireClient, type Session, type TransportFactory } from './clickwire-client.js'
import { describeEndpoints, type ResolvedClientOptions } from './client-options.js'

/**
 * The client options of a session's own transport. A session id is what makes either
 * transport keep state: native then holds one dedicated connection, HTTP sends the id as
 * `session_id`; both run one call at a time (`maxConnections` 1), which is also what a
 * ClickHouse HTTP session needs (a second request while one runs is SESSION_IS_LOCKED).
 * It stays on one host: over HTTP with several, the first for `in-order` (the default) and
 * `first-or-random`, else one picked at random, as the client's strategy would; discovery
 * of a cluster's nodes is the client's, not the session's.
 */
export function sessionOptions(
  options: ResolvedClientOptions,
  id: string | undefined,
  timeoutSeconds: number | undefined,
): ResolvedClientOptions {
  const endpoints =
    options.kind === 'http' && options.endpoints.length > 1
      ? [
          options.hostStrategy === 'round-robin' || options.hostStrategy === 'random'
            ? options.endpoints[Math.floor(Math.random() * options.endpoints.length)]!
            : options.endpoints[0]!,
        ]
      : options.endpoints
  return {
    ...options,
    endpoints,
    discoverCluster: undefined,
    sessionId: id ?? newQueryId(),
    sessionTimeoutSeconds: timeoutSeconds ?? options.sessionTimeoutSeconds,
    maxConnections: 1,
  }
}

/**
 * A {@link Session}: a client of its own transport (see {@link sessionOptions}), which logs
 * and traces through the client that opened it and leaves that client's session list when
 * closed.
 */
export class ClickwireSession extends ClickwireClient implements Session {
  readonly id: string
  readonly #closed: () => void
  readonly #where: string

  constructor(
    options: ResolvedClientOptions,
    transport: Transport,
    transportFor: TransportFactory,
    observer: CallObserver,
    closed: () => void,
  ) {
    super(options, transport, transportFor, { observer })
    this.id = options.sessionId!
    this.#closed = closed
    this.#where = describeEndpoints(options)
  }

  override session(): Promise<never> {
    return Promise.reject(new UsageError('a session cannot open another: open sessions from the client'))
  }

  override async close(): Promise<void> {
    this.#closed()
    await super.close()
  }

  override toString(): string {
    return `ClickwireSession(${this.id}, ${this.#where})`
  }
}
