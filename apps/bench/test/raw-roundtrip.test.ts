// The raw-format round trip of the ontime data on the test server: CSV out to a file, the
// file piped back in with insertRaw, and TSV (and Parquet where the server writes it) read
// back, every row counted and compared by the server's hash of the rows. One day of flights, in a database of its own (other test files
// reload perftest.ontime meanwhile).
import { createClient } from '@clickwire/client'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { generateDay } from '../src/ontime-generator.js'
import { createOntimeTable } from '../src/ontime-schema.js'
import { rawRoundTrip } from '../src/raw-roundtrip.js'

const server = inject('clickhouse')
const database = 'raw_roundtrip'
const rows = 3_000

describe('raw-roundtrip', () => {
  const { user, password } = server.users.default
  const http = createClient({ url: server.httpUrl, username: user, password })

  beforeAll(async () => {
    await http.command(`DROP DATABASE IF EXISTS ${database}`)
    await http.command(`CREATE DATABASE ${database}`)
    await http.command(createOntimeTable(database, 'ontime'))
    // Columns, as the loader inserts them: an iterable of column batches.
    await http.insert(
      `${database}.ontime`,
      (async function* () {
        yield generateDay('2017-01-05', rows).columns
      })(),
    )
  }, 120_000)
  afterAll(async () => {
    await http.command(`DROP DATABASE IF EXISTS ${database}`)
    await http.close()
  })

  it('moves every row through CSV, insertRaw, TSV and (modern) Parquet', async () => {
    const parquet = server.generation === 'modern'
    const steps = await rawRoundTrip(http, parquet, database)
    expect(steps.map((step) => [step.step, step.rows])).toEqual([
      ['queryRaw CSV to a file', rows],
      ['insertRaw the CSV file', rows],
      ['queryRaw TSV', rows],
      ...(parquet ? [['queryRaw Parquet (rows: inserted back)', rows]] : []),
    ])
    // The CSV file inserted is the CSV exported, byte for byte.
    expect(steps[1]!.bytes).toBe(steps[0]!.bytes)
  }, 180_000)
})
