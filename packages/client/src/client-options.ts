import {
  type CompressionOption,
  type HostStrategyName,
  hostStrategyOfLoadBalancing,
  parseConnectionUrl,
  resolveHostStrategy,
  type Settings,
  type TlsOptions,
  UsageError,
  type ValueMapping,
} from '@clickwire/protocol'
import type { Logger, LogLevel } from './client-logger.js'
import { type ClusterDiscoveryOptions, resolveDiscovery } from './cluster-discovery-options.js'
import { clickhouseClientHint, nearestName } from './option-names.js'
import type { TracingOption } from './query-tracing.js'

/** TLS settings for `clickhouses://` and `https://` (protocol's, shared by both transports). */
export type { TlsOptions }

/**
 * Options of {@link createClient}. Ours are camelCase; ClickHouse settings go in `settings`
 * (or as unknown URL parameters) and pass through unchanged.
 */
export interface ClientOptions extends Partial<ValueMapping> {
  /**
   * Where the server is. The scheme picks the transport: `clickhouse://` (native TCP),
   * `clickhouses://` (native TLS), `http://`, `https://`. Several hosts: comma-separated
   * in one URL (`clickhouse://h1:9000,h2:9000/db`) or a list of URLs.
   */
  readonly url?: string | readonly string[] | undefined
  readonly username?: string | undefined
  readonly password?: string | undefined
  readonly database?: string | undefined
  /** ClickHouse settings sent with every request. */
  readonly settings?: Settings | undefined
  /**
   * Compression (protocol's {@link CompressionOption}). Native: block compression both ways,
   * `lz4` (default) / `zstd` / `none` (`gzip`, HTTP's, is a UsageError there). HTTP: request
   * bodies `lz4` / `zstd` / `gzip` / `none` (default); the detailed form `{ request, response,
   * codecs }` also compresses HTTP answers (`gzip`, `deflate`, `frames`). @clickhouse/client's
   * booleans work on both: `{ request: true }` / `{ response: true }` are gzip over HTTP and
   * `lz4` (both ways) over native; `true` is both sides, `false` neither.
   */
  readonly compression?: CompressionOption | undefined
  readonly tls?: TlsOptions | undefined
  readonly connectTimeoutMs?: number | undefined
  /** Default limit for one query or request (0: none). */
  readonly requestTimeoutMs?: number | undefined
  /**
   * Longest wait for the next bytes of an answer (default 5 minutes; 0 for none): only a
   * stalled connection or a long silent statement is quiet that long.
   */
  readonly receiveTimeoutMs?: number | undefined
  /** Unused connections are closed after this long (native default 60 s; HTTP 2.5 s, below 18.16's 3 s keep-alive). */
  readonly idleTimeoutMs?: number | undefined
  /** Most connections open at once. */
  readonly maxConnections?: number | undefined
  /**
   * Longest wait for a free connection when all `maxConnections` are in use (default 30 s;
   * 0 for none), then a TimeoutError (`timeout: 'acquire'`). Each result holds its
   * connection until it is read to the end or cancelled, so results left unread would
   * otherwise make the next query wait forever. Both transports: native waits for a pooled
   * connection, HTTP for one of the `maxConnections` requests its calls may run at once.
   */
  readonly acquireTimeoutMs?: number | undefined
  /**
   * With several hosts, which one a new connection (native) or request (HTTP) goes to:
   * `in-order` (the first healthy one; the rest are failover), `round-robin`, `random`, or
   * `first-or-random` (the first while healthy, else a random healthy one). ClickHouse's
   * `load_balancing` names are aliases: `in_order`, `round_robin`, `first_or_random`. Without
   * this option, a `load_balancing` setting (in `settings` or the URL) of one of those values
   * picks the strategy too, and still goes to the server, where it picks the replicas of
   * Distributed reads. Default `in-order`.
   */
  readonly hostStrategy?: HostStrategyName | undefined
  /** How long a failed host is set aside (default 30 s). */
  readonly hostCooldownMs?: number | undefined
  /**
   * Use the nodes of a cluster as the hosts, read from `system.clusters` of the URL's
   * host(s) (the seeds) before the first call, then every `refreshIntervalMs` and after a
   * host is set aside: a cluster name, or {@link ClusterDiscoveryOptions} (a `shard` to keep
   * to one shard's replicas, the `port` of each node for HTTP and TLS). URL: `?discoverCluster=name`.
   */
  readonly discoverCluster?: string | ClusterDiscoveryOptions | undefined
  /**
   * The application's name, as the server records it: native sends it as the client name
   * (`client_name` in system.query_log and system.processes); HTTP in Node sends it first in
   * the `User-Agent` (`http_user_agent`), browsers set their own. Default `clickwire`.
   */
  readonly clientName?: string | undefined
  /** @clickhouse/client's name for {@link clientName}; give one or the other. */
  readonly application?: string | undefined
  /**
   * HTTP: extra headers for every request (a proxy's routing or auth header). Per call:
   * `httpHeaders` in the call's options. A browser sends them only with a CORS preflight,
   * and simple requests (see `simpleRequests`) leave them out. Over native a UsageError:
   * the protocol has no headers.
   */
  readonly httpHeaders?: Readonly<Record<string, string>> | undefined
  /** Where the client logs (see the README's Logging): query start/end, failover, errors. */
  readonly logger?: Logger | undefined
  /** The least a logged entry must be (default `info` with a logger; `off` drops everything). */
  readonly logLevel?: LogLevel | undefined
  /** OpenTelemetry spans for queries and inserts (see the README's Tracing). */
  readonly tracing?: TracingOption | undefined
  /**
   * Keep {name:Type} parameter values out of error messages, and so out of log entries and
   * spans: each place the server's message quotes a value becomes `{name:***}` (see the
   * README's Parameter values in errors, logs and spans). Default false.
   */
  readonly redactParams?: boolean | undefined
  /** Rows per block when inserting. */
  readonly insertBlockRows?: number | undefined
  /**
   * The most bytes one block of an answer may take decoded, its Native form uncompressed
   * (default 256 MiB; both transports). A larger block, or a compressed frame that would
   * make it larger, fails as a ProtocolError naming this option before the memory is taken:
   * LZ4 expands up to 255 times, so a broken or hostile server's 10 MB could ask for
   * gigabytes. Servers cut blocks far below it (`max_block_size`, 65,536 rows).
   */
  readonly maxBlockBytes?: number | undefined
  /**
   * The highest native protocol revision to speak (default clickwire's own, 54492). Over
   * native it is announced in the Hello; over HTTP it caps the `client_protocol_version`
   * that `FORMAT Native` answers are asked in. Lower it to compare layouts or to match an
   * older peer: 54488 gives String columns as they were before 26.9's size-stream layout.
   */
  readonly protocolRevision?: number | undefined
  /** Native: quota key. */
  readonly quotaKey?: string | undefined
  /** HTTP: header prefix for forks that renamed `X-ClickHouse-` (e.g. `X-Datastore-`). */
  readonly headerPrefix?: string | undefined
  /** HTTP: credentials by `basic` auth (default), `headers`, or `url` parameters (browsers). */
  readonly auth?: 'basic' | 'headers' | 'url' | 'none' | undefined
  /**
   * Makes the whole client one session, on both transports: what `SET`, `USE` and `CREATE
   * TEMPORARY TABLE` do stays for every later call. HTTP sends it as `session_id`; over
   * native the client then holds one dedicated connection for its lifetime (a lost one
   * fails later calls with a ConnectionError instead of reconnecting without the state).
   * Either way calls run one at a time, in call order (`maxConnections` is 1). For state
   * next to ordinary pooled calls, open sessions with `client.session()` instead.
   */
  readonly sessionId?: string | undefined
  /**
   * HTTP, with `sessionId`: how long the server keeps the session after its last request
   * (`session_timeout`; server default 60 s). Native sessions last as long as their connection.
   */
  readonly sessionTimeoutSeconds?: number | undefined
  /** HTTP: roles to use. */
  readonly roles?: string | readonly string[] | undefined
  /** HTTP: a fetch implementation to use instead of node:http (Node, Deno) / the global fetch. */
  readonly fetch?: typeof fetch | undefined
  /**
   * HTTP: CORS "simple" requests, which browsers send without a preflight (the http
   * package's option; see simple-requests.ts): only safelisted headers, credentials as
   * `user`/`password` URL parameters, `add_http_cors_header=1`. Default: on in the browser
   * build when the page's origin differs from the server's, off elsewhere. `true` forces
   * them, `false` sends normal requests (a proxy that answers preflights).
   */
  readonly simpleRequests?: boolean | undefined
}

