import {
  type CompressionCodecs,
  type CompressionOption,
  defaultAcquireTimeoutMs,
  defaultMaxBlockBytes,
  type RequestCompression,
  type ResponseCompression,
  resolveCompression,
  resolveProtocolRevision,
  type Settings,
  type TlsOptions,
  UsageError,
  type ValueMapping,
} from '@clickwire/protocol'

export type { RequestCompression, ResponseCompression }

/** How credentials reach the server. */
export type AuthMode =
  /** `Authorization: Basic` (default). Works on every server, and on forks that renamed the headers. */
  | 'basic'
  /** `<prefix>User` / `<prefix>Key` headers (`X-ClickHouse-User`, `X-ClickHouse-Key`). */
  | 'headers'
  /** `user` / `password` URL parameters: what browsers must use against 18.16 (no CORS preflight). */
  | 'url'
  /** Send none (a proxy in front adds them). */
  | 'none'

export interface HttpTransportOptions {
  /** `http(s)://[user[:password]@]host:port[/path]`; credentials in the URL are taken as options. */
  readonly url: string | URL
  /** Default `default`. */
  readonly username?: string | undefined
  readonly password?: string | undefined
  /** Default `basic`; `url` when {@link simpleRequests} is on. */
  readonly auth?: AuthMode | undefined
  /** Database for unqualified names (the `database` URL parameter). */
  readonly database?: string | undefined
  /** ClickHouse settings for every request; per-request settings override them. Names pass through unchanged. */
  readonly settings?: Settings | undefined
  /**
   * A session (`session_id`): settings changed with SET and temporary tables live on between
   * requests. ClickHouse locks a session while a request uses it: a second request with the
   * same session id while the first still runs fails with SESSION_IS_LOCKED (code 373), so
   * run one request at a time per session. The session expires after `sessionTimeoutSeconds`
   * without requests (server default 60, at most the server's `max_session_timeout`).
   */
  readonly sessionId?: string | undefined
  readonly sessionTimeoutSeconds?: number | undefined
  /** `session_check=1`: fail if the session does not exist yet instead of creating it. */
  readonly sessionCheck?: boolean | undefined
  /** Roles to enable for each request (`role` URL parameters; ClickHouse 20.4+). */
  readonly roles?: string | readonly string[] | undefined
  /**
   * Prefix of every ClickHouse header sent and read: `<prefix>User`, `<prefix>Key`,
   * `<prefix>Query-Id`, `<prefix>Summary`, `<prefix>Progress`, `<prefix>Exception-Code`,
   * `<prefix>Exception-Tag`, ... Default `X-ClickHouse-`; forks that renamed their headers
   * need theirs, e.g. `X-Datastore-`.
   */
  readonly headerPrefix?: string | undefined
  /** Extra headers for every request (not in simple-request mode). */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /**
   * Compression (default none; protocol's {@link CompressionOption}): a method name compresses
   * request bodies (`lz4` / `zstd` frames with `decompress=1`, or `gzip`); the detailed form
   * `{ request, response, codecs }` also compresses answers (`gzip`, `deflate`, `frames`).
   * @clickhouse/client's booleans mean what they mean there: `{ request: true }` gzips request
   * bodies, `{ response: true }` asks for gzipped answers, `true` both, `false` neither.
   */
  readonly compression?: CompressionOption | undefined
  /** Longest wait for a TCP/TLS connection (Node only; default 10 s). */
  readonly connectTimeoutMs?: number | undefined
  /** Longest time a whole request may take, body included (default: none). */
  readonly requestTimeoutMs?: number | undefined
  /**
   * Longest wait for the response headers or the next body chunk (default 5 min; 0 for
   * none). Was `idleTimeoutMs` before the transports shared the client's names.
   */
  readonly receiveTimeoutMs?: number | undefined
  /**
   * How long an unused kept-alive socket stays open (Node only; default 2500 ms). When the
   * server announces its own limit (`Keep-Alive: timeout=N`), sockets are closed
   * {@link keepAliveMarginMs} before it, so that a request rarely meets a socket the server
   * is closing (18.16 closes idle sockets after 3 s).
   */
  readonly idleTimeoutMs?: number | undefined
  /** @deprecated Renamed {@link idleTimeoutMs}, the client's and native's name; this alias goes in the next release. */
  readonly keepAliveIdleMs?: number | undefined
  /** Default 1000 ms. */
  readonly keepAliveMarginMs?: number | undefined
  /**
   * Most requests of calls at once (default 10): each result holds one until it is read to
   * the end or cancelled; more wait up to {@link acquireTimeoutMs}. In Node also the pool's
   * sockets (a DESCRIBE for the metadata of a result still streaming has two of its own).
   */
  readonly maxConnections?: number | undefined
  /** @deprecated Renamed {@link maxConnections}, the client's and native's name; this alias goes in the next release. */
  readonly maxOpenConnections?: number | undefined
  /**
   * Longest wait for a free connection when the calls hold all `maxConnections` (default
   * 30 s; 0 for none), then a TimeoutError (`timeout: 'acquire'`). Each result holds its
   * connection until it is read to the end or cancelled (connection-slots.ts).
   */
  readonly acquireTimeoutMs?: number | undefined
  /** The fetch to use (default the global one); also selects the fetch backend in Node. */
  readonly fetch?: typeof fetch | undefined
  /**
   * Browser mode for servers that do not answer CORS preflights (18.16 never answers them,
   * 26.7 answers without CORS headers): every request is a "simple" one (GET or POST with `Content-Type: text/plain`, no custom
   * header), credentials and settings go in the URL, with `add_http_cors_header=1` (unless
   * the settings give it) so that the server sends `Access-Control-Allow-Origin`.
   * `@clickwire/client` turns it on by itself on pages of another origin than the server.
   */
  readonly simpleRequests?: boolean | undefined
  /** How values become JS values (64-bit integers, dates, decimals). */
  readonly mapping?: Partial<ValueMapping> | undefined
  /**
   * Placeholders: `auto` (default) sends `param_<name>` to servers that take them and
   * substitutes typed literals client-side for the others; `server` / `client` force one way.
   */
  readonly parameters?: 'auto' | 'server' | 'client' | undefined
  /** TLS options for `https:` URLs (Node only). */
  readonly tls?: TlsOptions | undefined
  /** Bytes of a response allowed to wait unread before the socket is paused (Node only; default 8 MiB). */
  readonly highWaterMark?: number | undefined
  /**
   * The most bytes one block of a `FORMAT Native` answer may take decoded (its Native form
   * uncompressed; default 256 MiB): a larger one, or a compressed frame of more, is a
   * ProtocolError before the memory is taken.
   */
  readonly maxBlockBytes?: number | undefined
  /**
   * The native protocol revision `FORMAT Native` answers are asked in
   * (`client_protocol_version`). Unset, they come at revision 0: the prefixed String layout,
   * the smallest on the wire. Set to 54492, servers from 26.8 send their size-stream Strings,
   * which Arrow takes without a copy: measured on 26.9, `arrow()` of ~45-byte strings used
   * 1.3-1.7× less client CPU for 1.2× the bytes, but short strings cost the same CPU for 2×
   * the bytes, and compressed answers 2.3× (see the README). 54488 or less: revision 0.
   */
  readonly protocolRevision?: number | undefined
}

