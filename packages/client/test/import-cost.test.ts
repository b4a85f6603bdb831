// Importing @clickwire/client loads the client, the protocol and both transports' packages,
// but not node:http (the first HTTP request loads it), node:tls (the first clickhouses://
// connection) or node:crypto, and never undici (no longer a dependency). Transports stay loaded at import: one loaded by the first
// client would spend the first call's deadline on compiling it (a loaded machine's codegen
// --timeout 0.5 s left its connect 1 ms). Measured side by side with @clickhouse/client by
// scripts/install-footprint.mjs; this test keeps the loading order from coming back.
import { fileURLToPath } from 'node:url'
import { runProgramOn } from '@clickwire/testing'
import { expect, it } from 'vitest'

const packageDir = fileURLToPath(new URL('..', import.meta.url))

it('loads neither node:http nor node:tls nor node:crypto before they are needed, and never undici', {
  timeout: 120_000,
}, async () => {
  const loaded = await runProgramOn(
    'node26',
    { packageDir, entry: 'test/runtimes/import-cost-main.ts' },
    'IMPORTS ',
  )
  expect(loaded).toEqual({
    afterImport: '@clickwire/client @clickwire/http @clickwire/native @clickwire/protocol node:net node:zlib',
    afterNative: '@clickwire/client @clickwire/http @clickwire/native @clickwire/protocol node:net node:zlib',
    afterHttp: '@clickwire/client @clickwire/http @clickwire/native @clickwire/protocol node:net node:zlib',
  })
})