export type TransportKind = 'native' | 'http'

/** One endpoint read from a URL. */
export interface Endpoint {
  readonly host: string
  readonly port: number
}

/** Options with the URL taken apart and defaults applied where the client decides them. */
export interface ResolvedClientOptions extends Omit<ClientOptions, 'url'> {
  readonly kind: TransportKind
  readonly secure: boolean
  readonly endpoints: readonly Endpoint[]
  /** Path prefix for HTTP (a proxy may serve ClickHouse below a path). */
  readonly httpPath: string
  readonly username: string
  readonly password: string
  readonly settings: Settings
}

const schemes = {
  'clickhouse:': { kind: 'native', secure: false, port: 9000 },
  'clickhouses:': { kind: 'native', secure: true, port: 9440 },
  'http:': { kind: 'http', secure: false, port: 8123 },
  'https:': { kind: 'http', secure: true, port: 8443 },
} as const

/** URL parameters that are our options, with how to read them; every other one is a setting. */
const urlOptions: Record<string, (value: string) => unknown> = {
  compression: String,
  connectTimeoutMs: Number,
  requestTimeoutMs: Number,
  receiveTimeoutMs: Number,
  idleTimeoutMs: Number,
  maxConnections: Number,
  acquireTimeoutMs: Number,
  hostStrategy: String,
  hostCooldownMs: Number,
  discoverCluster: String,
  clientName: String,
  application: String,
  logLevel: String,
  insertBlockRows: Number,
  maxBlockBytes: Number,
  protocolRevision: Number,
  quotaKey: String,
  headerPrefix: String,
  auth: String,
  sessionId: String,
  sessionTimeoutSeconds: Number,
  roles: String,
  int64: String,
  dates: String,
  decimal: String,
  secure: (value) => value === '1' || value === 'true',
  simpleRequests: (value) => value === '1' || value === 'true',
}

