import {
  AbortError,
  type BlockStream,
  CallDeadline,
  ClickHouseError,
  type CompressionCodecs,
  type CompressionOption,
  ConnectionError,
  firstKeyword,
  type HostHealthEvents,
  HostSelector,
  type HostStrategyName,
  type InsertOptions,
  type InsertProducer,
  type InsertResult,
  newQueryId,
  type Progress,
  type QueryOptions,
  quoteSqlIdentifier,
  quoteSqlString,
  quoteTableName,
  type RequestOptions,
  Revision,
  registerSecret,
  requestAbortError,
  requestClosedError,
  resolveCompression,
  resolveHostStrategy,
  resolveValueMapping,
  type ServerInfo,
  type Settings,
  shouldRetry,
  TimeoutError,
  type Transport,
  UsageError,
} from '@clickwire/protocol'
import { checkQueryFormat } from '@clickwire/protocol/format-clause'
import {
  defaultSquashing,
  externalTableColumns,
  keepsRowsWhenStopped,
  squashSetting,
  withInsertOutcome,
  withOutcome,
} from '@clickwire/protocol/insert'
import { maxQuerySizeOf } from '@clickwire/protocol/params'
import { loadCompression } from './compression-loader.js'
import { ConnectionPool } from './connection-pool.js'
import { NativeConnection } from './native-connection.js'
import { runInsert } from './native-insert.js'
import {
  checkNativeOptions,
  type HostAddress,
  type NativeOptions,
  nativeCompression,
  nativeDefaults,
  nativeOptionsFromUrl,
} from './native-options.js'
import { NativeQueryStream } from './native-query-stream.js'
import { type PreparedQuery, prepareQuery } from './query-request.js'

/** Options of {@link createNativeTransport}; everything but `hosts` has a default. */
export type NativeTransportOptions = { readonly hosts: readonly HostAddress[] } & {
  readonly [Key in Exclude<keyof NativeOptions, 'hosts' | 'mapping' | 'compression' | 'hostStrategy'>]?:
    | NativeOptions[Key]
    | undefined
} & {
  readonly mapping?: Partial<NativeOptions['mapping']> | undefined
  /**
   * Block compression, both ways (default `lz4`): `lz4`, `zstd`, `none`, or
   * `{ request: 'lz4' | 'zstd', codecs }` (protocol's {@link CompressionOption}; `gzip` and
   * `response` methods are HTTP's and refused). @clickhouse/client's booleans (`true`,
   * `{ request: true }`, `{ response: true }`) mean `lz4`; `false` means `none`.
   */
  readonly compression?: CompressionOption | undefined
  /** With several hosts, which to try first: our names or ClickHouse's `load_balancing` ones (`in_order`, ...). */
  readonly hostStrategy?: HostStrategyName | undefined
  /**
   * Told when a host is set aside after a failed connect, and when it answers again (the
   * client logs these). Called synchronously: keep it cheap and do not throw.
   */
  readonly hostEvents?: HostHealthEvents<HostAddress> | undefined
  /** @deprecated Renamed `requestTimeoutMs`, the name the client and HTTP use; this alias goes in the next release. */
  readonly queryTimeoutMs?: number | undefined
}

/** Quotes a table name for INSERT, as every transport does (protocol's quoteTableName). */
export { quoteTableName }

/**
 * The native TCP transport: a pool of connections over one or more hosts, with failover.
 *
 * @example
 * ```ts
 * const native = createNativeTransport({ hosts: [{ host: '127.0.0.1', port: 9000 }] })
 * for await (const block of await native.query('SELECT number FROM system.numbers LIMIT 10')) {
 *   console.log(block.rows, block.columns[0]!.column.values())
 * }
 * await native.close()
 * ```
 */
export class NativeTransport implements Transport {
  readonly kind = 'native' as const
  readonly options: NativeOptions
  private readonly hosts: HostSelector<HostAddress>
  /** Block codecs given with the compression option, instead of loading the built-in ones. */
  private readonly givenCodecs: CompressionCodecs | undefined
  /** Fires when close() starts: every wait of every call ends at once (see {@link CallDeadline}). */
  private readonly closing = new AbortController()
  private readonly pool: ConnectionPool<NativeConnection>
  private codecs: Promise<CompressionCodecs | undefined> | undefined
  private server: ServerInfo | undefined
  /** `dedicatedConnection`: whether its one connection was opened (a second one never is). */
  private dedicatedOpened = false
  private closed = false
  /** Query streams not ended yet: close() stops them. */
  private readonly streams = new Set<NativeQueryStream>()
  /** How to stop each insert still running: close() ends them like an abort, with their own error. */
  private readonly inserts = new Set<() => void>()
  /** KILL QUERY requests in flight; close() waits a little for them. */
  private readonly kills = new Set<Promise<void>>()

