// Importing @clickwire/client compiles only the client and the protocol: each transport's
// package (and node:net/node:tls, or node:zlib) loads with the first client that uses it
// (src/lazy-transport.ts), and undici with the first HTTP request. A cold start (serverless, a
// CLI) pays for what it runs. Measured side by side with @clickhouse/client by
// scripts/install-footprint.mjs; this test keeps the loading order from coming back.
import { fileURLToPath } from 'node:url'
import { runProgramOn } from '@clickwire/testing'
import { expect, it } from 'vitest'

const packageDir = fileURLToPath(new URL('..', import.meta.url))

it('loads each transport with the first client of it, not with the import', {
  timeout: 120_000,
}, async () => {
  const loaded = await runProgramOn(
    'node26',
    { packageDir, entry: 'test/runtimes/import-cost-main.ts' },
    'IMPORTS ',
  )
  expect(loaded).toEqual({
    afterImport: '@clickwire/client @clickwire/protocol',
    afterNative: '@clickwire/client @clickwire/native @clickwire/protocol node:net',
    afterHttp: '@clickwire/client @clickwire/http @clickwire/native @clickwire/protocol node:net node:zlib',
  })
})
