import {
  type BlockStream,
  ConnectionError,
  type HostHealthEvents,
  HostSelector,
  type HostSelectorSources,
  type HostStrategyName,
  type InsertOptions,
  type InsertProducer,
  type InsertResult,
  type Progress,
  type QueryOptions,
  type RawBody,
  type RawInsertOptions,
  type RawInsertResult,
  type RawQueryOptions,
  type RawStream,
  type RequestOptions,
  type ServerInfo,
  type Transport,
  UsageError,
} from '@clickwire/protocol'
import type { CallLimits, DiscoveryGate } from './cluster-discovery-options.js'

/**
 * Several HTTP endpoints behind one transport. A request goes to the first endpoint the
 * strategy picks (protocol's HostSelector, as native's hosts); when that endpoint cannot be
 * reached (a ConnectionError before any response), the next one is tried and the failed
 * one is set aside for a cooldown.
 * Inserts move on only when the connection failed before anything was sent, which a
 * ConnectionError from the transport guarantees (it never retries once a body started).
 * A request that got an answer and then lost its connection fails with that error: its
 * result was partly read, and only the caller knows whether running it again is right.
 */
export class FailoverTransport implements Transport {
  readonly kind = 'http' as const
  readonly #hosts: HostSelector<Transport>
  /** What each call waits for first, closed with this transport (cluster discovery: cluster-discovery-options.ts). */
  gate: Pick<DiscoveryGate, 'enter' | 'close'> | undefined
  /** Endpoints dropped by {@link setTransports}: their requests may still run; closed with this one. */
  readonly #retired = new Set<Transport>()

  constructor(
    transports: readonly Transport[],
    strategy: HostStrategyName,
    cooldownMs: number,
    sources?: HostSelectorSources,
    /** Told of each endpoint set aside and restored, for the client's log. */
    events?: HostHealthEvents<Transport>,
  ) {
    this.#hosts = new HostSelector(transports, strategy, cooldownMs, sources, events)
  }

  /** The endpoints, in their configured order. */
  get transports(): readonly Transport[] {
    return this.#hosts.hosts
  }

  /**
   * Replaces the endpoints (a cluster's replicas, discovered again); one still listed (the
   * same object) keeps its cool-down. Dropped ones finish what they run and close with this
   * transport, not at once, so no request in flight is cut.
   */
  setTransports(transports: readonly Transport[]): void {
    if (transports.length === 0) throw new UsageError('a failover transport needs at least one endpoint')
    for (const old of this.#hosts.hosts) if (!transports.includes(old)) this.#retired.add(old)
    for (const next of transports) this.#retired.delete(next)
    this.#hosts.setHosts(transports)
  }

  /**
   * `call` on the endpoints in turn. With a gate, it first waits for the gate within the
   * call's limits (`kind`, `options`) and gets the options with the time left.
   */
  private async attempt<T, Options extends CallLimits>(
    kind: Parameters<DiscoveryGate['enter']>[0],
    options: Options | undefined,
    call: (transport: Transport, options: Options | undefined) => Promise<T>,
  ): Promise<T> {
    const limits = this.gate ? await this.gate.enter(kind, options) : options
    let lastError: unknown
    for (const transport of this.#hosts.candidates()) {
      try {
        const result = await call(transport, limits)
        this.#hosts.succeeded(transport)
        return result
      } catch (error) {
        if (!(ConnectionError.isInstance(error) && unreachable(error))) throw error
        this.#hosts.failed(transport, error)
        lastError = error
      }
    }
    throw lastError
  }

  query(sql: string, options?: QueryOptions): Promise<BlockStream> {
    return this.attempt('query', options, (transport, limits) => transport.query(sql, limits))
  }

  insert(table: string, producer: InsertProducer, options?: InsertOptions): Promise<InsertResult> {
    return this.attempt('insert', options, (transport, limits) => transport.insert(table, producer, limits))
  }

  command(
    sql: string,
    options?: RequestOptions,
  ): Promise<{ readonly queryId: string; readonly progress: Progress }> {
    return this.attempt('command', options, (transport, limits) => transport.command(sql, limits))
  }

  ping(options?: {
    readonly signal?: AbortSignal | undefined
    readonly timeoutMs?: number | undefined
  }): Promise<void> {
    return this.attempt('ping', options, (transport, limits) => transport.ping(limits))
  }

  queryRaw(sql: string, options: RawQueryOptions): Promise<RawStream> {
    return this.attempt('query', options, (transport, limits) => rawCapable(transport).queryRaw(sql, limits!))
  }

  insertRaw(table: string, body: RawBody, options: RawInsertOptions): Promise<RawInsertResult> {
    return this.attempt('insert', options, (transport, limits) =>
      rawCapable(transport).insertRaw(table, body, limits!),
    )
  }

  serverInfo(): Promise<ServerInfo> {
    return this.attempt('serverInfo', undefined, (transport) => transport.serverInfo())
  }

  async close(): Promise<void> {
    this.gate?.close()
    await Promise.all([...this.#hosts.hosts, ...this.#retired].map((transport) => transport.close()))
  }
}

/** The endpoints are HTTP transports, which carry raw formats. */
function rawCapable(transport: Transport): Required<Pick<Transport, 'queryRaw' | 'insertRaw'>> {
  if (!transport.queryRaw || !transport.insertRaw) throw new UsageError('this transport has no raw formats')
  return transport as Required<Pick<Transport, 'queryRaw' | 'insertRaw'>>
}

/** Errors that mean the endpoint was not reached at all, so another may be tried. */
function unreachable(error: ConnectionError): boolean {
  return [
    'ECONNREFUSED',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ENOTFOUND',
    'EAI_AGAIN',
    'UND_ERR_CONNECT_TIMEOUT',
  ].includes(error.code ?? '')
}
