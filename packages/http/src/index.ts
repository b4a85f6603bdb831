/**
 * `@clickwire/http` for browsers, edge runtimes and anything with a WHATWG fetch. Node
 * gets `index-node.ts` (the `node` export condition), which uses node:http; the API is the same.
 */
import { fetchBackend } from './fetch-backend.js'
import type { HttpTransportOptions } from './http-options.js'
import { HttpTransport } from './http-transport.js'

export * from './http-exports.js'

/**
 * Creates a transport for the ClickHouse HTTP interface over the runtime's fetch.
 *
 * @example
 * ```ts
 * const http = createHttpTransport({ url: 'http://127.0.0.1:8123', simpleRequests: true,
 *   settings: { add_http_cors_header: 1 } })
 * for await (const row of (await http.query('SELECT number FROM system.numbers LIMIT 3')).rows()) {
 *   console.log(row.number) // 0n, 1n, 2n
 * }
 * ```
 */
export function createHttpTransport(options: HttpTransportOptions): HttpTransport {
  return new HttpTransport(options, (_resolved, user) => fetchBackend({ fetch: user.fetch }), {
    // LZ4 (liblz4) and ZSTD through WebAssembly, loaded only when compressed frames are used.
    loadCodecs: () => import('@clickwire/protocol/frames').then((frames) => frames.portableCompression()),
  })
}
