import type { ResolvedClientOptions } from './client-options.js'

/**
 * The `User-Agent` of HTTP requests from Node: the application's name (`clientName`) first,
 * then the client and runtime, e.g. `my-app clickwire-js (node v20.19.0)`. ClickHouse
 * records it as `http_user_agent` (system.query_log, system.processes); that is where
 * HTTP queries carry the name native sends as `client_name`. Node only: a browser sets its
 * own, and a custom one would cost each request a CORS preflight.
 */
export function userAgentFor(options: ResolvedClientOptions): string {
  const runtime = `clickwire-js (node ${process.version})`
  return options.clientName ? `${options.clientName} ${runtime}` : runtime
}

/** Options with the User-Agent among the HTTP headers (the caller's own User-Agent wins). */
export function withUserAgent(options: ResolvedClientOptions): ResolvedClientOptions {
  const given = Object.keys(options.httpHeaders ?? {}).some((name) => name.toLowerCase() === 'user-agent')
  if (given) return options
  return { ...options, httpHeaders: { 'user-agent': userAgentFor(options), ...options.httpHeaders } }
}
