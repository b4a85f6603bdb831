// The Kysely dialect's conformance checks (runtimes/kysely-conformance-checks.ts) on Node in
// this process and on Bun and Deno as their users run them, over both transports: each must
// give what the server renders, fixed here. Deno gets only --allow-net, --allow-read and
// --allow-env (--sloppy-imports and the source condition only let it run our TypeScript
// sources; a user's install runs the built files).
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createClient } from '@clickwire/client'
import { runtimeBinary } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { runKyselyConformance } from './runtimes/kysely-conformance-checks.js'
import { transports, urlFor } from './support/transports.js'

const run = promisify(execFile)
const packageDir = fileURLToPath(new URL('..', import.meta.url))
const main = 'test/runtimes/kysely-conformance-main.ts'

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

/** The server's answers: FINAL keeps version 2 of id 1, ARRAY JOIN gives one row per tag. */
const expected = {
  'create, insert and select with clauses':
    'inserted 3; [{"id":1,"tag":"olap"},{"id":1,"tag":"sql"},{"id":1,"tag":"tsdb"}]',
  'values with quotes and aggregates':
    '[{"id":2,"author":"o\'brien \\\\ \\"q\\""}] [{"author":"ada","n":"1n","v":2},{"author":"o\'brien \\\\ \\"q\\"","n":"1n","v":1}]',
  streaming: '100000 rows, sum 4999950000',
}

async function conformanceOn(runtime: keyof typeof launches, url: string): Promise<Record<string, string>> {
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

describe.each(transports)('Kysely over %s', (transport) => {
  it('Node (this process) gives the expected answers', { timeout: 120_000 }, async () => {
    expect(await runKyselyConformance(createClient, urlFor(transport))).toEqual(expected)
  })

  it.each(['bun', 'deno'] as const)('%s gives the same answers', { timeout: 150_000 }, async (runtime) => {
    expect(await conformanceOn(runtime, urlFor(transport))).toEqual(expected)
  })
})