interface ParsedUrl {
  kind: TransportKind
  secure: boolean
  endpoints: Endpoint[]
  username?: string
  password?: string
  database?: string
  path: string
  options: Record<string, unknown>
  settings: Record<string, string>
}

/** Takes a client URL apart (see parseConnectionUrl); comma-separated hosts are allowed, which WHATWG URLs are not. */
export function parseClientUrl(url: string): ParsedUrl {
  const defaultPorts = Object.fromEntries(
    Object.entries(schemes).map(([name, scheme]) => [name, scheme.port]),
  )
  const {
    scheme: schemeName,
    endpoints,
    username,
    password,
    rawPath,
    path,
    parameters,
  } = parseConnectionUrl(url, defaultPorts, 'client URL')
  const scheme = schemes[schemeName as keyof typeof schemes]
  const parsed: ParsedUrl = {
    kind: scheme.kind,
    secure: scheme.secure,
    endpoints,
    path: '/',
    options: {},
    settings: {},
  }
  if (username !== undefined) parsed.username = username
  if (password !== undefined) parsed.password = password
  // Native URLs name the database in the path; HTTP ones may be served below a path
  // prefix, so for HTTP the database comes from `?database=` (a path is kept as prefix).
  if (scheme.kind === 'native' && path) parsed.database = path
  if (scheme.kind === 'http' && rawPath) parsed.path = rawPath
  for (const [key, value] of parameters) {
    if (key === 'database') parsed.database = value
    else if (key === 'user' || key === 'username') parsed.username = value
    else if (key === 'password') parsed.password = value
    else if (key in urlOptions) parsed.options[key] = urlOptions[key]!(value)
    else parsed.settings[key] = value
  }
  return parsed
}

/** Every key {@link ClientOptions} has: anything else is a mistake (settings go in `settings`). */
const optionNames = new Set([
  'url',
  'username',
  'password',
  'database',
  'settings',
  'compression',
  'tls',
  'connectTimeoutMs',
  'requestTimeoutMs',
  'receiveTimeoutMs',
  'idleTimeoutMs',
  'maxConnections',
  'acquireTimeoutMs',
  'hostStrategy',
  'hostCooldownMs',
  'discoverCluster',
  'clientName',
  'application',
  'httpHeaders',
  'logger',
  'logLevel',
  'tracing',
  'redactParams',
  'insertBlockRows',
  'maxBlockBytes',
  'protocolRevision',
  'quotaKey',
  'headerPrefix',
  'auth',
  'sessionId',
  'sessionTimeoutSeconds',
  'roles',
  'fetch',
  'simpleRequests',
  'int64',
  'dates',
  'decimal',
])

