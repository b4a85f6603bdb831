/**
 * `@clickwire/http` for Node and Deno (the `node` export condition): requests go through
 * node:http with a kept-alive Agent, unless a `fetch` is given (or on Bun, whose node:http is
 * built on its fetch: that fetch there). Same API as the browser entry.
 */
import { bunFetch, onBun } from './bun-fetch-node.js'
import { fetchBackend } from './fetch-backend.js'
import { httpAgentBackend } from './http-agent-backend-node.js'
import type { HttpTransportOptions } from './http-options.js'
import { HttpTransport } from './http-transport.js'

export * from './http-exports.js'

/**
 * Creates a transport for the ClickHouse HTTP interface.
 *
 * @example
 * ```ts
 * import { createHttpTransport } from '@clickwire/http'
 *
 * const http = createHttpTransport({ url: 'http://127.0.0.1:8123', username: 'default' })
 * const result = await http.query('SELECT number, toString(number) AS s FROM system.numbers LIMIT 3')
 * for await (const block of result) console.log(block.rows, block.columns[0]!.column.values())
 * await http.close()
 * ```
 */
export function createHttpTransport(options: HttpTransportOptions): HttpTransport {
  return new HttpTransport(
    options,
    (resolved, user) =>
      user.fetch
        ? fetchBackend({ fetch: user.fetch, streamingUploads: true })
        : onBun()
          ? fetchBackend({ fetch: bunFetch(user.tls), streamingUploads: true })
          : httpAgentBackend(resolved, user.tls),
    // LZ4 (native addon to compress, WebAssembly to decompress) and ZSTD, loaded only when
    // compressed frames are used.
    { loadCodecs: async () => (await import('@clickwire/protocol/compression-node')).nodeCompression() },
  )
}
