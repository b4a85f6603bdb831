import { ClickwireClient, type Client } from './clickwire-client.js'
import { type ClientOptions, type ResolvedClientOptions, resolveClientOptions } from './client-options.js'
import { httpTransportFor } from './http-transport-factory.js'
import { nativeTransportFor } from './native-transport-factory-node.js'
import { withUserAgent } from './user-agent-node.js'

/**
 * Creates a client. The URL scheme picks the transport: `clickhouse://` / `clickhouses://`
 * for the native TCP protocol, `http://` / `https://` for the HTTP interface. Code written
 * against the client works the same on both.
 *
 * @example
 * ```ts
 * import { createClient, sql } from '@clickwire/client'
 *
 * await using ch = createClient('clickhouse://default:@127.0.0.1:9000/default')
 * const rs = await ch.query<{ n: bigint }>(sql`SELECT number AS n FROM system.numbers LIMIT ${3}`)
 * console.log(await rs.rows()) // [{ n: 0n }, { n: 1n }, { n: 2n }]
 * ```
 */
export function createClient(urlOrOptions: string | ClientOptions): Client {
  const options = resolveClientOptions(urlOrOptions)
  const transportFor = (resolved: ResolvedClientOptions) =>
    resolved.kind === 'native' ? nativeTransportFor(resolved) : httpTransportFor(withUserAgent(resolved))
  return new ClickwireClient(options, transportFor(options), transportFor)
}
