/**
 * Why a page's request failed with fetch's bare `TypeError` ("Failed to fetch"): a server
 * that is down and a server that refused the request without CORS headers look the same to
 * a page. ClickHouse answers a wrong user name or password (516, and 193/194 on 18.16)
 * before it reads `add_http_cors_header`, so that answer carries no CORS header and the
 * browser hides it. A credential-free `/ping` in `no-cors` mode tells them apart: its
 * opaque answer says the server is up and reachable, which its CORS headers do not matter for.
 */

/** How long the probe may take: it only adds a hint to an error already decided. */
const probeTimeoutMs = 2000

/** True in a page or a worker, where fetch applies CORS (elsewhere a refusal is readable). */
function corsApplies(): boolean {
  const scope = globalThis as { document?: unknown; importScripts?: unknown }
  return scope.document !== undefined || typeof scope.importScripts === 'function'
}

/** The server's `/ping` beside the request's path (a proxy prefix kept), without its query. */
export function pingUrl(requestUrl: string): string {
  const url = new URL(requestUrl)
  url.search = ''
  url.username = ''
  url.password = ''
  url.pathname = `${url.pathname.replace(/[^/]*$/, '')}ping`
  return url.href
}

/**
 * `error` with a hint when the server turns out to be up: the fetch error's message plus
 * what to check. `error` unchanged when it is no network TypeError, outside a page, or when
 * the server does not answer `/ping` either (it is down or unreachable: the error says so).
 */
export async function explainCorsRefusal(
  error: unknown,
  requestUrl: string,
  fetchImpl: typeof fetch,
  signal: AbortSignal,
): Promise<unknown> {
  if (!(error instanceof TypeError) || signal.aborted || !corsApplies()) return error
  try {
    await fetchImpl(pingUrl(requestUrl), {
      method: 'GET',
      mode: 'no-cors',
      credentials: 'omit',
      signal: AbortSignal.any([signal, AbortSignal.timeout(probeTimeoutMs)]),
    })
  } catch {
    return error
  }
  return new TypeError(
    `${error.message}: the server is up (it answered /ping) but its answer to this request had no CORS headers, as ClickHouse answers when it refuses the user name or password (or a request needing a CORS preflight it does not allow): check the user name and password`,
    { cause: error },
  )
}
