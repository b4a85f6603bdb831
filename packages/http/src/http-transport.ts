import {
  CallDeadline,
  type CodecContext,
  type CompressionCodecs,
  type RawQueryOptions as ContractRawQueryOptions,
  decodeUtf8,
  type InsertOptions,
  type InsertProducer,
  type InsertResult,
  loadCodecs,
  newQueryId,
  type Progress,
  type QueryOptions,
  quoteSqlIdentifier,
  quoteTableName,
  type RawBody,
  type RawInsertOptions,
  type RawInsertResult,
  type RequestKind,
  type RequestOptions,
  registerSecret,
  resolveValueMapping,
  type ServerInfo,
  type Settings,
  type Transport,
  UsageError,
  type ValueMapping,
} from '@clickwire/protocol'
import { callHeaders, reportResponseHeaders } from './call-headers.js'
import { closeCancelSettings } from './close-cancel-settings.js'
import { checkQueryFormat, queryFormatError, statementFormat } from './format-clause-loader.js'
import { FramesProbe, frameCodecLoader, unframe, unframeBody } from './frames-probe.js'
import type { BackendBody, HttpBackend } from './http-backend.js'
import { drainExchange, readExchange } from './http-exchange.js'
import { NativeResult } from './http-native-result.js'
import { type HttpTransportOptions, type ResolvedOptions, resolveOptions } from './http-options.js'
import { type BoundStatement, bindParameters } from './http-parameters.js'
import { describedColumns, describeTableSql, insertHeader } from './insert-header.js'
import { finalProgress, progressFromHeaders, reportedWrittenRows } from './progress-headers.js'
import { RawResult } from './raw-result.js'
import { RequestSender } from './request-lifetime.js'
import { ResultMetadata } from './result-metadata.js'
import { nativeRevision } from './server-features.js'
import { ServerProbe } from './server-probe.js'

/** Options of {@link HttpTransport.queryRaw}. */
export interface RawQueryOptions extends ContractRawQueryOptions {
  /** Whether the request may be sent again after a stale kept-alive socket; default: read-only statements. */
  readonly retryable?: boolean | undefined
}

/** Extra options a query over HTTP takes. */
export interface HttpQueryOptions extends QueryOptions {
  /** Whether the request may be sent again after a stale kept-alive socket; default: read-only statements. */
  readonly retryable?: boolean | undefined
}

/** How a transport makes its HTTP client; the entry points pass node:http (Node) or fetch. */
export type BackendFactory = (options: ResolvedOptions, user: HttpTransportOptions) => HttpBackend

/** What an entry point knows about its runtime. */
export interface PlatformDefaults {
  /** Block codecs for compressed frames when the options give none (Node: LZ4 and ZSTD). */
  readonly loadCodecs?: (() => Promise<CompressionCodecs>) | undefined
}

/**
 * The ClickHouse HTTP interface as a clickwire {@link Transport}: queries stream `FORMAT
 * Native` blocks, inserts stream Native blocks in the request body, and any other format is
 * available as raw bytes. Runs over an injected HTTP client (node:http in Node, fetch
 * elsewhere); create it with `createHttpTransport` from `@clickwire/http`.
 *
 * Each job has its own part: request-lifetime.ts sends requests (deadlines, aborts, kills,
 * retries), server-probe.ts and frames-probe.ts learn about the server once, insert-header.ts
 * describes the table of every insert, result-metadata.ts completes what a Native answer
 * leaves out. Every call takes its deadline when it starts (call-deadline.ts) and every
 * request it makes on the way obeys it.
 */
export class HttpTransport implements Transport {
  readonly kind = 'http' as const
  readonly #options: ResolvedOptions
  readonly #backend: HttpBackend
  readonly #mapping: ValueMapping
  readonly #sender: RequestSender
  readonly #server: ServerProbe
  readonly #frames: FramesProbe
  readonly #codecs: () => Promise<CompressionCodecs>
  readonly #metadata: ResultMetadata

  constructor(options: HttpTransportOptions, backend: BackendFactory, platform: PlatformDefaults = {}) {
    this.#options = resolveOptions(options)
    registerSecret(this.#options.password)
    this.#mapping = resolveValueMapping(this.#options.mapping)
    this.#backend = backend(this.#options, options)
    this.#sender = new RequestSender(this.#options, this.#backend, (bytes) =>
      unframeBody(bytes, this.#codecs),
    )
    this.#server = new ServerProbe(this.#sender, this.#options.headerPrefix, this.#options.protocolRevision)
    this.#codecs = frameCodecLoader(this.#options.codecs, platform.loadCodecs)
    this.#frames = new FramesProbe(this.#options, this.#sender, this.#codecs)
    this.#metadata = new ResultMetadata((sql, statement, settings, signal) =>
      this.#describeText(sql, statement, settings, signal),
    )
  }

