import {
  AbortError,
  ClickwireError,
  type CodecContext,
  type ColumnMeta,
  type CompressionCodecs,
  ConnectionError,
  compressFrames,
  decodeUtf8,
  defaultSquashing,
  emptyProgress,
  FrameDecoder,
  httpQueryParameters,
  type InsertOptions,
  type InsertProducer,
  type InsertResult,
  isReadOnlyStatement,
  maxQuerySizeOf,
  type Progress,
  parseTypeCached,
  type QueryOptions,
  type RequestOptions,
  registerSecret,
  resolveValueMapping,
  type ServerInfo,
  type Settings,
  squashSetting,
  substituteParameters,
  TimeoutError,
  type Transport,
  UsageError,
  type ValueMapping,
  withInsertOutcome,
} from '@clickwire/protocol'
import { serverError } from './exception-trailer.js'
import { gzipChunks } from './gzip-body.js'
import {
  type BackendBody,
  type BackendResponse,
  type BodyReader,
  type HttpBackend,
  isBackendFailure,
} from './http-backend.js'
import { type HttpTransportOptions, type ResolvedOptions, resolveOptions } from './http-options.js'
import { type InsertCounter, nativeInsertBody } from './insert-body.js'
import { NativeResult } from './native-result.js'
import { finalProgress, progressFromHeaders } from './progress-headers.js'
import { RawResult } from './raw-result.js'
import { buildRequest, quoteIdentifier, quoteString, type RequestParts } from './request-builder.js'
import { describedTypes } from './result-zones.js'
import { featuresOf, type ServerFeatures } from './server-features.js'

/** Options of {@link HttpTransport.queryRaw}. */
export interface RawQueryOptions extends QueryOptions {
  /** Output format for statements without a FORMAT clause (default TabSeparated). */
  readonly format?: string | undefined
}

/** Extra options a query over HTTP takes. */
export interface HttpQueryOptions extends QueryOptions {
  /** Whether the request may be sent again after a stale kept-alive socket; default: read-only statements. */
  readonly retryable?: boolean | undefined
}

/** How a transport makes its HTTP client; the entry points pass undici (Node) or fetch. */
export type BackendFactory = (options: ResolvedOptions, user: HttpTransportOptions) => HttpBackend

/** What an entry point knows about its runtime. */
export interface PlatformDefaults {
  /** Block codecs for compressed frames when the options give none (Node: LZ4 and ZSTD). */
  readonly loadCodecs?: (() => Promise<CompressionCodecs>) | undefined
}

/** Failures on a socket the server may have closed while it sat idle in the pool. */
const staleSocketCodes = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ERR_SOCKET_CLOSED',
  'ECONNABORTED',
])

const maxErrorBody = 1 << 20

interface Exchange {
  readonly queryId: string
  readonly response: BackendResponse
  /** Aborts the request and, when it may still run, stops the query on the server. */
  readonly stop: (reason: unknown) => Promise<void>
  /** Maps a body failure to the error to raise. */
  readonly bodyError: (cause: unknown, detail: string) => Error
  /** Releases timers and listeners. */
  readonly settle: () => void
}

/**
 * The whole (small) body of an exchange, then its timers released. A body that breaks off
 * is the transport's typed error, never the backend's failure record.
 */
async function readExchange(exchange: Exchange, limit: number, detail: string): Promise<Uint8Array> {
  try {
    return await readAll(exchange.response.body, limit)
  } catch (error) {
    throw exchange.bodyError(error, detail)
  } finally {
    exchange.settle()
  }
}