/** Options with defaults applied and credentials separated from the URL. */
export interface ResolvedOptions {
  readonly base: URL
  readonly username: string
  readonly password: string
  readonly auth: AuthMode
  readonly database: string | undefined
  readonly settings: Settings
  readonly sessionId: string | undefined
  readonly sessionTimeoutSeconds: number | undefined
  readonly sessionCheck: boolean
  readonly roles: readonly string[]
  readonly headerPrefix: string
  readonly headers: Readonly<Record<string, string>>
  readonly requestCompression: readonly RequestCompression[]
  readonly responseCompression: ResponseCompression | undefined
  readonly codecs: CompressionCodecs | undefined
  readonly connectTimeoutMs: number
  readonly requestTimeoutMs: number
  readonly receiveTimeoutMs: number
  readonly idleTimeoutMs: number
  readonly keepAliveMarginMs: number
  readonly maxConnections: number
  readonly acquireTimeoutMs: number
  readonly simpleRequests: boolean
  readonly mapping: Partial<ValueMapping> | undefined
  readonly parameters: 'auto' | 'server' | 'client'
  readonly highWaterMark: number
  readonly maxBlockBytes: number
  /** The `protocolRevision` option, clickwire's own revision when unset. */
  readonly protocolRevision: number
  /** Whether `protocolRevision` was given: only then are Native answers asked at it. */
  readonly askRevision: boolean
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!(Number.isFinite(value) && value >= 0))
    throw new UsageError(`${name} must be a number >= 0, got ${value}`)
  return value
}