  /** Requests sent again after a stale kept-alive socket failed them (each resend counts). */
  get retries(): number {
    return this.#sender.retries
  }

  /** The HTTP client in use: `node:http` or `fetch`. */
  get backendName(): string {
    return this.#backend.name
  }

  toString(): string {
    const { base, username, auth } = this.#options
    return `HttpTransport(${base.origin}${base.pathname}, user ${username}, auth ${auth}, ${this.#backend.name})`
  }

  /** What `util.inspect` and `console.log` show: no credentials. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString()
  }

  toJSON(): Record<string, unknown> {
    return {
      kind: this.kind,
      url: `${this.#options.base.origin}${this.#options.base.pathname}`,
      user: this.#options.username,
    }
  }

  // ---------------------------------------------------------------------------------------
  // Transport

  /**
   * Runs a statement and streams its result as Native blocks. A FORMAT clause other than
   * `FORMAT Native` is refused before anything is sent (use {@link queryRaw}).
   */
  async query(sql: string, options: HttpQueryOptions = {}): Promise<NativeResult> {
    this.#sender.checkOpen()
    await checkQueryFormat(sql)
    const queryId = options.queryId ?? newQueryId()
    return this.#query(sql, queryId, options, this.#deadline('query', queryId, options))
  }

  /**
   * A query's result in any format, as bytes: TSV, CSV, JSONEachRow, Parquet, Arrow, ...
   * The format comes from the statement's FORMAT clause, else `options.format`.
   */
  async queryRaw(sql: string, options: RawQueryOptions = {}): Promise<RawResult> {
    this.#sender.checkOpen()
    const queryId = options.queryId ?? newQueryId()
    const deadline = this.#deadline('query', queryId, options)
    const format = options.format ?? 'TabSeparated'
    const { exchange, framing, progress } = await this.#sendQuery(sql, queryId, options, deadline, format)
    const { response } = exchange
    const prefix = this.#options.headerPrefix
    return new RawResult({
      queryId: response.headers.get(`${prefix}Query-Id`) ?? queryId,
      // Servers before 19.x name no format: the statement's own clause wins over the default.
      format: response.headers.get(`${prefix}Format`) ?? (await statementFormat(sql)) ?? format,
      body: framing ? unframe(response.body, framing, this.#options.maxBlockBytes) : response.body,
      exceptionTag: response.headers.get(`${prefix}Exception-Tag`),
      progress,
      stop: exchange.stop,
      bodyError: exchange.bodyError,
      settle: exchange.settle,
    })
  }

  /**
   * INSERT with the rows as Native blocks in the request body. The table's columns are
   * described for every insert (insert-header.ts), so the header is the table as it is now;
   * a named column the table lacks is refused by the server itself, as over native.
   */
  async insert(table: string, producer: InsertProducer, options: InsertOptions = {}): Promise<InsertResult> {
    this.#sender.checkOpen()
    const queryId = options.queryId ?? newQueryId()
    const deadline = this.#deadline('insert', queryId, options)
    const frameMethod = this.#options.requestCompression.find((method) => method !== 'gzip')
    const gzip = this.#options.requestCompression.includes('gzip')
    if (gzip && this.#options.simpleRequests) {
      throw new UsageError(
        'gzip request bodies need a Content-Encoding header, which simple requests cannot send',
      )
    }
    const server = await this.#server.get(deadline)
    const describe = await this.#query(describeTableSql(table), newQueryId(), {}, deadline)
    const found = insertHeader(table, await describedColumns(describe), options.columns)
    const columns = options.columns ?? found.header?.map((column) => column.name) ?? []
    const statement = `INSERT INTO ${quoteTableName(table)} (${columns.map(quoteSqlIdentifier).join(', ')}) FORMAT Native`
    if (found.missing) return this.#refuseColumns(table, statement, found.missing, queryId, options, deadline)
    const context: CodecContext = { revision: 0, timezone: server.timezone, mapping: this.#mapping }
    // The insert code (block writing, frame compression) loads on the first insert.
    const { InsertUpload } = await import('./insert-upload.js')
    const upload = new InsertUpload(found.header, producer, context, {
      frames: frameMethod ? { method: frameMethod, codecs: await deadline.wait(this.#codecs()) } : undefined,
      gzip,
    })
    const settings = { ...this.#options.settings, ...options.settings }
    const exchange = await this.#sender
      .send(
        {
          queryId,
          queryInUrl: statement,
          settings: options.settings,
          framedBody: frameMethod !== undefined,
          gzipBody: gzip,
          binaryBody: true,
          extraFields: [],
          headers: callHeaders(options),
        },
        () => upload.body(),
        {
          deadline,
          repeatable: () => ({ kind: 'insert', rowsStarted: upload.rowsStarted }),
          onRetry: options.onRetry,
        },
      )
      .catch((error: unknown) => {
        throw upload.failure(error, settings, queryId, server.version)
      })
    reportResponseHeaders(options, exchange.response.headers)
    const progress = await drainExchange(exchange, this.#options.headerPrefix).catch((error: unknown) => {
      throw upload.failure(error, settings, queryId, server.version)
    })
    return {
      queryId,
      rowsWritten: progress.writtenRows > 0 ? progress.writtenRows : upload.counter.rows,
      progress,
    }
  }

  /**
   * An INSERT whose rows are `body`, in the input format `options.format` (CSV, Parquet, ...):
   * the bytes go out as the server reads them, so a file stream is uploaded with
   * backpressure. Never sent twice: its bytes are the caller's and may have started.
   * `rowsWritten` is the server's count (its summary header); `undefined` from servers that
   * send none (18.16), since the body's rows are never parsed here.
   */
  async insertRaw(table: string, body: RawBody, options: RawInsertOptions): Promise<RawInsertResult> {
    this.#sender.checkOpen()
    const format = checkFormatName(options.format)
    const queryId = options.queryId ?? newQueryId()
    const deadline = this.#deadline('insert', queryId, options)
    await this.#server.get(deadline)
    const columns = options.columns ? ` (${options.columns.map(quoteSqlIdentifier).join(', ')})` : ''
    let started = false
    const exchange = await this.#sender.send(
      {
        queryId,
        queryInUrl: `INSERT INTO ${quoteTableName(table)}${columns} FORMAT ${format}`,
        settings: options.settings,
        binaryBody: true,
        extraFields: [],
        headers: callHeaders(options),
      },
      () => {
        started = true
        return rawBackendBody(body)
      },
      { deadline, repeatable: () => ({ kind: 'insert', rowsStarted: started }), onRetry: options.onRetry },
    )
    reportResponseHeaders(options, exchange.response.headers)
    const progress = await drainExchange(exchange, this.#options.headerPrefix)
    const rowsWritten = reportedWrittenRows(exchange.response.headers, this.#options.headerPrefix)
    return { queryId, rowsWritten, progress }
  }

  async command(
    sql: string,
    options: RequestOptions & { retryable?: boolean } = {},
  ): Promise<{
    readonly queryId: string
    readonly progress: Progress
  }> {
    this.#sender.checkOpen()
    const queryId = options.queryId ?? newQueryId()
    const deadline = this.#deadline('query', queryId, options)
    const server = await this.#server.get(deadline)
    const statement = await bindParameters(this.#options, sql, options.params, server, options.settings)
    const exchange = await this.#sender.send(
      { queryId, settings: options.settings, extraFields: statement.fields, headers: callHeaders(options) },
      statement.text,
      {
        deadline,
        repeatable: () => ({ kind: 'statement', sql, retryable: options.retryable }),
        onRetry: options.onRetry,
      },
    )
    reportResponseHeaders(options, exchange.response.headers)
    return { queryId, progress: await drainExchange(exchange, this.#options.headerPrefix) }
  }

  /**
   * Checks that the server answers and takes the credentials: an authenticated `SELECT 1`
   * (GET /ping needs none), so a wrong password fails here with the server's error, as a
   * native ping does. A plain POST, so it stays a simple request in browsers.
   */
  async ping(
    options: { readonly signal?: AbortSignal | undefined; readonly timeoutMs?: number | undefined } = {},
  ): Promise<void> {
    this.#sender.checkOpen()
    const deadline = CallDeadline.forCall(
      'ping',
      options.timeoutMs ?? this.#options.requestTimeoutMs,
      options.signal,
      this.#sender.closing,
    )
    const exchange = await this.#sender.send(
      { queryId: newQueryId(), defaultFormat: 'TabSeparated', inSession: false },
      'SELECT 1',
      { deadline, repeatable: () => ({ kind: 'ping' }), kill: false },
    )
    const text = decodeUtf8(await readExchange(exchange, 1024, 'reading the answer to the ping'))
    if (text.trim() !== '1') {
      throw new UsageError(
        `the server answered the ping (SELECT 1) with ${JSON.stringify(text.slice(0, 100))}`,
      )
    }
  }

  /**
   * Name, version, protocol revision, time zone and display name of the server, as the
   * native transport reports them for the same server (server-probe.ts); asked once,
   * within `requestTimeoutMs`.
   */
  async serverInfo(): Promise<ServerInfo> {
    this.#sender.checkOpen()
    const deadline = CallDeadline.forCall(
      'serverInfo',
      this.#options.requestTimeoutMs,
      undefined,
      this.#sender.closing,
    )
    const { name, version, revision, timezone, displayName } = await this.#server.get(deadline)
    return { name, version, revision, timezone, displayName }
  }

  /** Ends every request still running (and its query on the server), then closes the connections. */
  async close(): Promise<void> {
    await this.#sender.close()
  }

  /**
   * @deprecated There is no cache any more: every insert describes its table when it runs,
   * so a changed table needs nothing. Kept as a no-op for callers of earlier versions.
   */
  clearSchemaCache(): void {}

  // ---------------------------------------------------------------------------------------
  // Internals

  #deadline(kind: RequestKind, queryId: string, options: RequestOptions): CallDeadline {
    return CallDeadline.forRequest(
      kind,
      queryId,
      options.timeoutMs ?? this.#options.requestTimeoutMs,
      options.signal,
      this.#sender.closing,
      options.startedAt,
    )
  }

  #httpCompression(): 'gzip' | 'deflate' | undefined {
    const response = this.#options.responseCompression
    return response === 'gzip' || response === 'deflate' ? response : undefined
  }

  /** A query within an existing call's deadline (the call's own, or an insert's DESCRIBE). */
  async #query(
    sql: string,
    queryId: string,
    options: HttpQueryOptions,
    deadline: CallDeadline,
  ): Promise<NativeResult> {
    const { exchange, server, statement, framing, progress, revision } = await this.#sendQuery(
      sql,
      queryId,
      options,
      deadline,
      'Native',
    )
    const { response } = exchange
    const prefix = this.#options.headerPrefix
    const format = response.headers.get(`${prefix}Format`)
    if (format && format !== 'Native') {
      // A FORMAT clause the SQL check did not see; servers from 19.x name the format they use.
      response.body.cancel()
      exchange.settle()
      throw await queryFormatError(format)
    }
    const timezone = response.headers.get(`${prefix}Timezone`) ?? server.timezone
    return new NativeResult({
      queryId: response.headers.get(`${prefix}Query-Id`) ?? queryId,
      body: framing ? unframe(response.body, framing, this.#options.maxBlockBytes) : response.body,
      context: { revision, timezone, mapping: this.#mapping },
      maxBlockBytes: this.#options.maxBlockBytes,
      exceptionTag: response.headers.get(`${prefix}Exception-Tag`),
      progress,
      stop: exchange.stop,
      bodyError: exchange.bodyError,
      settle: exchange.settle,
      describe: () => this.#metadata.columns(statement, options.settings, deadline),
    })
  }

  /**
   * Sends a query whose answer is a result in `defaultFormat` (Native for {@link query}, the
   * raw format for {@link queryRaw}): binds its parameters, asks for compressed frames when
   * the server sends them, and reports the response headers and first progress.
   */
  async #sendQuery(
    sql: string,
    queryId: string,
    options: HttpQueryOptions,
    deadline: CallDeadline,
    defaultFormat: string,
  ) {
    const server = await this.#server.get(deadline)
    const bound = await bindParameters(this.#options, sql, options.params, server, options.settings)
    const tables = options.externalTables
    const sent = tables?.length
      ? await (await import('./external-tables-body.js')).withExternalTables(bound, tables, {
          revision: 0,
          timezone: server.timezone,
          mapping: this.#mapping,
          version: server.version,
        })
      : undefined
    const statement = sent?.statement ?? bound
    const framing = await this.#frames.framing(deadline)
    // Native answers of 26.8 on are asked at the negotiated revision when the caller asks.
    const revision = defaultFormat === 'Native' ? nativeRevision(server, this.#options.askRevision) : 0
    if (revision > 0) await deadline.wait(loadCodecs())
    const extraFields: ReadonlyArray<readonly [string, string]> =
      revision > 0 ? [...statement.fields, ['client_protocol_version', String(revision)]] : statement.fields
    // A read-only query the server cancels itself when its socket closes, should the KILL
    // sent after a timeout or an abort not arrive.
    const closeCancel = closeCancelSettings(
      sql,
      server,
      this.#options.sessionId !== undefined,
      this.#options.settings,
      options.settings,
    )
    const exchange = await this.#sender.send(
      {
        queryId,
        settings: closeCancel ? { ...closeCancel, ...options.settings } : options.settings,
        defaultFormat,
        extraFields,
        framedResponse: framing !== undefined,
        httpCompression: this.#httpCompression(),
        headers: callHeaders(options),
        contentType: sent?.contentType,
      },
      sent?.body ?? bound.text,
      {
        deadline,
        repeatable: () => ({ kind: 'statement', sql, retryable: options.retryable }),
        onRetry: options.onRetry,
      },
    )
    reportResponseHeaders(options, exchange.response.headers)
    const found = progressFromHeaders(exchange.response.headers, this.#options.headerPrefix)
    const progress = finalProgress(found)
    if (found.progress || found.summary) options.onProgress?.(progress, progress)
    return { exchange, server, statement, framing, progress, revision }
  }

  /** The TabSeparated answer of a DESCRIBE for result-metadata.ts, stopped by `signal`. */
  async #describeText(
    sql: string,
    statement: BoundStatement,
    settings: Settings | undefined,
    signal: AbortSignal,
  ): Promise<string> {
    // The external tables' columns without their rows: all that DESCRIBE needs.
    const sent = await statement.describeBody?.(sql)
    const exchange = await this.#sender.send(
      {
        queryId: newQueryId(),
        settings,
        defaultFormat: 'TabSeparated',
        extraFields: statement.fields,
        contentType: sent?.contentType,
      },
      sent?.body ?? sql,
      {
        deadline: CallDeadline.background(this.#sender.closing, signal),
        repeatable: () => ({ kind: 'statement', sql }),
        kill: false,
        background: true,
        aside: true,
      },
    )
    return decodeUtf8(await readExchange(exchange, 16 << 20, 'reading the answer to DESCRIBE'))
  }

  /**
   * An insert naming columns the table's DESCRIBE does not list: the INSERT goes to the
   * server with its column list and no rows, so the server refuses it with its own error
   * (NO_SUCH_COLUMN_IN_TABLE), the error the native protocol gives.
   */
  async #refuseColumns(
    table: string,
    statement: string,
    missing: readonly string[],
    queryId: string,
    options: InsertOptions,
    deadline: CallDeadline,
  ): Promise<never> {
    const exchange = await this.#sender.send(
      { queryId, queryInUrl: statement, settings: options.settings, binaryBody: true, extraFields: [] },
      '',
      { deadline, repeatable: () => ({ kind: 'insert', rowsStarted: false }) },
    )
    await drainExchange(exchange, this.#options.headerPrefix)
    throw new UsageError(
      `table ${table} has no column ${missing.map((name) => JSON.stringify(name)).join(', ')} that DESCRIBE TABLE shows`,
    )
  }
}

/** A format name as the server knows them (letters and digits), else a UsageError. */
function checkFormatName(format: unknown): string {
  if (typeof format !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(format))
    throw new UsageError(
      `insertRaw needs options.format, the input format's name (CSV, Parquet, ...), got ${JSON.stringify(format)}`,
    )
  return format
}

/** The caller's bytes as a request body: text as UTF-8, chunks passed on as they come. */
function rawBackendBody(body: RawBody): BackendBody {
  if (typeof body === 'string' || body instanceof Uint8Array) return body
  if (Symbol.asyncIterator in body) {
    return (async function* () {
      for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
        yield typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk
      }
    })()
  }
  if (Symbol.iterator in body) {
    return (async function* () {
      yield* body as Iterable<Uint8Array>
    })()
  }
  throw new UsageError('insertRaw takes text, a Uint8Array or an (async) iterable of Uint8Array chunks')
}
