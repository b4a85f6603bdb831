// The conformance checks (runtimes/conformance-checks.ts) on every Node line of the matrix
// (20, the floor in engines, to 26), Bun and Deno, each a process of its own as its users run
// it, against the shared test server over both transports: each must give what the server
// renders, the same as Node gives in this process.
// How each runtime is started (Deno with only --allow-net, --allow-read and --allow-env) is
// @clickwire/testing's runProgramOn.
import { fileURLToPath } from 'node:url'
import { runProgramOn } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { createClient } from '../src/index.js'
import { runConformance } from './runtimes/conformance-checks.js'
import { expectedConformance } from './runtimes/conformance-expected.js'
import { transports, urlFor } from './support/transports.js'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const entry = 'test/runtimes/conformance-main.ts'
/** Every Node line of the matrix (each running the built packages) and Bun and Deno (their sources). */
const runtimes = ['node20', 'node22', 'node24', 'node26', 'bun', 'deno'] as const

describe.each(transports)('%s', (transport) => {
  it('Node (this process) gives the expected answers', { timeout: 120_000 }, async () => {
    expect(await runConformance(createClient, urlFor(transport))).toEqual(expectedConformance(transport))
  })

  it.each(runtimes)('%s gives the same answers', { timeout: 150_000 }, async (runtime) => {
    expect(await runProgramOn(runtime, { packageDir, entry, args: [urlFor(transport)] })).toEqual(
      expectedConformance(transport),
    )
  })
})