/**
 * The message for a key that is no client option: ours for a @clickhouse/client name, the
 * option meant for a near miss, and the `settings` route for a snake_case name (how
 * ClickHouse spells its settings).
 */
function unknownOptionMessage(key: string): string {
  const prefix = `unknown client option ${JSON.stringify(key)}`
  const foreign = clickhouseClientHint(key, 'client')
  if (foreign !== undefined) return `${prefix}: ${foreign}`
  const near = nearestName(key, optionNames)
  if (near !== undefined) return `${prefix}: did you mean \`${near}\`?`
  if (/^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(key))
    return `${prefix}: ClickHouse settings go in \`settings\` (e.g. { settings: { ${key}: ... } })`
  return `${prefix}: see ClientOptions for the options there are (ClickHouse settings go in \`settings\`)`
}

/** Applies URL(s) and options; explicit options win over what the URL says. */
export function resolveClientOptions(input: string | ClientOptions): ResolvedClientOptions {
  if (typeof input !== 'string' && (typeof input !== 'object' || input === null))
    throw new UsageError('createClient takes a URL or an options object')
  const options: ClientOptions = typeof input === 'string' ? { url: input } : input
  for (const key of Object.keys(options)) {
    if (!optionNames.has(key)) throw new UsageError(unknownOptionMessage(key))
  }
  const urls =
    options.url === undefined ? [] : typeof options.url === 'string' ? [options.url] : [...options.url]
  if (urls.length === 0) throw new UsageError('createClient needs a url, e.g. clickhouse://localhost:9000')
  const parsed = urls.map(parseClientUrl)
  const first = parsed[0]!
  for (const other of parsed) {
    if (other.kind !== first.kind || other.secure !== first.secure) {
      throw new UsageError('all URLs of one client must use the same scheme')
    }
  }
  const { url: _url, ...rest } = options
  const named = { ...first.options, ...rest } as {
    clientName?: unknown
    application?: unknown
    hostStrategy?: unknown
    discoverCluster?: string | ClusterDiscoveryOptions
  }
  if (
    named.clientName !== undefined &&
    named.application !== undefined &&
    named.clientName !== named.application
  )
    throw new UsageError('clientName and application name the same thing: give one of them')
  if (first.kind === 'native' && options.httpHeaders && Object.keys(options.httpHeaders).length > 0)
    throw new UsageError(
      'httpHeaders are HTTP headers: the native protocol (clickhouse://) has none; use an http:// or https:// URL, or drop them',
    )
  const settings = { ...Object.assign({}, ...parsed.map((each) => each.settings)), ...options.settings }
  // One vocabulary: the strategy is resolved to our hyphenated names here, once.
  const strategy = named.hostStrategy ?? hostStrategyOfLoadBalancing(settings.load_balancing)
  resolveDiscovery(named.discoverCluster)
  return {
    ...first.options,
    ...rest,
    hostStrategy: strategy === undefined ? undefined : resolveHostStrategy(strategy),
    clientName: named.clientName ?? named.application,
    kind: first.kind,
    secure: first.secure || first.options.secure === true,
    endpoints: parsed.flatMap((each) => each.endpoints),
    httpPath: first.path,
    username: options.username ?? first.username ?? 'default',
    password: options.password ?? first.password ?? '',
    database: options.database ?? first.database,
    settings,
  } as ResolvedClientOptions
}

/** The URL of a client for messages and inspect: never with the password. */
export function describeEndpoints(options: ResolvedClientOptions): string {
  const scheme =
    options.kind === 'native'
      ? options.secure
        ? 'clickhouses'
        : 'clickhouse'
      : options.secure
        ? 'https'
        : 'http'
  const hosts = options.endpoints
    .map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`)
    .join(',')
  // Printed the way parseClientUrl reads it back: native URLs carry the database as the
  // path, HTTP ones as `?database=` after the path prefix.
  const database = options.database ? encodeURIComponent(options.database) : undefined
  const where =
    options.kind === 'native'
      ? database
        ? `/${database}`
        : ''
      : `${options.httpPath && options.httpPath !== '/' ? options.httpPath : ''}${database ? `?database=${database}` : ''}`
  return `${scheme}://${encodeURIComponent(options.username)}@${hosts}${where}`
}
