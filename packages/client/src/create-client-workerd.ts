import { ClickwireClient, type Client } from './clickwire-client.js'
import { type ClientOptions, type ResolvedClientOptions, resolveClientOptions } from './client-options.js'
import { httpTransportFor } from './http-transport-factory.js'
import { nativeTransportFor } from './native-transport-factory-node.js'
import { pageOrigin } from './simple-requests.js'

/**
 * Creates a client on Cloudflare Workers (the `workerd` export condition, which wrangler
 * sets): `clickhouse://` and `clickhouses://` go over TCP through `connect()` from
 * `cloudflare:sockets`, `http://` and `https://` through `fetch`.
 *
 * @example
 * ```ts
 * import { createClient } from '@clickwire/client'
 *
 * export default {
 *   async fetch(_request: Request, env: { CLICKHOUSE_URL: string }) {
 *     const ch = createClient(env.CLICKHOUSE_URL) // clickhouses://user:password@host:9440
 *     try {
 *       return Response.json(await (await ch.query('SELECT version() AS v')).rows())
 *     } finally {
 *       await ch.close()
 *     }
 *   },
 * }
 * ```
 */
export function createClient(urlOrOptions: string | ClientOptions): Client {
  const options = resolveClientOptions(urlOrOptions)
  const transportFor = (resolved: ResolvedClientOptions) =>
    resolved.kind === 'native' ? nativeTransportFor(resolved) : httpTransportFor(resolved, pageOrigin())
  return new ClickwireClient(options, transportFor(options), transportFor)
}
