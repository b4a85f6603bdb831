import { randomUUID } from 'node:crypto'
import {
  AbortError,
  type BlockStream,
  ClickHouseError,
  type ColumnMeta,
  type CompressionCodecs,
  ConnectionError,
  emptyProgress,
  type InsertOptions,
  type InsertProducer,
  type InsertResult,
  NativeBlockWriter,
  type Progress,
  ProtocolError,
  parseColumnsDescription,
  type QueryOptions,
  type RequestOptions,
  Revision,
  redactSecrets,
  registerSecret,
  resolveValueMapping,
  type ServerInfo,
  type Settings,
  serverParameters,
  substituteParameters,
  TimeoutError,
  type Transport,
  UsageError,
} from '@clickwire/protocol'
import { loadCompression } from './compression-loader.js'
import { ConnectionPool } from './connection-pool.js'
import { HostSelector } from './host-selector.js'
import { NativeConnection, withTimeout } from './native-connection.js'
import { type HostAddress, type NativeOptions, nativeDefaults } from './native-options.js'
import { addProgress, NativeQueryStream, withQueryId } from './native-query-stream.js'

/** Options of {@link createNativeTransport}; everything but `hosts` has a default. */
export type NativeTransportOptions = { readonly hosts: readonly HostAddress[] } & {
  readonly [Key in Exclude<keyof NativeOptions, 'hosts' | 'mapping'>]?: NativeOptions[Key] | undefined
} & { readonly mapping?: Partial<NativeOptions['mapping']> | undefined }

/** Quotes a table name for INSERT: `db.table` parts are quoted unless already quoted. */
export function quoteTableName(table: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(table)) {
    return table
      .split('.')
      .map((part) => `\`${part}\``)
      .join('.')
  }
  if (/^\s*$/.test(table)) throw new UsageError('insert needs a table name')
  // Anything else (already quoted, or a table function) is taken as SQL.
  return table
}

