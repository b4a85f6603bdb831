// The conformance checks (runtimes/conformance-checks.ts) on every Node line of the matrix
// (20, the floor in engines, to 26), Bun, Deno and workerd, each a process of its own as its
// users run it (workerd: a worker bundled as wrangler bundles it, in a local workerd),
// against the shared test server over both transports: each must give what the server
// renders, the same as Node gives in this process. How Node, Bun and Deno are started (Deno
// with only --allow-net, --allow-read and --allow-env) is @clickwire/testing's runProgramOn.
import { fileURLToPath } from 'node:url'
import { runProgramOn } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../src/index.js'
import { runConformance } from './runtimes/conformance-checks.js'
import { expectedConformance } from './runtimes/conformance-expected.js'
import { endpointFor, server, transports, urlFor } from './support/transports.js'
import { startWorker, type WorkerdWorker } from './support/workerd-worker.js'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const entry = 'test/runtimes/conformance-main.ts'
/** Every Node line of the matrix (each running the built packages) and Bun and Deno (their sources). */
const runtimes = ['node20', 'node22', 'node24', 'node26', 'bun', 'deno'] as const

let worker: WorkerdWorker

beforeAll(async () => {
  // The worker's network trusts the test server's CA, for clickhouses:// (Workers' own roots otherwise).
  worker = await startWorker(fileURLToPath(new URL('./runtimes/conformance-worker.ts', import.meta.url)), {
    trustedCertificates: server.ca ? [server.ca] : [],
  })
}, 120_000)

afterAll(async () => {
  await worker?.stop()
})

async function conformanceOnWorkerd(url: string) {
  const response = await fetch(`${worker.url}/?url=${encodeURIComponent(url)}`)
  const text = await response.text()
  if (response.status !== 200)
    throw new Error(`workerd answered ${response.status}: ${text}\n${worker.output()}`)
  return JSON.parse(text) as Record<string, string>
}

describe.each(transports)('%s', (transport) => {
  it('Node (this process) gives the expected answers', { timeout: 120_000 }, async () => {
    expect(await runConformance(createClient, urlFor(transport))).toEqual(expectedConformance(transport))
  })

  it.each(runtimes)('%s gives the same answers', { timeout: 150_000 }, async (runtime) => {
    expect(await runProgramOn(runtime, { packageDir, entry, args: [urlFor(transport)] })).toEqual(
      expectedConformance(transport),
    )
  })

  it('workerd gives the same answers', { timeout: 150_000 }, async () => {
    expect(await conformanceOnWorkerd(urlFor(transport))).toEqual(expectedConformance(transport))
  })
})

// The shared server listens for TLS where the harness can open it: 18.16 (the modern engine
// opens TCP and HTTP only, see @clickwire/testing's startClickHouse), as native/test/tls.test.ts.
describe.runIf(server.secureNativeUrl)('native over TLS (clickhouses://)', () => {
  it('workerd gives the same answers through connect() with secureTransport', {
    timeout: 150_000,
  }, async () => {
    expect(await conformanceOnWorkerd(server.secureNativeUrl!)).toEqual(expectedConformance('native'))
  })
})

// Deno without --allow-net refuses every socket: the caller's to fix, so a UsageError that
// names the flag (Deno's own message), not a ConnectionError that would be retried and set
// the host aside as down.
it('deno without --allow-net: a UsageError naming the flag, on both transports', {
  timeout: 150_000,
}, async () => {
  const urls = transports.map(urlFor)
  const refused = (endpoint: string) =>
    `the runtime refused a permission: Requires net access to "${endpoint}", run again with the --allow-net flag`
  expect(
    await runProgramOn('deno', {
      packageDir,
      entry: 'test/runtimes/deno-permission-main.ts',
      args: urls,
      denoPermissions: ['--allow-read', '--allow-env'],
    }),
  ).toEqual({
    [urls[0]!]: `UsageError: connection to ${endpointFor('native')} failed: ${refused(endpointFor('native'))}`,
    [urls[1]!]: `UsageError: POST ${endpointFor('http')} failed: ${refused(endpointFor('http'))}`,
  })
})
