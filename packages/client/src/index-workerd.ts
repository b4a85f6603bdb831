/**
 * `@clickwire/client` on Cloudflare Workers (the `workerd` export condition): the same API,
 * with a `createClient` that takes `clickhouse://` and `clickhouses://` (TCP through
 * `cloudflare:sockets`) as well as `http://` and `https://` URLs.
 */
export * from './client-exports.js'
export { createClient } from './create-client-workerd.js'
