import {
  AbortError,
  type BlockStream,
  CallDeadline,
  type ColumnMeta,
  type ExternalTable,
  type InsertBatch,
  type InsertResult,
  listenForAbort,
  newQueryId,
  type ParameterTypeFeatures,
  type Progress,
  parameterFeaturesOf,
  type QueryEvents,
  type RawBody,
  type RawInsertResult,
  type RawStream,
  type RowObject,
  registerSecret,
  type ServerInfo,
  type Settings,
  type Transport,
  UsageError,
} from '@clickwire/protocol'
import type { Table } from 'apache-arrow'
import type { ArrowTypeMapOf } from './arrow-type-map.js'
import { CallObserver, type CallStart, type ObservedCall, watchStreamEnd } from './call-observer.js'
import { checkCallOptions } from './call-options.js'
import { ClientLog } from './client-logger.js'
import { describeEndpoints, type ResolvedClientOptions } from './client-options.js'
import type { CallLimits } from './cluster-discovery-options.js'
import type { InsertSource, InsertValues } from './insert-values.js'
import { type QuerySummary, querySummary } from './query-summary.js'
import { lazyTracer } from './query-tracing-loader.js'
import { ResultSet } from './result-set.js'
import { sessionStatementError } from './session-statements.js'
import type { ShardOutcome } from './shard-insert-error.js'
import type { ShardedInserter, ShardedInsertOptions } from './sharded-insert.js'
import { isSqlFragment } from './sql-fragment-brand.js'
import type { SqlFragment } from './sql-template.js'

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
  /** HTTP: extra headers for this request, over the client's `httpHeaders` (native: a UsageError). */
  readonly httpHeaders?: Readonly<Record<string, string>> | undefined
}

/** Options of one insert (`sharding: 'direct'` writes a Distributed table's shards directly). */
export interface InsertCallOptions extends ShardedInsertOptions {
  /** Columns to insert into; default the names the values carry, else every insertable column. */
  readonly columns?: readonly string[] | undefined
  readonly settings?: Settings | undefined
  readonly queryId?: string | undefined
  /** Aborts the insert: nothing more is sent and the request is dropped. */
  readonly signal?: AbortSignal | undefined
  readonly timeoutMs?: number | undefined
  /** Rows per block sent (default the client's `insertBlockRows`). */
  readonly blockRows?: number | undefined
  /** HTTP: extra headers for this request, over the client's `httpHeaders` (native: a UsageError). */
  readonly httpHeaders?: Readonly<Record<string, string>> | undefined
}

/** Options of `queryRaw`. */
export interface RawQueryCallOptions extends QueryCallOptions {
  /**
   * The output format when the statement has no FORMAT clause (default TabSeparated): CSV,
   * TSVWithNames, JSONEachRow, Parquet, Arrow, ArrowStream, ... any the server writes.
   */
  readonly format?: string | undefined
}

/** What `queryRaw` resolves with: the bytes, and the HTTP response headers (names lower case). */
export interface RawQueryResult extends RawStream {
  readonly responseHeaders: Readonly<Record<string, string>>
}

/** Options of `insertRaw`. */
export interface RawInsertCallOptions {
  /** The input format of the bytes: CSV, CSVWithNames, TabSeparated, JSONEachRow, Parquet, ... */
  readonly format: string
  /** Columns the bytes fill, in order; default every insertable column. */
  readonly columns?: readonly string[] | undefined
  readonly settings?: Settings | undefined
  readonly queryId?: string | undefined
  readonly signal?: AbortSignal | undefined
  readonly timeoutMs?: number | undefined
  /** Extra headers for this request, over the client's `httpHeaders`. */
  readonly httpHeaders?: Readonly<Record<string, string>> | undefined
}

/** Bytes for `insertRaw`: text, a buffer, or chunks (a Node file stream, a web ReadableStream). */
export type RawInsertBody = RawBody | ReadableStream<Uint8Array>

