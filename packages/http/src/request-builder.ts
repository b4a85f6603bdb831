import { registerSecret, type Settings, settingEntries } from '@clickwire/protocol'
import type { ResolvedOptions } from './http-options.js'

/** What one request is about, besides the transport's options. */
export interface RequestParts {
  readonly queryId: string
  /** Query text sent in the URL (`query=`), e.g. an INSERT whose body is data. */
  readonly queryInUrl?: string | undefined
  /** Per-request settings, over the transport's. */
  readonly settings?: Settings | undefined
  /** `default_format` for statements without a FORMAT clause. */
  readonly defaultFormat?: string | undefined
  /** `param_<name>` fields and other extra URL fields, already as text. */
  readonly extraFields?: ReadonlyArray<readonly [string, string]> | undefined
  /** Whether the request belongs to the session (a KILL QUERY or a probe does not). */
  readonly inSession?: boolean | undefined
  /** The body is ClickHouse compressed frames (`decompress=1`). */
  readonly framedBody?: boolean | undefined
  /** The body is gzip-encoded. */
  readonly gzipBody?: boolean | undefined
  /** Ask for a response in compressed frames (`compress=1`). */
  readonly framedResponse?: boolean | undefined
  /** Ask for an HTTP-compressed response. */
  readonly httpCompression?: 'gzip' | 'deflate' | undefined
  /** The body is binary (an insert) rather than query text. */
  readonly binaryBody?: boolean | undefined
  /** The body's own content type (a multipart form of external tables), over the two above. */
  readonly contentType?: string | undefined
  /** `ping` instead of the configured path. */
  readonly path?: string | undefined
  /** No query string at all (18.16 serves `/ping` only for the bare path). */
  readonly bare?: boolean | undefined
  /** This call's extra headers, over the transport's `headers` (not in simple-request mode). */
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** Base64 of UTF-8 text, without Buffer (runs in browsers). */
function base64(text: string): string {
  const bytes = new TextEncoder().encode(text)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** The `Authorization` value for the options' credentials; registered as a secret. */
export function basicAuthorization(options: ResolvedOptions): string {
  const token = base64(`${options.username}:${options.password}`)
  if (options.password) registerSecret(token)
  return `Basic ${token}`
}

/**
 * The URL and headers of one request. Settings and our own fields go in the query string
 * (ClickHouse reads every unknown URL field as a setting); credentials go where the auth
 * mode says. In simple-request mode no custom header is set at all.
 */
export function buildRequest(
  options: ResolvedOptions,
  parts: RequestParts,
): { url: string; headers: Record<string, string> } {
  const url = new URL(parts.path ?? options.base.pathname, options.base)
  // Fields given in the configured URL stay, ours come after them.
  const search = new URLSearchParams(options.base.search)
  if (parts.queryInUrl !== undefined) search.set('query', parts.queryInUrl)
  search.set('query_id', parts.queryId)
  if (options.database !== undefined) search.set('database', options.database)
  if (parts.defaultFormat) search.set('default_format', parts.defaultFormat)
  const inSession = parts.inSession ?? true
  if (inSession && options.sessionId !== undefined) {
    search.set('session_id', options.sessionId)
    if (options.sessionTimeoutSeconds !== undefined) {
      search.set('session_timeout', String(options.sessionTimeoutSeconds))
    }
    if (options.sessionCheck) search.set('session_check', '1')
  }
  for (const role of options.roles) search.append('role', role)
  // Protocol's setting encoder, the native transport's too: same values, same refusals.
  for (const [name, text] of settingEntries({ ...options.settings, ...parts.settings }))
    search.set(name, text)
  // A simple request exists for pages of another origin, which see an answer only when it
  // carries Access-Control-Allow-Origin: the server sends it for this setting.
  if (options.simpleRequests && !search.has('add_http_cors_header')) search.set('add_http_cors_header', '1')
  if (parts.framedBody) search.set('decompress', '1')
  // Answers come in the server's network_compression_method (ZSTD(3) from 26.9, LZ4 before),
  // which the frame reader decodes whatever it is. It is not named for the caller: HTTP
  // cannot tell a readonly = 1 profile, which refuses any setting (164).
  if (parts.framedResponse) search.set('compress', '1')
  if (parts.httpCompression) search.set('enable_http_compression', '1')
  for (const [key, value] of parts.extraFields ?? []) search.set(key, value)

  const headers: Record<string, string> = {}
  const prefix = options.headerPrefix
  switch (options.auth) {
    case 'basic':
      headers.authorization = basicAuthorization(options)
      break
    case 'headers':
      headers[`${prefix}User`] = options.username
      if (options.password) headers[`${prefix}Key`] = options.password
      break
    case 'url':
      search.set('user', options.username)
      if (options.password) search.set('password', options.password)
      break
    case 'none':
      break
  }
  if (options.simpleRequests) {
    // multipart/form-data is one of the content types a simple request may carry.
    headers['content-type'] = parts.contentType ?? 'text/plain;charset=UTF-8'
  } else {
    Object.assign(headers, options.headers, parts.headers)
    headers['content-type'] =
      parts.contentType ?? (parts.binaryBody ? 'application/octet-stream' : 'text/plain; charset=UTF-8')
    if (parts.httpCompression) headers['accept-encoding'] = parts.httpCompression
    if (parts.gzipBody) headers['content-encoding'] = 'gzip'
  }
  url.search = parts.bare ? '' : search.toString()
  return { url: url.toString(), headers }
}
