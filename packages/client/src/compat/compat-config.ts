import { UsageError } from '@clickwire/protocol'
import type { ClientOptions } from '../client-options.js'
import { type ClickHouseLogLevel, type CompatLogger, loggerOf, logLevelOf } from './compat-logger.js'
import { type ClickHouseSettings, toSettings } from './compat-values.js'

/** How the drop-in parses and writes JSON (`JSON.parse` / `JSON.stringify` by default). */
export interface JsonHandling {
  readonly parse: (text: string) => unknown
  readonly stringify: (value: unknown) => string
}

/**
 * @clickhouse/client's `createClient` configuration, as the drop-in takes it. `url` may be
 * `http(s)://` as there, or `clickhouse(s)://` for the native protocol.
 */
export interface CompatClientConfig {
  readonly url?: string | URL | undefined
  readonly username?: string | undefined
  readonly password?: string | undefined
  readonly database?: string | undefined
  readonly clickhouse_settings?: ClickHouseSettings | undefined
  /** Milliseconds one request may take (ours: `requestTimeoutMs`). */
  readonly request_timeout?: number | undefined
  /** HTTP: gzip request bodies (`request`) and answers (`response`). Native compresses blocks with LZ4 either way. */
  readonly compression?:
    | { readonly request?: boolean | undefined; readonly response?: boolean | undefined }
    | undefined
  readonly max_open_connections?: number | undefined
  /** Every call runs in this session (HTTP `session_id`; native: one dedicated connection). */
  readonly session_id?: string | undefined
  readonly keep_alive?:
    | { readonly enabled?: boolean | undefined; readonly idle_socket_ttl?: number | undefined }
    | undefined
  readonly application?: string | undefined
  readonly log?:
    | {
        readonly LoggerClass?: (new () => CompatLogger) | undefined
        readonly level?: ClickHouseLogLevel | undefined
      }
    | undefined
  readonly http_headers?: Readonly<Record<string, string>> | undefined
  /** HTTP: a JWT sent as `Authorization: Bearer`, instead of username and password. */
  readonly access_token?: string | undefined
  readonly role?: string | readonly string[] | undefined
  /** TLS (`https://`, `clickhouses://`): PEM buffers, as @clickhouse/client takes them. */
  readonly tls?:
    | {
        readonly ca_cert?: Uint8Array | string | undefined
        readonly cert?: Uint8Array | string | undefined
        readonly key?: Uint8Array | string | undefined
      }
    | undefined
  readonly json?: JsonHandling | undefined
  /**
   * Accepted for compatibility, and not needed: the client sends parameters too long for the
   * URL in the request body by itself.
   */
  readonly use_multipart_params?: boolean | undefined
  readonly use_multipart_params_auto?: boolean | undefined
}

/**
 * HTTP parameters that @clickhouse/client users pass among the settings and that are no
 * settings over native (response buffering: native streams its blocks either way).
 */
export const httpOnlySettings: readonly string[] = ['wait_end_of_query', 'buffer_size']

const known = new Set([
  'url',
  'username',
  'password',
  'database',
  'clickhouse_settings',
  'request_timeout',
  'compression',
  'max_open_connections',
  'session_id',
  'keep_alive',
  'application',
  'log',
  'http_headers',
  'access_token',
  'role',
  'tls',
  'json',
  'use_multipart_params',
  'use_multipart_params_auto',
])

function checkKeys(value: object, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw new UsageError(`unknown key ${JSON.stringify(key)} in ${where}: it takes ${allowed.join(', ')}`)
  }
}

/** The drop-in's configuration resolved: our client options, and what the drop-in keeps itself. */
export interface ResolvedCompatConfig {
  readonly options: ClientOptions
  readonly native: boolean
  readonly json: JsonHandling
}

/**
 * Maps @clickhouse/client's configuration onto our client options. An unknown key is a
 * UsageError naming it, as our own options are.
 */
export function resolveCompatConfig(config: CompatClientConfig = {}): ResolvedCompatConfig {
  if (typeof config !== 'object' || config === null)
    throw new UsageError('createClient takes a configuration object, e.g. { url: "http://localhost:8123" }')
  for (const key of Object.keys(config)) {
    if (!known.has(key))
      throw new UsageError(
        `unknown @clickhouse/client configuration key ${JSON.stringify(key)}: the drop-in takes ${[...known].join(', ')}`,
      )
  }
  const url = config.url === undefined ? 'http://localhost:8123' : String(config.url)
  const native = /^clickhouses?:/i.test(url)
  const options: Record<string, unknown> = { url }
  if (config.username !== undefined) options.username = config.username
  if (config.password !== undefined) options.password = config.password
  if (config.database !== undefined) options.database = config.database
  if (config.clickhouse_settings) {
    const settings = Object.entries(toSettings(config.clickhouse_settings))
    options.settings = Object.fromEntries(
      native ? settings.filter(([name]) => !httpOnlySettings.includes(name)) : settings,
    )
  }
  if (config.request_timeout !== undefined) options.requestTimeoutMs = config.request_timeout
  if (config.max_open_connections !== undefined) options.maxConnections = config.max_open_connections
  if (config.application !== undefined) options.application = config.application
  if (config.role !== undefined) options.roles = config.role
  if (config.http_headers) options.httpHeaders = config.http_headers
  if (config.tls !== undefined) {
    checkKeys(config.tls, ['ca_cert', 'cert', 'key'], 'tls')
    const pem = (value: Uint8Array | string | undefined) =>
      value === undefined || typeof value === 'string' ? value : new TextDecoder().decode(value)
    options.tls = { ca: pem(config.tls.ca_cert), cert: pem(config.tls.cert), key: pem(config.tls.key) }
  }
  if (config.compression !== undefined) {
    checkKeys(config.compression, ['request', 'response'], 'compression')
    // Native compresses blocks both ways with its own default (LZ4); only HTTP takes gzip.
    if (!native) {
      options.compression = {
        request: config.compression.request ? 'gzip' : false,
        response: config.compression.response ? 'gzip' : false,
      }
    }
  }
  if (config.keep_alive !== undefined) {
    checkKeys(config.keep_alive, ['enabled', 'idle_socket_ttl'], 'keep_alive')
    // Without keep-alive a socket is not reused: it closes as soon as it is idle.
    if (config.keep_alive.enabled === false) options.idleTimeoutMs = 1
    else if (config.keep_alive.idle_socket_ttl !== undefined)
      options.idleTimeoutMs = config.keep_alive.idle_socket_ttl
  }
  if (config.log !== undefined) {
    checkKeys(config.log, ['LoggerClass', 'level'], 'log')
    if (config.log.LoggerClass) options.logger = loggerOf(new config.log.LoggerClass())
    // @clickhouse/client logs nothing below WARN by default.
    options.logLevel = logLevelOf(config.log.level) ?? 'warn'
  }
  if (config.access_token !== undefined) {
    if (native) throw new UsageError('access_token is an HTTP bearer token: the native protocol has none')
    options.httpHeaders = { ...config.http_headers, authorization: `Bearer ${config.access_token}` }
    options.auth = 'none'
  }
  if (config.session_id !== undefined) Object.assign(options, sessionOptions(config.session_id, native))
  return { options: options as ClientOptions, native, json: config.json ?? JSON }
}

/** The options of a client that runs every call in `sessionId`. */
export function sessionOptions(sessionId: string, native: boolean): ClientOptions {
  // Over native a session is one connection: the settings and temporary tables live in it.
  return native ? { sessionId, maxConnections: 1 } : { sessionId }
}