function quoteColumn(name: string): string {
  return `\`${name.replace(/[\\`]/g, '\\$&')}\``
}

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
  private readonly hosts: HostSelector
  private readonly pool: ConnectionPool<NativeConnection>
  private codecs: Promise<CompressionCodecs | undefined> | undefined
  private server: ServerInfo | undefined
  private closed = false

  constructor(options: NativeTransportOptions) {
    if (!options.hosts || options.hosts.length === 0)
      throw new UsageError('the native transport needs at least one host')
    const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined))
    this.options = {
      ...nativeDefaults,
      ...defined,
      settings: options.settings ?? {},
      tls: options.tls,
      mapping: resolveValueMapping(options.mapping),
    } as NativeOptions
    registerSecret(this.options.password)
    this.hosts = new HostSelector(this.options.hosts, this.options.hostStrategy, this.options.hostCooldownMs)
    this.pool = new ConnectionPool({
      maxConnections: this.options.maxConnections,
      idleTimeoutMs: this.options.idleTimeoutMs,
      pingAfterIdleMs: this.options.pingAfterIdleMs,
      create: (signal) => this.connect(signal),
    })
  }

  /** Pool counters, for tests and monitoring. */
  get poolStats(): { open: number; idle: number; waiting: number } {
    return this.pool.stats
  }

  private compression(): Promise<CompressionCodecs | undefined> {
    this.codecs ??= this.options.compression === 'none' ? Promise.resolve(undefined) : loadCompression()
    return this.codecs
  }

  /** Opens a connection to the first host that answers, setting failed hosts aside. */
  private async connect(signal: AbortSignal | undefined): Promise<NativeConnection> {
    const codecs = await this.compression()
    const errors: string[] = []
    let last: unknown
    for (const host of this.hosts.candidates()) {
      try {
        const connection = await NativeConnection.open(host, this.options, codecs, signal)
        this.hosts.succeeded(host)
        this.server = connection.server
        return connection
      } catch (error) {
        // A server that answered (wrong password, unknown database) is not a dead host.
        if (ClickHouseError.isInstance(error) || AbortError.isInstance(error)) throw error
        this.hosts.failed(host)
        errors.push(`${host.host}:${host.port}: ${(error as Error).message}`)
        last = error
      }
    }
    if (errors.length === 1) throw last
    throw new ConnectionError(`no host answered: ${errors.join('; ')}`, { cause: last })
  }

  private async acquire(signal: AbortSignal | undefined): Promise<NativeConnection> {
    if (this.closed) throw new UsageError('the transport is closed')
    return this.pool.acquire(signal, this.options.connectTimeoutMs * 3)
  }

  private release = (connection: NativeConnection): void => {
    this.pool.release(connection)
  }

  private settingsFor(extra: Settings | undefined) {
    const merged = { ...this.options.settings, ...extra }
    return Object.entries(merged)
      .filter((entry): entry is [string, string | number | bigint | boolean] => entry[1] !== undefined)
      .map(([name, value]) => ({ name, value }))
  }

  /** The SQL and protocol parameters for a query on this connection's revision. */
  private prepare(
    connection: NativeConnection,
    sql: string,
    params: RequestOptions['params'],
  ): { sql: string; parameters: { name: string; value: string }[] } {
    if (!params || Object.keys(params).length === 0) return { sql, parameters: [] }
    if (connection.revision >= Revision.withParameters) {
      return {
        sql,
        parameters: serverParameters(sql, params).map(({ name, text }) => ({ name, value: text })),
      }
    }
    return { sql: substituteParameters(sql, params), parameters: [] }
  }

  /** Starts a query and returns its block stream once the request is sent. */
  async query(sql: string, options: QueryOptions = {}): Promise<BlockStream> {
    AbortError.throwIfAborted(options.signal)
    const connection = await this.acquire(options.signal)
    const queryId = options.queryId ?? randomUUID()
    let prepared: { sql: string; parameters: { name: string; value: string }[] }
    try {
      prepared = this.prepare(connection, sql, options.params)
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
        settings: this.settingsFor(options.settings),
        parameters: prepared.parameters,
      })
      await this.sendExternalTables(connection, options)
    } catch (error) {
      this.abandon(connection, error)
      throw error
    }
    return new NativeQueryStream(
      connection,
      queryId,
      options,
      this.release,
      options.signal,
      options.timeoutMs ?? this.options.queryTimeoutMs,
    )
  }

  /** External tables, then the empty block that ends them (sent after every Query). */
  private async sendExternalTables(connection: NativeConnection, options: QueryOptions): Promise<void> {
    for (const table of options.externalTables ?? []) {
      const columns = table.columns.map((column) => {
        const values = Array.isArray(table.data)
          ? (table.data as readonly Record<string, unknown>[]).map((row) => row[column.name])
          : (table.data as Record<string, ArrayLike<unknown>>)[column.name]
        if (values === undefined)
          throw new UsageError(`external table ${table.name} has no values for ${column.name}`)
        return { name: column.name, type: column.type, values }
      })
      const rows = columns[0]?.values.length ?? 0
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
    const stream = (await this.query(sql, options)) as NativeQueryStream
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
   * accept; a server error at any point raises it.
   */
  async insert(table: string, producer: InsertProducer, options: InsertOptions = {}): Promise<InsertResult> {
    AbortError.throwIfAborted(options.signal)
    const connection = await this.acquire(options.signal)
    const queryId = options.queryId ?? randomUUID()
    const columnList = options.columns?.length ? ` (${options.columns.map(quoteColumn).join(', ')})` : ''
    let progress: Progress = emptyProgress
    let rowsSent = 0
    const signal = options.signal
    const timeoutMs = options.timeoutMs ?? this.options.queryTimeoutMs
    const fail = (error: Error) => connection.fail(error)
    let failure: Error | undefined
    const onAbort = () => {
      failure ??= new AbortError(signal?.reason, `insert ${queryId} was aborted`)
      fail(failure)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            failure ??= new TimeoutError(
              'query',
              timeoutMs,
              `insert ${queryId} ran longer than ${timeoutMs} ms`,
            )
            fail(failure)
          }, timeoutMs)
        : undefined
    /** Handles a packet that may arrive at any point; returns true at the end of the request. */
    const absorb = (packet: Awaited<ReturnType<NativeConnection['receive']>>): boolean => {
      switch (packet.type) {
        case 'Progress':
          progress = addProgress(progress, packet)
          return false
        case 'Log':
        case 'ProfileEvents':
        case 'TableColumns':
        case 'TimezoneUpdate':
          return false
        case 'Exception':
          connection.finish()
          throw withQueryId(packet.error, queryId)
        case 'EndOfStream':
          return true
        default:
          throw new ProtocolError(`unexpected ${packet.type} packet during an insert`)
      }
    }
    try {
      connection.begin()
      const prepared = this.prepare(
        connection,
        `INSERT INTO ${quoteTableName(table)}${columnList} VALUES`,
        options.params,
      )
      await connection.sendQuery({
        queryId,
        sql: prepared.sql,
        settings: this.settingsFor(options.settings),
        parameters: prepared.parameters,
      })
      await connection.sendData('', [], 0)
      // The table's header: TableColumns (defaults) may come first, logs and progress too.
      let defaults = new Map<string, { kind: string; expression: string }>()
      let header: readonly ColumnMeta[] | undefined
      while (header === undefined) {
        const packet = await connection.receive()
        if (packet.type === 'Data') {
          header = packet.block.columns.map((column) => ({
            name: column.name,
            type: column.typeName,
            typeNode: column.type,
            defaultKind: (defaults.get(column.name)?.kind ?? '') as ColumnMeta['defaultKind'],
            defaultExpression: defaults.get(column.name)?.expression,
          }))
        } else if (packet.type === 'TableColumns') {
          defaults = new Map(
            parseColumnsDescription(packet.columns).map((column) => [
              column.name,
              { kind: column.defaultKind ?? '', expression: column.defaultExpression ?? '' },
            ]),
          )
        } else if (absorb(packet))
          throw new ProtocolError('the server ended the insert before sending its header')
      }
      const blocks = new NativeBlockWriter(connection.context, true)
      for await (const batch of producer(header)) {
        if (failure) throw failure
        if (batch.rows === 0) continue
        const columns = header.map((column, index) => ({
          name: column.name,
          type: column.type,
          values: batch.columns[index]!,
        }))
        await connection.sendData('', columns, batch.rows, blocks)
        rowsSent += batch.rows
        // An error the server raised meanwhile (a constraint, a bad value) stops the insert now.
        for (let packet = connection.poll(); packet; packet = connection.poll()) {
          if (absorb(packet)) throw new ProtocolError('the server ended the insert early')
        }
      }
      if (failure) throw failure
      await connection.sendData('', [], 0)
      for (;;) {
        const packet = await connection.receive()
        if (absorb(packet)) break
      }
      connection.finish()
      return {
        queryId,
        // From 54420 the server counts written rows; before, EndOfStream after our last block
        // confirms every row sent.
        rowsWritten: connection.revision >= Revision.withClientWriteInfo ? progress.writtenRows : rowsSent,
        progress,
      }
    } catch (error) {
      // A half-sent insert leaves the protocol mid-request: the connection cannot be reused.
      if (connection.busy) connection.fail(error as Error)
      throw failure ?? (error instanceof Error ? error : new Error(redactSecrets(String(error))))
    } finally {
      if (timer) clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      this.pool.release(connection)
    }
  }

  async ping(
    options: { readonly signal?: AbortSignal | undefined; readonly timeoutMs?: number | undefined } = {},
  ): Promise<void> {
    const connection = await this.acquire(options.signal)
    try {
      await withTimeout(connection.ping(options.signal), options.timeoutMs ?? 0, 'ping', undefined, () =>
        connection.fail(),
      )
    } finally {
      this.pool.release(connection)
    }
  }

  async serverInfo(): Promise<ServerInfo> {
    if (!this.server) {
      const connection = await this.acquire(undefined)
      this.pool.release(connection)
    }
    const { name, version, revision, timezone, displayName } = this.server!
    return { name, version, revision, timezone, displayName }
  }

  async close(): Promise<void> {
    this.closed = true
    await this.pool.close()
  }

  toString(): string {
    const hosts = this.options.hosts.map(({ host, port }) => `${host}:${port}`).join(',')
    return `NativeTransport(${this.options.tls ? 'clickhouses' : 'clickhouse'}://${this.options.username}@${hosts}/${this.options.database})`
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString()
  }
}

/** Creates a native transport; see {@link NativeTransport}. */
export function createNativeTransport(options: NativeTransportOptions): NativeTransport {
  return new NativeTransport(options)
}