function randomId(): string {
  const crypto = globalThis.crypto
  if (typeof crypto?.randomUUID === 'function') return crypto.randomUUID()
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

async function readAll(body: BodyReader, limit: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  let total = 0
  for (;;) {
    const chunk = await body.read()
    if (chunk === undefined) break
    if (total < limit) parts.push(chunk.subarray(0, limit - total))
    total += chunk.length
  }
  const out = new Uint8Array(Math.min(total, limit))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/**
 * The ClickHouse HTTP interface as a clickwire {@link Transport}: queries stream `FORMAT
 * Native` blocks, inserts stream Native blocks in the request body, and any other format is
 * available as raw bytes. Runs over an injected HTTP client (undici in Node, fetch
 * elsewhere); create it with `createHttpTransport` from `@clickwire/http`.
 */
export class HttpTransport implements Transport {
  readonly kind = 'http' as const
  readonly #options: ResolvedOptions
  readonly #backend: HttpBackend
  readonly #mapping: ValueMapping
  #server: Promise<ServerFeatures> | undefined
  #framesWork: Promise<boolean> | undefined
  readonly #schemas = new Map<string, Promise<readonly ColumnMeta[]>>()
  readonly #described = new Map<string, Promise<readonly string[] | undefined>>()
  #closed = false
  /** How to stop each request in flight; close() stops them (and their queries on the server). */
  readonly #active = new Set<(reason: unknown) => Promise<void>>()
  /** Aborted by close(): best-effort KILL QUERY requests still in flight give up then. */
  readonly #closing = new AbortController()
  #retries = 0
  readonly #platform: PlatformDefaults
  #codecs: Promise<CompressionCodecs> | undefined

  constructor(options: HttpTransportOptions, backend: BackendFactory, platform: PlatformDefaults = {}) {
    this.#platform = platform
    this.#options = resolveOptions(options)
    registerSecret(this.#options.password)
    this.#mapping = resolveValueMapping(this.#options.mapping)
    this.#backend = backend(this.#options, options)
  }

  /** Requests sent again after a stale kept-alive socket failed them (each resend counts). */
  get retries(): number {
    return this.#retries
  }

  /** The HTTP client in use: `undici` or `fetch`. */
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

  async query(sql: string, options: HttpQueryOptions = {}): Promise<NativeResult> {
    const server = await this.#ready(options.signal)
    const queryId = options.queryId ?? randomId()
    const { text, fields } = this.#bindParameters(sql, options.params, server, options.settings)
    const framedResponse = await this.#useFramedResponses()
    const exchange = await this.#send(
      {
        queryId,
        settings: options.settings,
        defaultFormat: 'Native',
        extraFields: fields,
        framedResponse,
        httpCompression: this.#httpCompression(),
      },
      text,
      {
        retryable: options.retryable ?? isReadOnlyStatement(sql),
        signal: options.signal,
        timeoutMs: options.timeoutMs,
      },
    )
    const { response } = exchange
    const format = response.headers.get(`${this.#options.headerPrefix}Format`)
    if (format && format !== 'Native') {
      // Servers that name the format (19.x on) let a FORMAT clause be caught here.
      response.body.cancel()
      exchange.settle()
      throw new UsageError(`query() reads FORMAT Native, the statement asks for ${format}: use queryRaw()`)
    }
    const found = progressFromHeaders(response.headers, this.#options.headerPrefix)
    const progress = finalProgress(found)
    if (found.progress || found.summary) options.onProgress?.(progress, progress)
    const timezone = response.headers.get(`${this.#options.headerPrefix}Timezone`) ?? server.timezone
    const context: CodecContext = { revision: 0, timezone, mapping: this.#mapping }
    return new NativeResult({
      queryId: response.headers.get(`${this.#options.headerPrefix}Query-Id`) ?? queryId,
      body: framedResponse ? this.#unframe(response.body) : response.body,
      context,
      exceptionTag: response.headers.get(`${this.#options.headerPrefix}Exception-Tag`),
      progress,
      stop: exchange.stop,
      bodyError: exchange.bodyError,
      settle: exchange.settle,
      describe: () => this.#resultTypes(text, options.signal),
    })
  }

  /** The type names of a query's result columns (`DESCRIBE TABLE (<query>)`), cached per query text. */
  #resultTypes(sql: string, signal: AbortSignal | undefined): Promise<readonly string[] | undefined> {
    let types = this.#described.get(sql)
    if (!types) {
      const query = `DESCRIBE TABLE (${sql.replace(/[\s;]+$/, '')}) FORMAT TabSeparated`
      types = this.queryRaw(query, { signal, retryable: true })
        .then((raw) => raw.text())
        .then(describedTypes, () => undefined)
      if (this.#described.size >= 256) this.#described.clear()
      this.#described.set(sql, types)
      // A failed lookup is not cached: the next query tries again.
      types.then((found) => found ?? this.#described.delete(sql))
    }
    return types
  }

  /**
   * A query's result in any format, as bytes: TSV, CSV, JSONEachRow, Parquet, Arrow, ...
   * The format comes from the statement's FORMAT clause, else `options.format`.
   */
  async queryRaw(sql: string, options: RawQueryOptions & { retryable?: boolean } = {}): Promise<RawResult> {
    const server = await this.#ready(options.signal)
    const queryId = options.queryId ?? randomId()
    const { text, fields } = this.#bindParameters(sql, options.params, server, options.settings)
    const framedResponse = await this.#useFramedResponses()
    const format = options.format ?? 'TabSeparated'
    const exchange = await this.#send(
      {
        queryId,
        settings: options.settings,
        defaultFormat: format,
        extraFields: fields,
        framedResponse,
        httpCompression: this.#httpCompression(),
      },
      text,
      {
        retryable: options.retryable ?? isReadOnlyStatement(sql),
        signal: options.signal,
        timeoutMs: options.timeoutMs,
      },
    )
    const { response } = exchange
    const found = progressFromHeaders(response.headers, this.#options.headerPrefix)
    const progress = finalProgress(found)
    if (found.progress || found.summary) options.onProgress?.(progress, progress)
    return new RawResult({
      queryId: response.headers.get(`${this.#options.headerPrefix}Query-Id`) ?? queryId,
      format: response.headers.get(`${this.#options.headerPrefix}Format`) ?? format,
      body: framedResponse ? this.#unframe(response.body) : response.body,
      exceptionTag: response.headers.get(`${this.#options.headerPrefix}Exception-Tag`),
      progress,
      stop: exchange.stop,
      bodyError: exchange.bodyError,
      settle: exchange.settle,
    })
  }

  async insert(table: string, producer: InsertProducer, options: InsertOptions = {}): Promise<InsertResult> {
    await this.#ready(options.signal)
    const header = await this.#insertHeader(table, options.columns, options.signal)
    const queryId = options.queryId ?? randomId()
    const columns = header.map((column) => quoteIdentifier(column.name)).join(', ')
    const frameMethod = this.#options.requestCompression.find((method) => method !== 'gzip')
    const gzip = this.#options.requestCompression.includes('gzip')
    if (gzip && this.#options.simpleRequests) {
      throw new UsageError(
        'gzip request bodies need a Content-Encoding header, which simple requests cannot send',
      )
    }
    const counter: InsertCounter = { rows: 0, blocks: 0, bytes: 0 }
    const codecs = frameMethod ? await this.#frameCodecs() : undefined
    const context: CodecContext = {
      revision: 0,
      timezone: (await this.#ready()).timezone,
      mapping: this.#mapping,
    }
    const transform = frameMethod
      ? (block: Uint8Array) => compressFrames(block, frameMethod, codecs)
      : undefined
    let producerFailure: { error: unknown } | undefined
    const blocks = nativeInsertBody(header, producer, context, counter, transform)
    // The producer's own error is what the caller should see, not the aborted upload.
    const guarded = (async function* () {
      try {
        yield* blocks
      } catch (error) {
        producerFailure = { error }
        throw error
      }
    })()
    const encoded = gzip ? gzipChunks(guarded) : guarded
    // Whether the whole body went out: after that, only the server's answer is missing.
    const sent = { all: false }
    const body: BackendBody = (async function* () {
      yield* encoded
      sent.all = true
    })()
    const settings = { ...this.#options.settings, ...options.settings }
    const outcome = (error: unknown) =>
      withInsertOutcome(
        error,
        {
          allSent: sent.all,
          rowsSent: counter.rows,
          bytesSent: counter.serializedBytes ?? 0,
          squashRows: squashSetting(settings.min_insert_block_size_rows, defaultSquashing.rows),
          squashBytes: squashSetting(settings.min_insert_block_size_bytes, defaultSquashing.bytes),
        },
        queryId,
      )
    const exchange = await this.#send(
      {
        queryId,
        queryInUrl: `INSERT INTO ${table} (${columns}) FORMAT Native`,
        settings: options.settings,
        framedBody: frameMethod !== undefined,
        gzipBody: gzip,
        binaryBody: true,
        extraFields: [],
      },
      body,
      { retryable: false, signal: options.signal, timeoutMs: options.timeoutMs },
    ).catch((error: unknown) => {
      if (producerFailure) throw producerFailure.error
      // A schema that changed makes the next insert describe the table again.
      this.#schemas.delete(this.#schemaKey(table))
      throw outcome(error)
    })
    const progress = await this.#drain(exchange).catch((error: unknown) => {
      if (producerFailure) throw producerFailure.error
      throw outcome(error)
    })
    return {
      queryId,
      rowsWritten: progress.writtenRows > 0 ? progress.writtenRows : counter.rows,
      progress,
    }
  }

  async command(
    sql: string,
    options: RequestOptions & { retryable?: boolean } = {},
  ): Promise<{
    readonly queryId: string
    readonly progress: Progress
  }> {
    const server = await this.#ready(options.signal)
    const queryId = options.queryId ?? randomId()
    const { text, fields } = this.#bindParameters(sql, options.params, server, options.settings)
    const exchange = await this.#send({ queryId, settings: options.settings, extraFields: fields }, text, {
      retryable: options.retryable ?? isReadOnlyStatement(sql),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    })
    return { queryId, progress: await this.#drain(exchange) }
  }

  async ping(
    options: { readonly signal?: AbortSignal | undefined; readonly timeoutMs?: number | undefined } = {},
  ): Promise<void> {
    this.#checkOpen()
    const exchange = await this.#send(
      { queryId: randomId(), path: 'ping', inSession: false, bare: true },
      undefined,
      {
        retryable: true,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        method: 'GET',
        kill: false,
      },
    )
    const text = decodeUtf8(await readExchange(exchange, 1024, 'reading the answer to /ping'))
    if (text.trim() !== 'Ok.')
      throw new ConnectionError(`the server answered /ping with ${JSON.stringify(text.slice(0, 100))}`)
  }

  async serverInfo(): Promise<ServerInfo> {
    const server = await this.#ready()
    return {
      name: 'ClickHouse',
      version: server.version,
      revision: 0,
      timezone: server.timezone,
      displayName: server.displayName,
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return
    // Requests still running are aborted and their queries killed (while KILL can still be sent).
    const stopping = [...this.#active].map((stop) => stop(new AbortError(undefined, 'the client is closed')))
    if (stopping.length > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        Promise.allSettled(stopping),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 2_000)
        }),
      ])
      clearTimeout(timer)
    }
    this.#closed = true
    this.#closing.abort()
    await this.#backend.close()
  }

  /** Forgets the cached insert headers (after ALTER TABLE, say). */
  clearSchemaCache(): void {
    this.#schemas.clear()
  }

  // ---------------------------------------------------------------------------------------
  // Internals

  #checkOpen(): void {
    if (this.#closed) throw new UsageError('the HTTP transport is closed')
  }

  /** Server version and time zone, asked once per transport (`SELECT version(), timezone()`). */
  async #ready(signal?: AbortSignal): Promise<ServerFeatures> {
    this.#checkOpen()
    AbortError.throwIfAborted(signal)
    if (!this.#server) {
      const detecting = this.#detect()
      this.#server = detecting
      detecting.catch(() => {
        if (this.#server === detecting) this.#server = undefined
      })
    }
    return this.#server
  }

  async #detect(): Promise<ServerFeatures> {
    const exchange = await this.#send(
      { queryId: randomId(), defaultFormat: 'TabSeparated', inSession: false },
      'SELECT version(), timezone()',
      { retryable: true, kill: false },
    )
    const text = decodeUtf8(
      await readExchange(exchange, 64 * 1024, 'reading the answer to SELECT version(), timezone()'),
    )
    const [version, timezone] = text.trim().split('\t')
    if (!version || timezone === undefined) {
      throw new ConnectionError(
        `unexpected answer to SELECT version(), timezone(): ${JSON.stringify(text.slice(0, 200))}`,
      )
    }
    const displayName =
      exchange.response.headers.get(`${this.#options.headerPrefix}Server-Display-Name`) ?? ''
    return featuresOf(version, timezone, displayName)
  }

  /** Codecs for compressed frames: the options', else the platform's, loaded once. */
  #frameCodecs(): Promise<CompressionCodecs> {
    this.#codecs ??= this.#options.codecs
      ? Promise.resolve(this.#options.codecs)
      : (this.#platform.loadCodecs?.() ?? Promise.resolve({}))
    return this.#codecs
  }

  #httpCompression(): 'gzip' | 'deflate' | undefined {
    const response = this.#options.responseCompression
    return response === 'gzip' || response === 'deflate' ? response : undefined
  }

  /** Whether `compress=1` answers work on this server: asked once, with a tiny query. */
  async #useFramedResponses(): Promise<boolean> {
    if (this.#options.responseCompression !== 'frames') return false
    this.#framesWork ??= (async () => {
      this.#frameDecoderCodecs = await this.#frameCodecs()
      try {
        const exchange = await this.#send(
          { queryId: randomId(), defaultFormat: 'TabSeparated', framedResponse: true, inSession: false },
          'SELECT 1',
          { retryable: true, kill: false },
        )
        const bytes = await readExchange(exchange, 4096, 'reading the answer to SELECT 1')
        if (bytes.length === 0) return false
        const decoder = new FrameDecoder(await this.#frameCodecs())
        const payload = decoder.push(bytes)
        decoder.finish()
        return payload.length === 1 && decodeUtf8(payload[0]!) === '1\n'
      } catch (error) {
        if (UsageError.isInstance(error)) throw error
        return false
      }
    })()
    return this.#framesWork
  }

  #frameDecoderCodecs: CompressionCodecs | undefined

  #unframe(body: BodyReader): BodyReader {
    const decoder = new FrameDecoder(this.#frameDecoderCodecs)
    const ready: Uint8Array[] = []
    return {
      read: async () => {
        for (;;) {
          const next = ready.shift()
          if (next) return next
          const chunk = await body.read()
          if (chunk === undefined) {
            decoder.finish()
            return undefined
          }
          ready.push(...decoder.push(chunk))
        }
      },
      cancel: (reason) => body.cancel(reason),
    }
  }

  #bindParameters(
    sql: string,
    params: Readonly<Record<string, unknown>> | undefined,
    server: ServerFeatures,
    settings: Settings | undefined,
  ): { text: string; fields: Array<[string, string]> } {
    if (!params || Object.keys(params).length === 0) return { text: sql, fields: [] }
    const mode = this.#options.parameters
    const onServer = mode === 'server' || (mode === 'auto' && server.queryParameters)
    return onServer
      ? { text: sql, fields: httpQueryParameters(sql, params) }
      : {
          text: substituteParameters(sql, params, maxQuerySizeOf(this.#options.settings, settings)),
          fields: [],
        }
  }

  #schemaKey(table: string): string {
    return `${this.#options.database ?? ''}\u0000${table}`
  }

  async #insertHeader(
    table: string,
    columns: readonly string[] | undefined,
    signal: AbortSignal | undefined,
  ): Promise<readonly ColumnMeta[]> {
    const key = this.#schemaKey(table)
    let schema = this.#schemas.get(key)
    if (!schema) {
      schema = this.#describe(table, signal)
      this.#schemas.set(key, schema)
      schema.catch(() => this.#schemas.delete(key))
    }
    const all = await schema
    if (!columns) {
      const insertable = all.filter((column) => !column.defaultKind || column.defaultKind === 'DEFAULT')
      if (insertable.length === 0) throw new UsageError(`table ${table} has no column that can be inserted`)
      return insertable
    }
    return columns.map((name) => {
      const column = all.find((candidate) => candidate.name === name)
      if (!column) throw new UsageError(`table ${table} has no column ${JSON.stringify(name)}`)
      return column
    })
  }

  async #describe(table: string, signal: AbortSignal | undefined): Promise<readonly ColumnMeta[]> {
    const result = await this.query(`DESCRIBE TABLE ${table}`, { signal, retryable: true })
    const out: ColumnMeta[] = []
    for await (const block of result) {
      const byName = new Map(block.columns.map((column) => [column.name, column.column]))
      const names = byName.get('name')
      const types = byName.get('type')
      if (!names || !types) throw new ConnectionError('DESCRIBE TABLE answered without name and type columns')
      const kinds = byName.get('default_type')
      const expressions = byName.get('default_expression')
      for (let row = 0; row < block.rows; row++) {
        const type = String(types.get(row))
        out.push({
          name: String(names.get(row)),
          type,
          typeNode: parseTypeCached(type),
          defaultKind: (kinds ? String(kinds.get(row)) : '') as ColumnMeta['defaultKind'],
          defaultExpression: expressions ? String(expressions.get(row)) : '',
        })
      }
    }
    return out
  }

  /** Reads a body that should carry no data (insert, command) and checks it for an exception. */
  async #drain(exchange: Exchange): Promise<Progress> {
    const result = new RawResult({
      queryId: exchange.queryId,
      format: undefined,
      body: exchange.response.body,
      exceptionTag: exchange.response.headers.get(`${this.#options.headerPrefix}Exception-Tag`),
      progress: emptyProgress,
      stop: exchange.stop,
      bodyError: exchange.bodyError,
      settle: exchange.settle,
      holdBackBytes: maxErrorBody,
    })
    for await (const _ of result) {
      // The output of a command (DDL answers nothing; some statements answer a table).
    }
    return finalProgress(progressFromHeaders(exchange.response.headers, this.#options.headerPrefix))
  }

  /** Stops a query on the server from another connection. Best effort: errors are ignored. */
  async #kill(queryId: string): Promise<void> {
    if (this.#closed) return
    try {
      const exchange = await this.#send(
        { queryId: randomId(), inSession: false, defaultFormat: 'TabSeparated' },
        `KILL QUERY WHERE query_id = ${quoteString(queryId)} ASYNC`,
        { retryable: false, kill: false, timeoutMs: 10_000, signal: this.#closing.signal },
      )
      await readExchange(exchange, 64 * 1024, 'reading the answer to KILL QUERY')
    } catch {
      // The query may be gone already, or the server unreachable: nothing more to do.
    }
  }

  /**
   * Sends one request and waits for its status and headers. A request that failed on a
   * socket the server had closed (before any byte of the answer) is sent again when it is
   * safe to repeat, at most once per pooled socket. A status other than 200 becomes the
   * server's exception.
   */
  async #send(
    parts: RequestParts,
    body: BackendBody | undefined,
    how: {
      retryable: boolean
      signal?: AbortSignal | undefined
      timeoutMs?: number | undefined
      method?: 'GET' | 'POST'
      kill?: boolean
    },
  ): Promise<Exchange> {
    this.#checkOpen()
    const options = this.#options
    const { url, headers } = buildRequest(options, parts)
    const controller = new AbortController()
    const user = how.signal
    AbortError.throwIfAborted(user)
    const timeoutMs = how.timeoutMs ?? options.requestTimeoutMs
    let timer: ReturnType<typeof setTimeout> | undefined
    let started = false
    let stopped = false
    const kill = how.kill ?? true
    const queryId = parts.queryId

    const stop = async (reason: unknown): Promise<void> => {
      if (stopped) return
      stopped = true
      controller.abort(reason)
      if (kill && started) await this.#kill(queryId)
    }
    const onUserAbort = () => {
      void stop(new AbortError(user?.reason))
    }
    const settle = () => {
      this.#active.delete(stop)
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      user?.removeEventListener('abort', onUserAbort)
    }
    user?.addEventListener('abort', onUserAbort, { once: true })
    if (kill) this.#active.add(stop)
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        void stop(new TimeoutError('request', timeoutMs))
      }, timeoutMs)
    }
    let killed = false
    // The request failed under us (a receive timeout, a reset, a cut body) with the query
    // perhaps still running: the server notices a client that went away only when it next
    // writes, so it is killed by query id. Not when the connection was never made.
    const killAfterFailure = (cause: unknown) => {
      if (!kill || !started || killed || stopped || controller.signal.aborted) return
      if (!isBackendFailure(cause)) return
      if (cause.timeout === 'connect') return
      // A socket failure before any answer byte is what a stale kept-alive socket looks like
      // (the request most likely never reached the server): only a timeout there kills.
      if (cause.phase === 'before-response' && cause.timeout === undefined) return
      killed = true
      void this.#kill(queryId)
    }
    const mapError = (cause: unknown, detail: string): Error => {
      killAfterFailure(cause)
      if (controller.signal.aborted) {
        const reason: unknown = controller.signal.reason
        if (reason instanceof Error) return reason
        return new AbortError(reason)
      }
      if (isBackendFailure(cause)) {
        if (cause.timeout === 'connect') {
          return new TimeoutError('connect', options.connectTimeoutMs, undefined, { cause: cause.cause })
        }
        if (cause.timeout === 'idle') {
          return new TimeoutError(
            'idle',
            options.idleTimeoutMs,
            `no data from the server for ${options.idleTimeoutMs} ms (${detail})`,
            {
              cause: cause.cause,
            },
          )
        }
        if (ClickwireError.isInstance(cause.cause)) return cause.cause
        const message = (cause.cause as Error | undefined)?.message ?? String(cause.cause)
        return new ConnectionError(`${detail}: ${message}`, {
          cause: cause.cause,
          code: cause.code,
          address: options.base.host,
        })
      }
      if (ClickwireError.isInstance(cause)) return cause
      return new ConnectionError(`${detail}: ${(cause as Error | undefined)?.message ?? String(cause)}`, {
        cause,
        address: options.base.host,
      })
    }

    const attempt = async (): Promise<BackendResponse> =>
      this.#backend.send({
        url,
        method: how.method ?? 'POST',
        headers,
        body,
        signal: controller.signal,
        idleTimeoutMs: options.idleTimeoutMs,
      })

    let response: BackendResponse
    try {
      started = true
      // Every kept-alive socket may be one the server closed (a restart closes them all at
      // once), so a request safe to repeat may meet that once per socket, then a fresh one.
      for (let retries = 0; ; retries++) {
        try {
          response = await attempt()
          break
        } catch (error) {
          const stale =
            how.retryable &&
            isBackendFailure(error) &&
            error.phase === 'before-response' &&
            error.timeout === undefined &&
            error.code !== undefined &&
            staleSocketCodes.has(error.code) &&
            !controller.signal.aborted
          if (!stale || retries >= options.maxOpenConnections) throw error
          this.#retries++
        }
      }
    } catch (error) {
      settle()
      // The caller's timeout or abort is reported now; stopping the query on the server is
      // best effort and must not hold the error back (on a stalled network it would wait
      // for the KILL request's own 10 s limit).
      if (controller.signal.aborted && kill) void this.#kill(queryId)
      throw mapError(error, `${how.method ?? 'POST'} ${options.base.host} failed`)
    }

    if (response.status !== 200) {
      try {
        const text = decodeUtf8(await readAll(response.body, maxErrorBody)).trim()
        const code = response.headers.get(`${options.headerPrefix}Exception-Code`)
        if (/^Code: \d+/.test(text) || code) throw serverError(text, queryId, Number(code ?? 0))
        throw new ConnectionError(`the server answered HTTP ${response.status}: ${text.slice(0, 500)}`, {
          code: `HTTP_${response.status}`,
          address: options.base.host,
        })
      } catch (error) {
        if (ClickwireError.isInstance(error)) throw error
        throw mapError(error, `reading the error of HTTP ${response.status}`)
      } finally {
        settle()
      }
    }
    return { queryId, response, stop, bodyError: mapError, settle }
  }
}