/** Options of `command`. */
export interface CommandCallOptions {
  readonly params?: Readonly<Record<string, unknown>> | undefined
  readonly settings?: Settings | undefined
  readonly queryId?: string | undefined
  readonly signal?: AbortSignal | undefined
  readonly timeoutMs?: number | undefined
  /** HTTP: extra headers for this request, over the client's `httpHeaders` (native: a UsageError). */
  readonly httpHeaders?: Readonly<Record<string, string>> | undefined
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
  /** What the statement did (written rows and bytes, ...), the same shape on both transports. */
  readonly summary: QuerySummary
  /** HTTP: the server's response headers, names lower case; empty over native. */
  readonly responseHeaders: Readonly<Record<string, string>>
}

/** What `insert` and `insertRaw` resolve with: the transport's result, with its summary. */
export interface ClientInsertResult extends InsertResult {
  /** What the insert did (`writtenRows`, `writtenBytes`, ...), the same shape on both transports. */
  readonly summary: QuerySummary
  /** HTTP: the server's response headers, names lower case; empty over native. */
  readonly responseHeaders: Readonly<Record<string, string>>
  /** `sharding: 'direct'`: what each shard wrote (rowsWritten and summary are their sums). */
  readonly shards?: readonly ShardOutcome[] | undefined
}

/**
 * What `insertRaw` resolves with: as {@link ClientInsertResult}, but `rowsWritten` is
 * `undefined` when the server does not count the rows it wrote (18.16 sends no
 * `X-ClickHouse-Summary`), since the client never parses the bytes: unknown, not 0.
 */
export interface ClientRawInsertResult extends Omit<ClientInsertResult, 'rowsWritten' | 'shards'> {
  /** Rows the server confirmed written; `undefined` when the server does not say (18.16). */
  readonly rowsWritten: number | undefined
}

/** Makes a transport for resolved options (the build's factory: native in Node, HTTP anywhere). */
export type TransportFactory = (options: ResolvedClientOptions) => Transport

/** Options of {@link Client.session}. */
export interface SessionOptions {
  /**
   * The session's id: HTTP sends it as `session_id` (give a known one to continue a session
   * the server still keeps); over native it names the session only. Default a random UUID.
   */
  readonly id?: string | undefined
  /**
   * HTTP: how long the server keeps the session after its last request (`session_timeout`;
   * server default 60 s, at most its `max_session_timeout`). Over native the session lasts
   * as long as its connection, until `close()`, so this changes nothing there.
   */
  readonly timeoutSeconds?: number | undefined
}

/**
 * A session: calls that share state. What `SET`, `USE` and `CREATE TEMPORARY TABLE` do in
 * it stays for its later calls and is seen by nothing outside it. Over native it holds one
 * connection of its own for its lifetime (closed by `close()`, which ends the state); over
 * HTTP its requests carry its `session_id`. Its calls run one at a time, in the order they
 * were made: a call waits (within its own time limit, and `acquireTimeoutMs`) while an
 * earlier one runs or its result is unread. A session whose native connection is lost fails
 * its later calls with a ConnectionError rather than run them without the state.
 */
export interface Session
  extends Pick<
    Client,
    'query' | 'queryArrow' | 'insert' | 'queryRaw' | 'insertRaw' | 'command' | 'ping' | 'serverInfo'
  > {
  /** The session's id (HTTP's `session_id`). */
  readonly id: string
  /** `native` or `http`, as the client's. */
  readonly transport: 'native' | 'http'
  /** Ends the session (over native, closes its connection); later calls fail with a UsageError. */
  close(): Promise<void>
  [Symbol.asyncDispose](): Promise<void>
}

