import {
  AbortError,
  type BlockStream,
  type ColumnMeta,
  type ExternalTable,
  type InsertResult,
  type ParameterTypeFeatures,
  type Progress,
  parameterFeaturesOf,
  parseTypeCached,
  type QueryEvents,
  type RowObject,
  registerSecret,
  type ServerInfo,
  type Settings,
  type Transport,
  UsageError,
} from '@clickwire/protocol'
import { describeEndpoints, type ResolvedClientOptions } from './client-options.js'
import { describeSubquery } from './describe-subquery.js'
import { type InsertValues, insertSource } from './insert-values.js'
import { ResultSet } from './result-set.js'
import { SqlFragment } from './sql-template.js'

/** Options of one query. */
export interface QueryCallOptions extends QueryEvents {
  /** `{name:Type}` placeholder values. */
  readonly params?: Readonly<Record<string, unknown>> | undefined
  /** ClickHouse settings for this query, names as ClickHouse spells them. */
  readonly settings?: Settings | undefined
  readonly queryId?: string | undefined
  /** Aborts the query, also while its result is being read. */
  readonly signal?: AbortSignal | undefined
  /** Ends the query with a TimeoutError after this long (default the client's `requestTimeoutMs`). */
  readonly timeoutMs?: number | undefined
  /** Tables sent along with the query. */
  readonly externalTables?: readonly ExternalTable[] | undefined
}

/** Options of one insert. */
export interface InsertCallOptions {
  /** Columns to insert into; default the names the values carry, else every insertable column. */
  readonly columns?: readonly string[] | undefined
  readonly settings?: Settings | undefined
  readonly queryId?: string | undefined
  /** Aborts the insert: nothing more is sent and the request is dropped. */
  readonly signal?: AbortSignal | undefined
  readonly timeoutMs?: number | undefined
  /** Rows per block sent (default the client's `insertBlockRows`). */
  readonly blockRows?: number | undefined
}

/** Options of `command`. */
export interface CommandCallOptions {
  readonly params?: Readonly<Record<string, unknown>> | undefined
  readonly settings?: Settings | undefined
  readonly queryId?: string | undefined
  readonly signal?: AbortSignal | undefined
  readonly timeoutMs?: number | undefined
}

/** Options of `ping`. */
export interface PingCallOptions {
  readonly signal?: AbortSignal | undefined
  readonly timeoutMs?: number | undefined
}

/** What `command` resolves with. */
export interface CommandResult {
  readonly queryId: string
  readonly progress: Progress
}

/** The one API over both transports. */
export interface Client {
  /** `native` or `http`, from the URL scheme. */
  readonly transport: 'native' | 'http'
  /**
   * Runs a query and resolves once its result starts; consume the ResultSet once (rows,
   * arrays, columns, arrow, iteration or blocks).
   */
  query<Row = RowObject>(query: string | SqlFragment, options?: QueryCallOptions): Promise<ResultSet<Row>>
  /**
   * Inserts rows, columns, an Arrow table or an (async) iterable of them; resolves with the
   * rows written.
   */
  insert<Row = RowObject>(
    table: string,
    values: InsertValues<Row>,
    options?: InsertCallOptions,
  ): Promise<InsertResult>
  /** Runs a statement and drops its result (DDL, ALTER, SET ...). */
  command(query: string | SqlFragment, options?: CommandCallOptions): Promise<CommandResult>
  /** Checks the server answers. */
  ping(options?: PingCallOptions): Promise<void>
  /** Name, version, revision and time zone of the server. */
  serverInfo(): Promise<ServerInfo>
  /** Closes every connection; later calls fail with a UsageError. */
  close(): Promise<void>
  [Symbol.asyncDispose](): Promise<void>
}

