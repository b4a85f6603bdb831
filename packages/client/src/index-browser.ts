/**
 * `@clickwire/client` where only HTTP exists (browsers, edge runtimes): the same API, with a
 * `createClient` that takes `http://` and `https://` URLs. Nothing here imports `node:*`.
 */
export * from './client-exports.js'
export { createClient } from './create-client.js'