/** The one API over both transports. */
export interface Client {
  /** `native` or `http`, from the URL scheme. */
  readonly transport: 'native' | 'http'
  /**
   * Opens a {@link Session}, where state (`SET`, temporary tables, `USE`) lives on between
   * calls, the same over both transports. Outside a session those statements are a
   * UsageError. `client.close()` closes the sessions still open.
   *
   * @example
   * ```ts
   * await using s = await ch.session()
   * await s.command('SET max_threads = 1')
   * await s.command('CREATE TEMPORARY TABLE seen (id UInt64)')
   * const rs = await s.query("SELECT getSetting('max_threads') AS n, count() AS c FROM seen")
   * ```
   */
  session(options?: SessionOptions): Promise<Session>
  /**
   * Runs a query and resolves once its result starts; consume the ResultSet once (rows,
   * arrays, columns, arrow, iteration or blocks).
   */
  query<Row = RowObject>(query: string | SqlFragment, options?: QueryCallOptions): Promise<ResultSet<Row>>
  /**
   * Runs a query and resolves with its whole result as an apache-arrow Table: the Table
   * `(await query()).arrow()` gives, field by field. Over HTTP, on servers that have it,
   * read from the server's ArrowStream when every column's type reads the same from it
   * (see the README's Arrow section); otherwise from Native blocks as `arrow()`.
   */
  queryArrow<Row = RowObject>(
    query: string | SqlFragment,
    options?: QueryCallOptions,
  ): Promise<Table<ArrowTypeMapOf<Row>>>
  /**
   * Inserts rows, columns, an Arrow table or an (async) iterable of them; resolves with the
   * rows written.
   */
  insert<Row = RowObject>(
    table: string,
    values: InsertValues<Row>,
    options?: InsertCallOptions,
  ): Promise<ClientInsertResult>
  /**
   * Runs a query and streams its result as bytes in a server format (`options.format` or
   * the statement's FORMAT clause): CSV, TSVWithNames, JSONEachRow, Parquet, Arrow, ...
   * HTTP only: the native protocol carries results only as Native blocks, so over
   * `clickhouse://` this is a UsageError.
   */
  queryRaw(query: string | SqlFragment, options?: RawQueryCallOptions): Promise<RawQueryResult>
  /**
   * Inserts bytes in an input format (`options.format`): a CSV or Parquet file stream is
   * uploaded as the server reads it. HTTP only, as {@link queryRaw}. `rowsWritten` is the
   * server's count, `undefined` from servers that send none (18.16).
   */
  insertRaw(table: string, body: RawInsertBody, options: RawInsertCallOptions): Promise<ClientRawInsertResult>
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

/** A web ReadableStream as chunks pulled one by one; anything else as it is. */
function rawChunks(body: RawInsertBody): RawBody {
  if (typeof ReadableStream === 'undefined' || !(body instanceof ReadableStream)) return body as RawBody
  const stream = body
  return (async function* () {
    const reader = stream.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        yield value
      }
    } finally {
      reader.releaseLock()
    }
  })()
}

/** `promise`, or an AbortError as soon as `signal` fires. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  AbortError.throwIfAborted(signal)
  return new Promise<T>((resolve, reject) => {
    // One listener per signal, however many calls share it (listenForAbort).
    const stopListening = listenForAbort(signal, () => reject(new AbortError(signal.reason)))
    promise.then(resolve, reject).finally(stopListening)
  })
}

/** When a call began: now, or when the outer call that runs it (queryArrow) began. */
function callStart(options: object): number {
  return (options as { readonly startedAt?: number }).startedAt ?? performance.now()
}

/**
 * The client: a transport chosen by the URL, and everything that must behave the same on
 * both (sql templates, result sets, inserts, errors). Made by `createClient`.
 */
export class ClickwireClient implements Client {
  readonly transport: 'native' | 'http'
  readonly #transport: Transport
  readonly #options: ResolvedClientOptions
  readonly #observer: CallObserver
  #features: Promise<ParameterTypeFeatures> | undefined
  #timezone: Promise<string> | undefined
  #closed = false
  /** Makes the transports of the shards a direct-to-shard insert writes to. */
  readonly #transportFor: TransportFactory | undefined
  #sharded: ShardedInserter | undefined
  /** Sessions opened and not closed yet: close() closes them. */
  readonly #sessions = new Set<Session>()
  /** What the closed-error names: `client` or `session`. */
  readonly #noun: string

