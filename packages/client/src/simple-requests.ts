import { resolveCompression, UsageError } from '@clickwire/protocol'
import type { ResolvedClientOptions } from './client-options.js'

/**
 * The origin of the page or worker the client runs in (`location.origin`), or undefined
 * where there is none: Node, Deno without `--location`, Cloudflare Workers and other edge
 * runtimes, none of which apply CORS. A page opened from a file has the origin `null`.
 */
export function pageOrigin(): string | undefined {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin
  return typeof origin === 'string' ? origin : undefined
}

/** What in the options needs a header a simple request cannot carry, if anything. */
function headerNeed(options: ResolvedClientOptions): string | undefined {
  if (options.auth === 'basic' || options.auth === 'headers')
    return `auth ${JSON.stringify(options.auth)} (credentials in headers)`
  if (options.httpHeaders && Object.keys(options.httpHeaders).length > 0)
    return 'httpHeaders (custom request headers)'
  if (options.compression !== undefined && resolveCompression(options.compression).request.includes('gzip'))
    return 'gzip request compression (a Content-Encoding header)'
  return undefined
}

/** `scheme://host:port` of each endpoint, as `location.origin` spells origins. */
function endpointOrigins(options: ResolvedClientOptions): string[] {
  const scheme = options.secure ? 'https' : 'http'
  return options.endpoints.map(
    ({ host, port }) => new URL(`${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`).origin,
  )
}

/**
 * Whether the HTTP transport sends CORS "simple" requests (`simpleRequests` of
 * `@clickwire/http`): requests a browser sends to another origin without asking first with
 * an OPTIONS preflight, which ClickHouse 18.16 never answers (the page hangs) and current
 * servers answer without CORS headers (the request fails).
 *
 * - `simpleRequests: true` forces them; `false` sends normal requests (for a proxy in
 *   front of the server that answers preflights).
 * - Unset, they are chosen when `origin` (the page's, see {@link pageOrigin}; the browser
 *   entry passes it, the Node entry does not, as Node applies no CORS) differs from a
 *   server's origin. A page served from the server's own origin needs no CORS at all.
 *
 * Options that need a header a simple request cannot carry (`auth: 'basic'` or
 * `'headers'`, custom headers, gzip request bodies) make a UsageError in both cases rather
 * than requests that would wait for a preflight answer forever: with `simpleRequests:
 * false` they are sent as they are.
 */
export function chooseSimpleRequests(options: ResolvedClientOptions, origin: string | undefined): boolean {
  if (options.kind !== 'http' || options.simpleRequests === false) return false
  const forced = options.simpleRequests === true
  if (!forced && (origin === undefined || endpointOrigins(options).every((each) => each === origin)))
    return false
  const need = headerNeed(options)
  if (need !== undefined) {
    throw new UsageError(
      forced
        ? `simpleRequests: true sends no header but safelisted ones, which ${need} needs: remove it, or set simpleRequests: false`
        : `this page (origin ${origin}) reaches ClickHouse at another origin, so the client sends CORS simple requests, which ${need} cannot use (its header would need a CORS preflight, which ClickHouse does not answer): remove it, or set simpleRequests: false when a proxy in front of the server answers preflights`,
    )
  }
  return true
}
