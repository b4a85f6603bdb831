// The Kysely dialect's conformance checks (runtimes/kysely-conformance-checks.ts) on Node in
// this process, on every Node line of the matrix and on Bun and Deno as their users run them,
// over both transports: each must give what the server renders, fixed here. How each runtime
// is started (Deno with only --allow-net, --allow-read and --allow-env) is @clickwire/testing's
// runProgramOn.
import { fileURLToPath } from 'node:url'
import { createClient } from '@clickwire/client'
import { runProgramOn } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { runKyselyConformance } from './runtimes/kysely-conformance-checks.js'
import { transports, urlFor } from './support/transports.js'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const entry = 'test/runtimes/kysely-conformance-main.ts'
/** Every Node line of the matrix (the built packages) and Bun and Deno (their sources). */
const runtimes = ['node20', 'node22', 'node24', 'node26', 'bun', 'deno'] as const

/** The server's answers: FINAL keeps version 2 of id 1, ARRAY JOIN gives one row per tag. */
const expected = {
  'create, insert and select with clauses':
    'inserted 3; [{"id":1,"tag":"olap"},{"id":1,"tag":"sql"},{"id":1,"tag":"tsdb"}]',
  'values with quotes and aggregates':
    '[{"id":2,"author":"o\'brien \\\\ \\"q\\""}] [{"author":"ada","n":"1n","v":2},{"author":"o\'brien \\\\ \\"q\\"","n":"1n","v":1}]',
  streaming: '100000 rows, sum 4999950000',
}

describe.each(transports)('Kysely over %s', (transport) => {
  it('Node (this process) gives the expected answers', { timeout: 120_000 }, async () => {
    expect(await runKyselyConformance(createClient, urlFor(transport))).toEqual(expected)
  })

  it.each(runtimes)('%s gives the same answers', { timeout: 150_000 }, async (runtime) => {
    expect(await runProgramOn(runtime, { packageDir, entry, args: [urlFor(transport)] })).toEqual(expected)
  })
})