  constructor(
    options: ResolvedClientOptions,
    transport: Transport,
    transportFor?: TransportFactory,
    /** A session's: the observer of the client that opened it (one log, one tracer). */
    parent?: { readonly observer: CallObserver },
  ) {
    registerSecret(options.password)
    this.#options = options
    this.#transportFor = transportFor
    this.transport = options.kind
    this.#transport = transport
    this.#noun = parent ? 'session' : 'client'
    if (parent) {
      this.#observer = parent.observer
      return
    }
    const log = new ClientLog(options.logger, options.logLevel, options.password)
    const first = options.endpoints[0]!
    const tracer =
      options.tracing === undefined || options.tracing === false
        ? undefined
        : lazyTracer(options.tracing, {
            address: first.host,
            port: first.port,
            database: options.database,
          })
    this.#observer = new CallObserver(log, tracer, options.kind, options.redactParams)
    log.info('client created', { transport: options.kind, url: describeEndpoints(options) })
  }

  /**
   * Starts observing a call (log, span) and gives the transport options it adds: the trace
   * context, the headers (HTTP; a UsageError over native) and the response-headers hook.
   */
  async #begin(
    start: CallStart,
    headers: Readonly<Record<string, string>> | undefined,
  ): Promise<{ call: ObservedCall; extra: ReturnType<typeof requestExtras> }> {
    if (this.transport === 'native' && headers && Object.keys(headers).length > 0)
      throw new UsageError('httpHeaders are HTTP headers: the native protocol (clickhouse://) has none')
    const call = await this.#observer.begin(start)
    return { call, extra: requestExtras(call, headers) }
  }

  /**
   * The limits of one call from its start (its `timeoutMs`, else `requestTimeoutMs`, and
   * its signal), for what the client waits for before the transport has the call; the
   * transport gets `startedAt`, so the whole call keeps to the one limit.
   */
  #deadline(queryId: string, call: CallLimits & { readonly startedAt?: number | undefined }): CallDeadline {
    const limitMs = call.timeoutMs ?? this.#options.requestTimeoutMs ?? 0
    return CallDeadline.forRequest('query', queryId, limitMs, call.signal, undefined, call.startedAt)
  }

  /** The summary of a finished call from its progress and headers. */
  #summary(progress: Progress, call: ObservedCall): QuerySummary {
    return querySummary(progress, undefined, call.responseHeaders, this.#options.headerPrefix)
  }

  #assertOpen(): void {
    if (this.#closed) throw new UsageError(`the ${this.#noun} is closed`)
  }

  /** A statement that only a session keeps is a UsageError outside one (session-statements.ts). */
  #checkStatement(sql: string): void {
    if (this.#options.sessionId !== undefined) return
    const error = sessionStatementError(sql)
    if (error) throw error
  }

  async session(options: SessionOptions = {}): Promise<Session> {
    checkCallOptions('session', options)
    this.#assertOpen()
    if (options.id !== undefined && options.id.length === 0)
      throw new UsageError('a session id must not be empty')
    const timeoutSeconds = options.timeoutSeconds
    if (timeoutSeconds !== undefined && !(Number.isInteger(timeoutSeconds) && timeoutSeconds >= 1))
      throw new UsageError(
        `session timeoutSeconds must be a whole number of seconds >= 1, got ${timeoutSeconds}`,
      )
    if (!this.#transportFor) throw new UsageError('this client cannot open sessions')
    const { ClickwireSession, sessionOptions } = await import('./client-session.js')
    this.#assertOpen()
    const resolved = sessionOptions(this.#options, options.id, timeoutSeconds)
    const transport = this.#transportFor(resolved)
    const session: Session = new ClickwireSession(
      resolved,
      transport,
      this.#transportFor,
      this.#observer,
      () => this.#sessions.delete(session),
    )
    this.#sessions.add(session)
    try {
      // Over native this opens the session's connection: a server that is down or refuses
      // the credentials fails here, not at the first call.
      await session.serverInfo()
      this.#assertOpen()
    } catch (error) {
      await session.close()
      throw error
    }
    return session
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

  /**
   * Compiles a `sql` fragment for this server (old servers lack some inferred types). The
   * server's version is asked within the call's limits: the first sql`` call of a client
   * against a silent server ends with its own timeout or abort, as any other call.
   */
  async #compile(
    query: string | SqlFragment,
    params: Readonly<Record<string, unknown>> | undefined,
    call: CallLimits & { readonly queryId: string; readonly startedAt: number },
  ): Promise<{ sql: string; params: Readonly<Record<string, unknown>> | undefined }> {
    if (typeof query === 'string') return { sql: query, params }
    if (!isSqlFragment(query)) throw new UsageError('query takes a string or a sql`...` fragment')
    if (!this.#features) {
      const asking = this.#transport.serverInfo().then((info) => parameterFeaturesOf(info.version))
      this.#features = asking
      asking.catch(() => {
        if (this.#features === asking) this.#features = undefined
      })
    }
    const compiled = query.compile(await this.#deadline(call.queryId, call).wait(this.#features))
    for (const name of Object.keys(params ?? {})) {
      if (name in compiled.params)
        throw new UsageError(`parameter ${name} is given twice (sql template and params)`)
    }
    return { sql: compiled.query, params: { ...params, ...compiled.params } }
  }

  async query<Row = RowObject>(
    query: string | SqlFragment,
    options: QueryCallOptions = {},
  ): Promise<ResultSet<Row>> {
    checkCallOptions('query', options)
    this.#assertOpen()
    // The id is chosen here, so that a wait before the request (the server's version for a
    // sql`` fragment) ends with the error of the same query id the transport would use.
    const queryId = options.queryId ?? newQueryId()
    const startedAt = callStart(options)
    const sqlText = typeof query === 'string' ? query : undefined
    const { call, extra } = await this.#begin({ kind: 'query', queryId, sql: sqlText }, options.httpHeaders)
    let sent: BlockStream
    try {
      const { sql, params } = await this.#compile(query, options.params, { ...options, queryId, startedAt })
      this.#checkStatement(sql)
      call.params = params
      sent = await this.#transport.query(sql, { ...options, queryId, params, startedAt, ...extra })
    } catch (error) {
      call.finish(error, undefined)
      throw error
    }
    const prefix = this.#options.headerPrefix
    const stream = watchStreamEnd(sent, (error) =>
      call.finish(
        error,
        querySummary(sent.progress, sent.profileInfo, call.responseHeaders, prefix, stream.deliveredRows),
      ),
    )
    try {
      // Both transports give a result its columns, also when it has no rows.
      const meta = await stream.columns()
      const timezone = await abortable(this.#serverTimezone(), options.signal)
      return new ResultSet<Row>(stream, {
        meta,
        timezone,
        responseHeaders: call.responseHeaders,
        headerPrefix: prefix,
      })
    } catch (error) {
      call.finish(error, undefined)
      await stream.cancel()
      throw error
    }
  }

  async queryArrow<Row = RowObject>(
    query: string | SqlFragment,
    options: QueryCallOptions = {},
  ): Promise<Table<ArrowTypeMapOf<Row>>> {
    checkCallOptions('queryArrow', options)
    this.#assertOpen()
    // Its steps (the server's version, a DESCRIBE, the query) share the call's one limit,
    // and a wait before the query ends with the error of the query's own id.
    const queryId = options.queryId ?? newQueryId()
    const timed = { ...options, queryId, startedAt: performance.now() }
    const { queryArrowTable } = await import('./arrow-server-query.js')
    return queryArrowTable<Row>(
      {
        http: this.transport === 'http',
        query: (statement, callOptions) => this.query(statement, callOptions),
        queryRaw: (statement, callOptions) => this.queryRaw(statement, callOptions),
        serverInfo: () => this.#deadline(queryId, timed).wait(this.serverInfo()),
        describe: async (statement, callOptions) => {
          const queryId = newQueryId()
          const { sql, params } = await this.#compile(statement, callOptions.params, {
            ...callOptions,
            queryId,
            startedAt: timed.startedAt,
          })
          // A line break before `)`: a statement may end with a `--` comment.
          return this.query(`DESCRIBE TABLE (${sql}\n)`, { ...callOptions, queryId, params })
        },
      },
      query,
      timed,
    )
  }

  /** Runs an insert-like call observed: logged, traced, its result with summary and headers. */
  async #observedInsert<Result extends InsertResult | RawInsertResult>(
    start: CallStart,
    headers: Readonly<Record<string, string>> | undefined,
    run: (extra: ReturnType<typeof requestExtras>) => Promise<Result>,
  ): Promise<Result & Pick<ClientInsertResult, 'summary' | 'responseHeaders'>> {
    const { call, extra } = await this.#begin(start, headers)
    try {
      const result = await run(extra)
      const counted = this.#summary(result.progress, call)
      // Servers before revision 54420 (18.16 over native) send no written counts in Progress:
      // the rows the server accepted stand in for them (its bytes stay unknown, 0).
      const summary = counted.writtenRows > 0 ? counted : { ...counted, writtenRows: result.rowsWritten ?? 0 }
      call.finish(undefined, summary)
      return { ...result, summary, responseHeaders: call.responseHeaders }
    } catch (error) {
      call.finish(error, undefined)
      throw error
    }
  }

  async insert<Row = RowObject>(
    table: string,
    values: InsertValues<Row>,
    options: InsertCallOptions = {},
  ): Promise<ClientInsertResult> {
    // Loaded on the first insert: a page that only reads does not carry the insert code.
    const { insertSource, notWritten } = await import('./insert-values.js')
    let source: InsertSource | undefined
    try {
      checkCallOptions('insert', options)
      this.#assertOpen()
      AbortError.throwIfAborted(options.signal)
      const blockRows = options.blockRows ?? this.#options.insertBlockRows ?? 65_536
      if (options.sharding === 'direct') {
        // Its code loads on first use; it reaches shard clients' inserts through this closure.
        const { directInserter } = await import('./sharded-insert.js')
        this.#sharded ??= directInserter({
          client: this,
          options: this.#options,
          transportFor: this.#transportFor,
          insertSource,
          open: (options, transport) => new ClickwireClient(options, transport),
          insertBatches: (shard, ...args) => shard.#insertBatches(...args),
        })
        // A ShardInsertError says itself what became of the rows.
        return await this.#sharded.insert(table, values, options)
      }
      if (options.sharding !== undefined && options.sharding !== 'distributed')
        throw new UsageError(`sharding must be 'distributed' or 'direct', got ${String(options.sharding)}`)
      // Columns chosen by the caller pick keys; columns taken from the first row's keys make
      // a later row's other key an error rather than a value silently dropped.
      source = await insertSource(values as InsertValues<unknown>, blockRows, options.columns === undefined)
      const { names, batches } = source
      return await this.#insertBatches(table, options.columns ?? names, batches, options)
    } catch (error) {
      // Before the source, or before the transport asked for the rows, none went out.
      throw notWritten(error, source)
    } finally {
      // Whatever happened, the caller's iterator must not stay suspended.
      await source?.close()
    }
  }

  /** An observed insert of batches made for the server's header. */
  #insertBatches(
    table: string,
    columns: readonly string[] | undefined,
    batches: (header: readonly ColumnMeta[]) => AsyncIterable<InsertBatch> | Iterable<InsertBatch>,
    options: InsertCallOptions,
  ): Promise<ClientInsertResult> {
    const queryId = options.queryId ?? newQueryId()
    const { sharding: _sharding, shardUrl: _shardUrl, ...rest } = options
    return this.#observedInsert({ kind: 'insert', queryId, table }, options.httpHeaders, (extra) =>
      this.#transport.insert(table, batches, { ...rest, queryId, columns, ...extra }),
    )
  }

  async queryRaw(query: string | SqlFragment, options: RawQueryCallOptions = {}): Promise<RawQueryResult> {
    checkCallOptions('queryRaw', options)
    this.#assertOpen()
    const transport = this.#rawTransport('queryRaw')
    const queryId = options.queryId ?? newQueryId()
    const sqlText = typeof query === 'string' ? query : undefined
    const { call, extra } = await this.#begin(
      { kind: 'queryRaw', queryId, sql: sqlText },
      options.httpHeaders,
    )
    try {
      const startedAt = callStart(options)
      const { sql, params } = await this.#compile(query, options.params, { ...options, queryId, startedAt })
      this.#checkStatement(sql)
      call.params = params
      const raw = await transport.queryRaw(sql, { ...options, queryId, params, startedAt, ...extra })
      // The bytes are the caller's to read: the call is observed up to the response headers.
      call.finish(undefined, this.#summary(raw.progress, call))
      return Object.assign(raw, { responseHeaders: call.responseHeaders })
    } catch (error) {
      call.finish(error, undefined)
      throw error
    }
  }

  async insertRaw(
    table: string,
    body: RawInsertBody,
    options: RawInsertCallOptions,
  ): Promise<ClientRawInsertResult> {
    checkCallOptions('insertRaw', options)
    this.#assertOpen()
    const transport = this.#rawTransport('insertRaw')
    AbortError.throwIfAborted(options?.signal)
    const queryId = options?.queryId ?? newQueryId()
    return this.#observedInsert({ kind: 'insertRaw', queryId, table }, options?.httpHeaders, (extra) =>
      transport.insertRaw(table, rawChunks(body), { ...options, queryId, ...extra }),
    )
  }

  /** The transport's raw-format calls, or the UsageError that says why there are none. */
  #rawTransport(call: 'queryRaw' | 'insertRaw'): Required<Pick<Transport, 'queryRaw' | 'insertRaw'>> {
    const transport = this.#transport
    if (!transport.queryRaw || !transport.insertRaw) {
      throw new UsageError(
        `${call}() needs the HTTP interface: the native protocol carries data only as Native blocks, so formats such as CSV or Parquet are not available over clickhouse:// (use an http:// or https:// URL for this client, or ${call === 'queryRaw' ? 'query()' : 'insert()'} for rows)`,
      )
    }
    return transport as Required<Pick<Transport, 'queryRaw' | 'insertRaw'>>
  }

  async command(query: string | SqlFragment, options: CommandCallOptions = {}): Promise<CommandResult> {
    checkCallOptions('command', options)
    this.#assertOpen()
    const queryId = options.queryId ?? newQueryId()
    const sqlText = typeof query === 'string' ? query : undefined
    const { call, extra } = await this.#begin({ kind: 'command', queryId, sql: sqlText }, options.httpHeaders)
    try {
      const startedAt = callStart(options)
      const { sql, params } = await this.#compile(query, options.params, { ...options, queryId, startedAt })
      this.#checkStatement(sql)
      call.params = params
      const result = await this.#transport.command(sql, { ...options, queryId, params, startedAt, ...extra })
      const summary = this.#summary(result.progress, call)
      call.finish(undefined, summary)
      return {
        queryId: result.queryId,
        progress: result.progress,
        summary,
        responseHeaders: call.responseHeaders,
      }
    } catch (error) {
      call.finish(error, undefined)
      throw error
    }
  }

  async ping(options: PingCallOptions = {}): Promise<void> {
    checkCallOptions('ping', options)
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
    await Promise.all([...this.#sessions].map((session) => session.close()))
    await Promise.all([this.#transport.close(), this.#sharded?.close()])
    this.#observer.log.info(`${this.#noun} closed`, {
      transport: this.transport,
      url: describeEndpoints(this.#options),
    })
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

/** What an observed call adds to the transport's options. */
function requestExtras(
  call: ObservedCall,
  headers: Readonly<Record<string, string>> | undefined,
): ObservedCall['requestOptions'] & { headers: Readonly<Record<string, string>> | undefined } {
  return { ...call.requestOptions, headers }
}