export function resolveOptions(options: HttpTransportOptions): ResolvedOptions {
  if (!options || options.url === undefined) throw new UsageError('the HTTP transport needs a url')
  let base: URL
  try {
    base = new URL(String(options.url))
  } catch {
    throw new UsageError('the url is not a valid URL')
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new UsageError(`the HTTP transport needs an http: or https: URL, got ${base.protocol}`)
  }
  const username = options.username ?? (base.username ? decodeURIComponent(base.username) : 'default')
  const password = options.password ?? (base.password ? decodeURIComponent(base.password) : '')
  base.username = ''
  base.password = ''
  // Parameters in the URL are kept as defaults for every request.
  base.hash = ''
  const simpleRequests = options.simpleRequests ?? false
  const auth = options.auth ?? (simpleRequests ? 'url' : 'basic')
  if (simpleRequests && auth !== 'url' && auth !== 'none') {
    throw new UsageError('simple requests carry no custom headers: use auth "url" (or "none")')
  }
  if (!['basic', 'headers', 'url', 'none'].includes(auth)) throw new UsageError(`unknown auth mode ${auth}`)
  const compression = resolveCompression(options.compression)
  const requestCompression = [...compression.request]
  for (const method of requestCompression) {
    if (!['lz4', 'zstd', 'gzip'].includes(method))
      throw new UsageError(`unknown request compression ${method}`)
  }
  if (requestCompression.includes('lz4') && requestCompression.includes('zstd')) {
    throw new UsageError('request compression takes one frame method: lz4 or zstd')
  }
  const response = compression.response
  if (response !== undefined && !['gzip', 'deflate', 'frames'].includes(response)) {
    throw new UsageError(`unknown response compression ${response}`)
  }
  const roles =
    options.roles === undefined
      ? []
      : typeof options.roles === 'string'
        ? [options.roles]
        : [...options.roles]
  const parameters = options.parameters ?? 'auto'
  if (!['auto', 'server', 'client'].includes(parameters))
    throw new UsageError(`unknown parameters mode ${parameters}`)
  const maxConnections = options.maxConnections ?? options.maxOpenConnections ?? 10
  if (!(Number.isInteger(maxConnections) && maxConnections >= 1)) {
    throw new UsageError(`maxConnections must be an integer >= 1, got ${maxConnections}`)
  }
  const keepAliveMarginMs = options.keepAliveMarginMs ?? 1000
  if (!Number.isFinite(keepAliveMarginMs)) throw new UsageError('keepAliveMarginMs must be a finite number')
  return {
    base,
    username,
    password,
    auth,
    database: options.database,
    settings: { ...options.settings },
    sessionId: options.sessionId,
    sessionTimeoutSeconds: options.sessionTimeoutSeconds,
    sessionCheck: options.sessionCheck ?? false,
    roles,
    headerPrefix: options.headerPrefix ?? 'X-ClickHouse-',
    headers: { ...options.headers },
    requestCompression,
    responseCompression: response,
    codecs: compression.codecs,
    connectTimeoutMs: nonNegative('connectTimeoutMs', options.connectTimeoutMs, 10_000),
    requestTimeoutMs: nonNegative('requestTimeoutMs', options.requestTimeoutMs, 0),
    receiveTimeoutMs: nonNegative('receiveTimeoutMs', options.receiveTimeoutMs, 300_000),
    idleTimeoutMs: nonNegative('idleTimeoutMs', options.idleTimeoutMs ?? options.keepAliveIdleMs, 2500),
    keepAliveMarginMs,
    maxConnections,
    acquireTimeoutMs: nonNegative('acquireTimeoutMs', options.acquireTimeoutMs, defaultAcquireTimeoutMs),
    simpleRequests,
    mapping: options.mapping,
    parameters,
    highWaterMark: nonNegative('highWaterMark', options.highWaterMark, 8 << 20),
    maxBlockBytes: nonNegative('maxBlockBytes', options.maxBlockBytes, defaultMaxBlockBytes),
    protocolRevision: resolveProtocolRevision(options.protocolRevision),
    askRevision: options.protocolRevision !== undefined,
  }
}
