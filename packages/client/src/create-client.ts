import { UsageError } from '@clickwire/protocol'
import { ClickwireClient, type Client } from './clickwire-client.js'
import { type ClientOptions, type ResolvedClientOptions, resolveClientOptions } from './client-options.js'
import { httpTransportFor } from './http-transport-factory.js'
import { pageOrigin } from './simple-requests.js'

/**
 * Creates a client where only HTTP exists (browsers, edge runtimes, workers): the entry
 * bundlers pick for `@clickwire/client` outside Node. It takes `http://` and `https://`
 * URLs; `clickhouse://` needs TCP sockets and fails with a UsageError here. On a page (or
 * worker) whose origin differs from the server's, requests are CORS simple ones, which
 * need no preflight: credentials travel as URL parameters (see `simpleRequests`).
 *
 * @example
 * ```ts
 * import { createClient } from '@clickwire/client'
 *
 * const ch = createClient({ url: 'https://clickhouse.example.com:8443', username: 'reader', password })
 * const rs = await ch.query<{ n: bigint }>('SELECT count() AS n FROM events')
 * console.log((await rs.rows())[0]?.n)
 * ```
 */
export function createClient(urlOrOptions: string | ClientOptions): Client {
  const options = resolveClientOptions(urlOrOptions)
  if (options.kind === 'native') {
    throw new UsageError(
      'clickhouse:// and clickhouses:// need TCP sockets, which this runtime does not have: use an http:// or https:// URL (the native protocol is in the Node build of @clickwire/client)',
    )
  }
  // On a page of another origin than the server, requests are CORS simple ones by default.
  const transportFor = (resolved: ResolvedClientOptions) => httpTransportFor(resolved, pageOrigin())
  return new ClickwireClient(options, transportFor(options), transportFor)
}