  constructor(options: NativeTransportOptions) {
    if (!options.hosts || options.hosts.length === 0)
      throw new UsageError('the native transport needs at least one host')
    const { queryTimeoutMs, hostEvents, ...given } = options
    const defined = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined))
    this.options = {
      ...nativeDefaults,
      ...defined,
      requestTimeoutMs: options.requestTimeoutMs ?? queryTimeoutMs ?? nativeDefaults.requestTimeoutMs,
      compression: nativeCompression(options.compression),
      settings: options.settings ?? {},
      tls: options.tls,
      mapping: resolveValueMapping(options.mapping),
    } as NativeOptions
    checkNativeOptions(this.options)
    this.options = { ...this.options, hostStrategy: resolveHostStrategy(this.options.hostStrategy) }
    // A dedicated connection is the only one, and is never swept away for being idle.
    if (this.options.dedicatedConnection)
      this.options = { ...this.options, maxConnections: 1, idleTimeoutMs: 0 }
    registerSecret(this.options.password)
    this.givenCodecs = resolveCompression(options.compression, 'lz4').codecs
    this.hosts = new HostSelector(
      this.options.hosts,
      this.options.hostStrategy,
      this.options.hostCooldownMs,
      undefined,
      hostEvents,
    )
    this.pool = new ConnectionPool({
      maxConnections: this.options.maxConnections,
      acquireTimeoutMs: this.options.acquireTimeoutMs,
      idleTimeoutMs: this.options.idleTimeoutMs,
      pingAfterIdleMs: this.options.pingAfterIdleMs,
      create: (signal, timeoutMs) => this.connect(signal, timeoutMs),
    })
  }

  /** The hosts new connections go to, in their configured order. */
  get currentHosts(): readonly HostAddress[] {
    return this.hosts.hosts
  }

  /**
   * Replaces the hosts new connections go to (a cluster's replicas, discovered again).
   * Hosts still listed keep their cool-down; open connections to a host no longer listed
   * finish their work and leave the pool as idle connections do.
   */
  setHosts(hosts: readonly HostAddress[]): void {
    if (hosts.length === 0) throw new UsageError('the native transport needs at least one host')
    this.hosts.setHosts(
      hosts.map(({ host, port }) => ({ host, port })),
      (a, b) => a.host === b.host && a.port === b.port,
    )
  }

  /** Pool counters, for tests and monitoring. */
  get poolStats(): { open: number; idle: number; waiting: number; created: number } {
    return this.pool.stats
  }

  private compression(): Promise<CompressionCodecs | undefined> {
    this.codecs ??=
      this.options.compression === 'none'
        ? Promise.resolve(undefined)
        : this.givenCodecs
          ? Promise.resolve(this.givenCodecs)
          : loadCompression(this.options.compression, this.options.zstdLevel)
    return this.codecs
  }

  /** A new connection for the pool; with `dedicatedConnection`, the one and only. */
  private async connect(signal: AbortSignal | undefined, timeoutMs = 0): Promise<NativeConnection> {
    // The state of a dedicated connection (SET, USE, temporary tables) died with it: a fresh
    // connection would run the next call without it, silently.
    if (this.options.dedicatedConnection && this.dedicatedOpened)
      throw new ConnectionError(
        "the session's connection was lost (broken, timed out, or closed by the server), and with it what SET, USE and CREATE TEMPORARY TABLE left on it: open a new session",
      )
    const connection = await this.open(signal, timeoutMs)
    if (this.options.dedicatedConnection) this.dedicatedOpened = true
    return connection
  }

  /**
   * Opens a connection to the first host that answers, setting failed hosts aside. With a
   * request time limit (`timeoutMs` left of it), connecting gets no more than what is left.
   */
  private async open(signal: AbortSignal | undefined, timeoutMs: number): Promise<NativeConnection> {
    const budget = CallDeadline.background(this.closing.signal, undefined, timeoutMs)
    const codecs = await this.compression()
    const errors: string[] = []
    let last: unknown
    for (const host of this.hosts.candidates()) {
      // The request's time is up: the next host would get no time to answer.
      if (errors.length > 0 && budget.expired) break
      const left = budget.remaining()
      const options =
        left > 0 && left < this.options.connectTimeoutMs
          ? { ...this.options, connectTimeoutMs: left }
          : this.options
      try {
        const connection = await NativeConnection.open(host, options, codecs, signal)
        this.hosts.succeeded(host)
        this.server = connection.server
        return connection
      } catch (error) {
        // A server that answered (wrong password, unknown database) is not a dead host.
        if (ClickHouseError.isInstance(error) || AbortError.isInstance(error)) throw error
        this.hosts.failed(host, error)
        errors.push(`${host.host}:${host.port}: ${(error as Error).message}`)
        last = error
      }
    }
    if (errors.length === 1 || (budget.expired && TimeoutError.isInstance(last))) throw last
    throw new ConnectionError(`no host answered: ${errors.join('; ')}`, { cause: last })
  }

  /** The limits of one query or insert, from its start (its `timeoutMs`, else `requestTimeoutMs`). */
  private deadline(kind: 'query' | 'insert', queryId: string, options: RequestOptions): CallDeadline {
    return CallDeadline.forRequest(
      kind,
      queryId,
      options.timeoutMs ?? this.options.requestTimeoutMs,
      options.signal,
      this.closing.signal,
      options.startedAt,
    )
  }

  private async acquire(signal: AbortSignal | undefined, timeoutMs: number): Promise<NativeConnection> {
    if (this.closed) throw new UsageError('the transport is closed')
    return this.pool.acquire(signal, timeoutMs)
  }

  private release = (connection: NativeConnection): void => {
    this.pool.release(connection)
  }

  private settingsFor(connection: NativeConnection, extra: Settings | undefined, methodOnly = false) {
    // The client compresses what it sends with its own method; the server picks the method
    // of its answers from this setting, whose default was LZ4 until 26.9 (revision 54492)
    // made it ZSTD(3): so ZSTD is always named, LZ4 from 54492 on. Never for a readonly = 1
    // profile, which refuses any change (READONLY, 164): its answers come in the server's
    // method, which the packet reader decodes whatever it is.
    let method: Settings | undefined
    if (!connection.settingsLocked) {
      if (this.options.compression === 'zstd')
        method = {
          network_compression_method: 'zstd',
          network_zstd_compression_level: this.options.zstdLevel,
        }
      else if (
        this.options.compression === 'lz4' &&
        connection.revision >= Revision.withStringWithSizeStreamSerialization
      )
        method = { network_compression_method: 'lz4' }
    }
    const merged: Settings = methodOnly ? { ...method } : { ...method, ...this.options.settings, ...extra }
    // Every setting is marked important: a server (54429+) then refuses a name it does not
    // know (UNKNOWN_SETTING), as HTTP and 18.16 do, instead of skipping it in silence.
    return Object.entries(merged)
      .filter((entry): entry is [string, string | number | bigint | boolean] => entry[1] !== undefined)
      .map(([name, value]) => ({ name, value, important: true }))
  }

  /** The SQL and protocol parameters for a query on this connection's revision. */
  private prepare(
    connection: NativeConnection,
    sql: string,
    params: RequestOptions['params'],
    settings: Settings | undefined,
  ): PreparedQuery {
    return prepareQuery(connection.revision, sql, params, maxQuerySizeOf(this.options.settings, settings))
  }

  /**
   * Starts a query and resolves once the server answered (its header block, progress, or
   * an error, which is thrown here). Blocks follow through the returned stream.
   *
   * A pooled connection the server closed while it sat idle fails before the server
   * answers anything; the query is then sent again on another connection (once per idle
   * connection, then on a fresh one), so a restarted or failed-over server costs no error.
   */
  async query(sql: string, options: QueryOptions = {}): Promise<BlockStream> {
    // The server would ignore a FORMAT clause here (blocks are Native): refused as over HTTP.
    checkQueryFormat(sql)
    return this.run(sql, options)
  }

  /** A statement's result stream (query() and command()). */
  private async run(sql: string, options: QueryOptions): Promise<BlockStream> {
    const queryId = options.queryId ?? newQueryId()
    if (options.signal?.aborted) throw requestAbortError('query', queryId, options.signal.reason)
    const budget = this.deadline('query', queryId, options)
    for (let attempts = 1; ; attempts++) {
      const connection = await this.acquire(options.signal, budget.remaining())
      let stream: NativeQueryStream | undefined
      try {
        stream = await this.start(connection, sql, queryId, options, budget)
        await stream.started()
        return stream
      } catch (error) {
        const again = shouldRetry({
          staleConnection: this.stale(connection, stream === undefined || !stream.answered, error),
          request: { kind: 'statement', sql },
          attempts,
          pooledConnections: this.options.maxConnections,
        })
        if (again) {
          options.onRetry?.(attempts, error)
          continue
        }
        throw error
      }
    }
  }

  /**
   * Whether a request failed the way a pooled connection the server had closed fails: a
   * connection failure, on a connection that served a request before, with no answer yet
   * (the shared retry policy then decides whether the request is sent again).
   */
  private stale(connection: NativeConnection, unanswered: boolean, error: unknown): boolean {
    return ConnectionError.isInstance(error) && connection.requests > 1 && unanswered && !this.closed
  }

  private async start(
    connection: NativeConnection,
    sql: string,
    queryId: string,
    options: QueryOptions,
    budget: CallDeadline,
  ): Promise<NativeQueryStream> {
    let prepared: PreparedQuery
    try {
      prepared = this.prepare(connection, sql, options.params, options.settings)
    } catch (error) {
      // Nothing was sent: the connection is still clean.
      this.pool.release(connection)
      throw error
    }
    try {
      connection.begin()
      await connection.sendQuery({
        queryId,
        sql: prepared.sql,
        settings: this.settingsFor(connection, options.settings),
        parameters: prepared.parameters,
        traceContext: options.traceContext,
      })
      await this.sendExternalTables(connection, options)
    } catch (error) {
      this.abandon(connection, error)
      throw error
    }
    const stream = new NativeQueryStream(
      connection,
      queryId,
      options,
      (released) => {
        this.streams.delete(stream)
        this.release(released)
      },
      budget,
      firstKeyword(sql) === 'INSERT',
      () => this.killQuery(connection.server.host, queryId),
    )
    this.streams.add(stream)
    return stream
  }

  /**
   * Stops a query on the server from a connection of its own, to the host the query runs
   * on (`KILL QUERY ... ASYNC`): for a query whose connection broke or went silent. Best
   * effort and in the background; errors are dropped.
   */
  private killQuery(host: HostAddress, queryId: string): void {
    const limitMs = this.options.connectTimeoutMs + 2_000
    const run = (async () => {
      const codecs = await this.compression()
      const connection = await NativeConnection.open(host, { ...this.options, receiveTimeoutMs: 0 }, codecs)
      try {
        connection.begin()
        await connection.sendQuery({
          queryId: newQueryId(),
          sql: `KILL QUERY WHERE query_id = ${quoteSqlString(queryId)} ASYNC`,
          settings: this.settingsFor(connection, undefined, true),
          parameters: [],
        })
        await connection.sendData('', [], 0)
        const answered = (async () => {
          for (;;) {
            const packet = await connection.receive()
            if (packet.type === 'EndOfStream' || packet.type === 'Exception') return
          }
        })()
        // Not ended by close(), which waits a little for kills.
        await CallDeadline.background(undefined, undefined, limitMs).wait(answered, () =>
          connection.destroy(),
        )
      } finally {
        connection.destroy()
      }
    })().catch(() => {})
    this.kills.add(run)
    void run.finally(() => this.kills.delete(run))
  }

  /** External tables, then the empty block that ends them (sent after every Query). */
  private async sendExternalTables(connection: NativeConnection, options: QueryOptions): Promise<void> {
    for (const table of options.externalTables ?? []) {
      const { columns, rows } = await externalTableColumns(table)
      await connection.sendData(table.name, columns, rows)
    }
    await connection.sendData('', [], 0)
  }

  /** A request failed while being sent: part of it may have reached the server, so the connection is dropped. */
  private abandon(connection: NativeConnection, error: unknown): void {
    if (connection.busy) connection.fail(error as Error)
    this.pool.release(connection)
  }

  async command(
    sql: string,
    options: RequestOptions = {},
  ): Promise<{ readonly queryId: string; readonly progress: Progress }> {
    const stream = (await this.run(sql, options)) as NativeQueryStream
    for await (const _ of stream) {
      // A command's result (if any) is read and dropped.
    }
    return { queryId: stream.queryId, progress: stream.progress }
  }

  /**
   * INSERT through the native protocol: the server sends the table's header (and, from
   * 54410, its column defaults), then blocks are streamed one by one as the producer makes
   * them, each compressed and written before the next is made. Success is reported only
   * after the server's EndOfStream, so nothing counts as written that the server did not
   * accept; a server error at any point raises it. An abort or timeout closes the
   * connection, which makes the server abandon the insert.
   */
  async insert(table: string, producer: InsertProducer, options: InsertOptions = {}): Promise<InsertResult> {
    const queryId = options.queryId ?? newQueryId()
    if (options.signal?.aborted)
      throw withOutcome(requestAbortError('insert', queryId, options.signal.reason), 'not-written')
    const columnList = options.columns?.length
      ? ` (${options.columns.map(quoteSqlIdentifier).join(', ')})`
      : ''
    const sql = `INSERT INTO ${quoteTableName(table)}${columnList} VALUES`
    const budget = this.deadline('insert', queryId, options)
    const signal = options.signal
    for (let attempts = 1; ; attempts++) {
      const connection = await this.acquire(signal, budget.remaining()).catch((error: unknown) => {
        throw withOutcome(error, 'not-written')
      })
      const state: { streaming: boolean; rowsSent?: number; endSent?: boolean } = { streaming: false }
      let failure: Error | undefined
      let querySent = false
      const stop = (error: Error) => {
        failure ??= error
        connection.fail(failure)
      }
      const unwatch = budget.watch(stop)
      const stopOnClose = () => stop(budget.errors.closed())
      this.inserts.add(stopOnClose)
      try {
        connection.begin()
        const prepared = this.prepare(connection, sql, options.params, options.settings)
        await connection.sendQuery({
          queryId,
          sql: prepared.sql,
          settings: this.settingsFor(connection, options.settings),
          parameters: prepared.parameters,
          traceContext: options.traceContext,
        })
        querySent = true
        await connection.sendData('', [], 0)
        const outcome = await runInsert(
          connection,
          producer,
          queryId,
          this.options.insertBlockRows,
          state,
          () => {
            if (failure) throw failure
          },
        )
        connection.finish()
        return { queryId, ...outcome }
      } catch (caught) {
        const error = this.insertFailure(caught, failure, connection, state, queryId, options, querySent)
        if (failure) {
          if (connection.busy) connection.fail(failure)
          throw error
        }
        // Before the header the server has read all we sent (an Exception there, e.g. an
        // unknown table, leaves the connection clean); from the header on it is reading
        // our blocks, and only closing the connection stops it.
        if (connection.busy) {
          if (state.streaming || !ClickHouseError.isInstance(error)) connection.fail(error as Error)
          else connection.finish()
        }
        // Rows go out only after the server's header (the first answer), so an insert that
        // failed before any answer sent none: the retry policy may send it again.
        const again = shouldRetry({
          staleConnection: this.stale(connection, connection.pump.received === 0, error),
          request: { kind: 'insert', rowsStarted: state.streaming || (state.rowsSent ?? 0) > 0 },
          attempts,
          pooledConnections: this.options.maxConnections,
        })
        if (again) {
          options.onRetry?.(attempts, error)
          continue
        }
        throw error
      } finally {
        unwatch()
        this.inserts.delete(stopOnClose)
        this.pool.release(connection)
      }
    }
  }

  /**
   * The error an insert fails with: a connection failure, timeout or abort says whether the
   * rows can have been written ({@link ClickwireError.insertOutcome}), and the insert is
   * killed on the server when it may still run there.
   */
  private insertFailure(
    caught: unknown,
    failure: Error | undefined,
    connection: NativeConnection,
    state: { streaming: boolean; rowsSent?: number; endSent?: boolean },
    queryId: string,
    options: InsertOptions,
    querySent: boolean,
  ): unknown {
    const error = failure ?? caught
    // The Query packet never went out: the server knows nothing of this insert.
    if (!querySent) return withOutcome(error, 'not-written')
    const stopped =
      ConnectionError.isInstance(error) || TimeoutError.isInstance(error) || AbortError.isInstance(error)
    // A stale pooled connection that failed before any answer is retried with the same query
    // id: nothing to kill then.
    if (stopped && (connection.pump.received > 0 || !ConnectionError.isInstance(error)))
      this.killQuery(connection.server.host, queryId)
    const settings = { ...this.options.settings, ...options.settings }
    return withInsertOutcome(
      error,
      {
        allSent: state.endSent === true,
        rowsSent: state.rowsSent ?? 0,
        bytesSent: connection.blockBytesSent,
        squashRows: squashSetting(settings.min_insert_block_size_rows, defaultSquashing.rows),
        squashBytes: squashSetting(settings.min_insert_block_size_bytes, defaultSquashing.bytes),
        stoppedKeepsRows: keepsRowsWhenStopped(connection.server.version),
      },
      queryId,
    )
  }

  async ping(
    options: { readonly signal?: AbortSignal | undefined; readonly timeoutMs?: number | undefined } = {},
  ): Promise<void> {
    // Without a per-call limit, the transport's request limit bounds the ping too.
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs
    const budget = CallDeadline.forCall('ping', timeoutMs, options.signal, this.closing.signal)
    for (let attempts = 1; ; attempts++) {
      const connection = await this.acquire(options.signal, budget.remaining())
      try {
        await budget.wait(connection.ping(options.signal), () => connection.fail())
        return
      } catch (error) {
        // A ping changes nothing: on a pooled connection the server had closed, it is sent again.
        const again = shouldRetry({
          staleConnection: this.stale(connection, connection.pump.received === 0, error),
          request: { kind: 'ping' },
          attempts,
          pooledConnections: this.options.maxConnections,
        })
        if (!again) throw error
      } finally {
        this.pool.release(connection)
      }
    }
  }

  async serverInfo(): Promise<ServerInfo> {
    if (!this.server) {
      // The first call learns the server by connecting, within the request limit (a sql``
      // query asks this before it runs, and must not wait for the longer connect timeout).
      const connection = await this.acquire(undefined, this.options.requestTimeoutMs)
      this.pool.release(connection)
    }
    const { name, version, revision, timezone, displayName } = this.server!
    return { name, version, revision, timezone, displayName }
  }

  async close(): Promise<void> {
    this.closed = true
    this.closing.abort()
    // Queries still running are cancelled; the pool then drops their draining connections,
    // and a query that did not stop by then is killed from another connection.
    for (const stream of this.streams) stream.abort(requestClosedError('query', stream.queryId))
    // An insert has no stream; its connection is failed, which also wakes a write waiting for drain.
    for (const stop of [...this.inserts]) stop()
    await this.pool.close()
    // Queries the close cut off are being killed: give that a moment, not the whole limit.
    if (this.kills.size > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        Promise.all(this.kills),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 2_000)
        }),
      ])
      clearTimeout(timer)
    }
  }

  toString(): string {
    const hosts = this.hosts.hosts.map(({ host, port }) => `${host}:${port}`).join(',')
    return `NativeTransport(${this.options.tls ? 'clickhouses' : 'clickhouse'}://${this.options.username}@${hosts}/${this.options.database})`
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString()
  }
}

/**
 * Creates a native transport from options or a `clickhouse://` / `clickhouses://` URL (see
 * {@link nativeOptionsFromUrl}); options given next to a URL override what it says.
 *
 * @example
 * ```ts
 * const native = createNativeTransport('clickhouse://default:@127.0.0.1:9000/default?compression=zstd')
 * const stream = await native.query('SELECT 1 AS one')
 * for await (const block of stream) console.log(block.columns[0]!.column.get(0)) // 1
 * await native.close()
 * ```
 */
export function createNativeTransport(
  urlOrOptions: string | NativeTransportOptions,
  overrides: Partial<NativeTransportOptions> = {},
): NativeTransport {
  if (typeof urlOrOptions !== 'string') return new NativeTransport({ ...urlOrOptions, ...overrides })
  const fromUrl = nativeOptionsFromUrl(urlOrOptions)
  const given = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined))
  return new NativeTransport({
    ...fromUrl,
    ...given,
    settings: { ...fromUrl.settings, ...overrides.settings },
    tls: fromUrl.tls === undefined ? overrides.tls : { ...fromUrl.tls, ...overrides.tls },
  } as NativeTransportOptions)
}
