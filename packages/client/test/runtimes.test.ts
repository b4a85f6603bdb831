// The conformance checks (runtimes/conformance-checks.ts) on Bun, Deno and workerd, as their
// users run them (workerd: a worker bundled as wrangler bundles it, in a local workerd), against the shared test server over both transports: each must give what the server
// renders, the same as Node gives in this process. Deno gets only --allow-net, --allow-read
// and --allow-env (--sloppy-imports and the source condition only let it run our TypeScript
// sources; a user's install runs the built files).
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { type RuntimeName, runtimeBinary } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../src/index.js'
import { runConformance } from './runtimes/conformance-checks.js'
import { server, type TransportName, transports, urlFor } from './support/transports.js'
import { startWorker, type WorkerdWorker } from './support/workerd-worker.js'

const run = promisify(execFile)
const packageDir = fileURLToPath(new URL('..', import.meta.url))
const main = 'test/runtimes/conformance-main.ts'

const launches: Record<'bun' | 'deno', (url: string) => string[]> = {
  bun: (url) => ['--conditions=@clickwire/source', main, url],
  deno: (url) => [
    'run',
    '--quiet',
    '--sloppy-imports',
    '--node-modules-dir=manual',
    '--conditions=@clickwire/source',
    '--allow-net',
    '--allow-read',
    '--allow-env',
    main,
    url,
  ],
}

/** What every runtime must answer: the server's own renderings, fixed here. */
function expected(transport: TransportName): Record<string, string> {
  const sums = '(200000,2177780) (5000,12497500,5000)'
  return {
    ping: 'ok',
    'rows with params': '[{"x":"42n","s":"é \\"q\\" \\\\ \\t"}]',
    'sql tag': '[{"v":"42n","w":"x y"}]',
    columns: 'Uint32Array 0,1,2,3,4 0,1,2,3,4',
    arrow: '1000 rows, n:Uint32 s:Utf8, sum 499500',
    'streaming 1M rows': '1000000 rows, sum 499999500000',
    'insert rows and a stream': '10000 streamed; (10002,51995001,10000)',
    'server error': 'ClickHouseError 60',
    'abort stops the query on the server': 'seen running true, AbortError, left running 0',
    'every compression':
      transport === 'native'
        ? `none ${sums}; lz4 ${sums}; zstd ${sums}`
        : `none ${sums}; gzip ${sums}; lz4 ${sums}; zstd ${sums}; frames ${sums}`,
    'raw format': transport === 'native' ? 'http only' : '0,"0"\n1,"2"\n2,"4"\n',
  }
}

async function conformanceOn(runtime: RuntimeName & keyof typeof launches, url: string) {
  const { stdout } = await run(runtimeBinary(runtime), launches[runtime](url), {
    cwd: packageDir,
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  })
  const line = stdout.split('\n').find((each) => each.startsWith('CONFORMANCE '))
  if (!line) throw new Error(`${runtime} printed no result:\n${stdout}`)
  return JSON.parse(line.slice('CONFORMANCE '.length)) as Record<string, string>
}

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
    expect(await runConformance(createClient, urlFor(transport))).toEqual(expected(transport))
  })

  it.each(['bun', 'deno'] as const)('%s gives the same answers', { timeout: 150_000 }, async (runtime) => {
    expect(await conformanceOn(runtime, urlFor(transport))).toEqual(expected(transport))
  })

  it('workerd gives the same answers', { timeout: 150_000 }, async () => {
    expect(await conformanceOnWorkerd(urlFor(transport))).toEqual(expected(transport))
  })
})

// The shared server listens for TLS where the harness can open it: 18.16 (the modern engine
// opens TCP and HTTP only, see @clickwire/testing's startClickHouse), as native/test/tls.test.ts.
describe.runIf(server.secureNativeUrl)('native over TLS (clickhouses://)', () => {
  it('workerd gives the same answers through connect() with secureTransport', {
    timeout: 150_000,
  }, async () => {
    expect(await conformanceOnWorkerd(server.secureNativeUrl!)).toEqual(expected('native'))
  })
})
