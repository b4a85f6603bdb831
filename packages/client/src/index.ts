/**
 * `@clickwire/client` for Node (the `node` export condition): `createClient` takes
 * `clickhouse://`, `clickhouses://`, `http://` and `https://` URLs.
 */
export * from './client-exports.js'
export { createClient } from './create-client-node.js'
