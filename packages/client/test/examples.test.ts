// Every example in examples/ runs against the test server, over both transports, and prints
// what the README says it prints.
import { readdirSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { transports, urlFor } from './support/transports.js'

const expected: Record<string, readonly string[]> = {
  'quick-start.ts': ['n: UInt64, square: UInt64', '0 squared is 0', '1 squared is 1', '2 squared is 4'],
  'streaming-rows.ts': [
    'read 1000000 rows, sum 499999500000',
    'block 1: 10000 rows, first n 0',
    'block 2: 10000 rows, first n 10000',
    'block 3: 5000 rows, first n 20000',
  ],
  'columns-and-arrow.ts': [
    'Uint32Array of 10, sum 45',
    'ratio: Float64Array, labels: 0 1 2 0 1 2 0 1 2 0',
    'id: Uint32, ratio: Float64, label: Utf8',
    '10 rows; ratio[9] = 2.25',
  ],
  'insert-from-generator.ts': ['inserted 100000 rows', 'click: 50000', 'columns: 1', 'view: 50000'],
  'sql-template.ts': ['n = 7', 'n = 5', 'n = 3', '2024-02-29'],
  'failover.ts': ['answered: 42', 'ping ok'],
}

const examples = readdirSync(new URL('../examples', import.meta.url)).filter((name) => name.endsWith('.ts'))

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

it('has an expected output for every example, and an example for every expected output', () => {
  expect(examples.sort()).toEqual(Object.keys(expected).sort())
})

describe.each(transports)('%s', (transport) => {
  it.each(examples)('runs examples/%s', async (name) => {
    vi.stubEnv('CLICKHOUSE_URL', urlFor(transport))
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(args.join(' '))
    })
    // A query string makes each run a fresh module: the example's top level runs again.
    await import(/* @vite-ignore */ `../examples/${name}?${transport}`)
    expect(printed).toEqual(expected[name])
  })
})