/** `promise`, or an AbortError as soon as `signal` fires. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  AbortError.throwIfAborted(signal)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortError(signal.reason))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** Text before the first keyword: comments, blanks and opening parentheses. */
const leadingNoise = /^(?:\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/|\()*/

/** Whether a statement is a SELECT (its columns can be asked with DESCRIBE). */
function isSelect(sql: string): boolean {
  return /^(?:select|with)\b/i.test(sql.replace(leadingNoise, ''))
}

/**
 * The client: a transport chosen by the URL, and everything that must behave the same on
 * both (sql templates, result sets, inserts, errors). Made by `createClient`.
 */
export class ClickwireClient implements Client {
  readonly transport: 'native' | 'http'
  readonly #transport: Transport
  readonly #options: ResolvedClientOptions
  #features: Promise<ParameterTypeFeatures> | undefined
  #timezone: Promise<string> | undefined
  #closed = false

  constructor(options: ResolvedClientOptions, transport: Transport) {
    registerSecret(options.password)
    this.#options = options
    this.transport = options.kind
    this.#transport = transport
  }

  #assertOpen(): void {
    if (this.#closed) throw new UsageError('the client is closed')
  }

  /** The server's time zone, asked once (again after a failure). */
  #serverTimezone(): Promise<string> {
    if (!this.#timezone) {
      const asking = this.#transport.serverInfo().then((info) => info.timezone)
      this.#timezone = asking
      asking.catch(() => {
        if (this.#timezone === asking) this.#timezone = undefined
      })
    }
    return this.#timezone
  }

  /** Compiles a `sql` fragment for this server (old servers lack some inferred types). */
  async #compile(
    query: string | SqlFragment,
    params: Readonly<Record<string, unknown>> | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ sql: string; params: Readonly<Record<string, unknown>> | undefined }> {
    if (typeof query === 'string') return { sql: query, params }
    if (!SqlFragment.isInstance(query)) throw new UsageError('query takes a string or a sql`...` fragment')
    if (!this.#features) {
      const asking = this.#transport.serverInfo().then((info) => parameterFeaturesOf(info.version))
      this.#features = asking
      asking.catch(() => {
        if (this.#features === asking) this.#features = undefined
      })
    }
    const compiled = query.compile(await abortable(this.#features, signal))
    for (const name of Object.keys(params ?? {})) {
      if (name in compiled.params)
        throw new UsageError(`parameter ${name} is given twice (sql template and params)`)
    }
    return { sql: compiled.query, params: { ...params, ...compiled.params } }
  }

  /**
   * Columns of a SELECT whose result was empty. The Native format sends no header block
   * for an empty result over HTTP (the native protocol always does), so the client asks
   * the server with DESCRIBE, and an empty result has the same meta on both transports.
   */
  async #describe(
    sql: string,
    params: Readonly<Record<string, unknown>> | undefined,
    options: QueryCallOptions,
  ): Promise<readonly ColumnMeta[]> {
    try {
      // A trailing `-- comment` or `FORMAT Native` would break the DESCRIBE (see describeSubquery).
      const stream = await this.#transport.query(`DESCRIBE TABLE (\n${describeSubquery(sql)}\n)`, {
        params,
        settings: options.settings,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
      })
      const meta: ColumnMeta[] = []
      for await (const block of stream) {
        const names = block.columns.find((column) => column.name === 'name')?.column
        const types = block.columns.find((column) => column.name === 'type')?.column
        if (!names || !types) return []
        for (let row = 0; row < block.rows; row++) {
          const type = String(types.get(row))
          meta.push({ name: String(names.get(row)), type, typeNode: parseTypeCached(type) })
        }
      }
      return meta
    } catch (error) {
      if (AbortError.isInstance(error)) throw error
      // A statement DESCRIBE cannot take: the result simply has no columns to show.
      return []
    }
  }

  async query<Row = RowObject>(
    query: string | SqlFragment,
    options: QueryCallOptions = {},
  ): Promise<ResultSet<Row>> {
    this.#assertOpen()
    const { sql, params } = await this.#compile(query, options.params, options.signal)
    const stream: BlockStream = await this.#transport.query(sql, { ...options, params })
    try {
      let meta = await stream.columns()
      if (meta.length === 0 && this.#transport.kind === 'http' && isSelect(sql)) {
        meta = await this.#describe(sql, params, options)
      }
      const timezone = await abortable(this.#serverTimezone(), options.signal)
      return new ResultSet<Row>(stream, { meta, timezone })
    } catch (error) {
      await stream.cancel()
      throw error
    }
  }

  async insert<Row = RowObject>(
    table: string,
    values: InsertValues<Row>,
    options: InsertCallOptions = {},
  ): Promise<InsertResult> {
    this.#assertOpen()
    AbortError.throwIfAborted(options.signal)
    const blockRows = options.blockRows ?? this.#options.insertBlockRows ?? 65_536
    const source = await insertSource(values as InsertValues<unknown>, blockRows)
    try {
      return await this.#transport.insert(table, (header) => source.batches(header), {
        ...options,
        columns: options.columns ?? source.names,
      })
    } finally {
      // Whatever happened, the caller's iterator must not stay suspended.
      await source.close()
    }
  }

  async command(query: string | SqlFragment, options: CommandCallOptions = {}): Promise<CommandResult> {
    this.#assertOpen()
    const { sql, params } = await this.#compile(query, options.params, options.signal)
    return this.#transport.command(sql, { ...options, params })
  }

  async ping(options: PingCallOptions = {}): Promise<void> {
    this.#assertOpen()
    AbortError.throwIfAborted(options.signal)
    await this.#transport.ping(options)
  }

  async serverInfo(): Promise<ServerInfo> {
    this.#assertOpen()
    return this.#transport.serverInfo()
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#transport.close()
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close()
  }

  /** `ClickwireClient(clickhouse://user@host:port/db)`: never the password. */
  toString(): string {
    return `ClickwireClient(${describeEndpoints(this.#options)})`
  }

  toJSON(): { transport: 'native' | 'http'; url: string } {
    return { transport: this.transport, url: describeEndpoints(this.#options) }
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString()
  }
}
