/**
 * The raw-format round trip of the ontime data (`clickwire-bench raw-roundtrip`): the
 * dataset exported as a CSV file, that file piped from disk into a fresh table with
 * `insertRaw`, and the table read back with `queryRaw` as Parquet on servers that write it
 * (ClickHouse 18.16 has no Parquet) and as TSV. Row counts are checked at every step:
 * counted by the server for the tables, by lines for CSV and TSV, and for Parquet by
 * inserting the file back into a third table.
 */
import { once } from 'node:events'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@clickwire/client'
import { createOntimeTable } from './ontime-schema.js'

/** One step of the round trip: what moved, how much, how long. */
export interface RoundTripStep {
  readonly step: string
  readonly rows: number
  readonly bytes: number
  readonly seconds: number
}

async function count(client: Client, table: string): Promise<number> {
  const rows = await (await client.query(`SELECT count() AS n FROM ${table}`)).arrays()
  return Number(rows[0]![0])
}

/** The server's fingerprint of a table's content: the same rows in any order give the same one. */
async function fingerprint(client: Client, table: string): Promise<string> {
  const rows = await (await client.query(`SELECT groupBitXor(cityHash64(*)) AS h FROM ${table}`)).arrays()
  return String(rows[0]![0])
}

/** Streams `sql` in `format` to `file`; returns the bytes written and the newlines seen. */
async function exportTo(client: Client, sql: string, format: string, file: string) {
  const out = createWriteStream(file)
  let bytes = 0
  let lines = 0
  for await (const chunk of await client.queryRaw(sql, { format })) {
    bytes += chunk.length
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
    // Backpressure: wait for the file when its buffer is full.
    if (!out.write(chunk)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'close')
  return { bytes, lines }
}

/** A fresh, empty ontime table `database.table`. */
async function emptyOntime(client: Client, database: string, table: string): Promise<void> {
  await client.command(`DROP TABLE IF EXISTS ${database}.${table}`)
  await client.command(createOntimeTable(database, table))
}

/**
 * Runs the round trip against `client` (an HTTP client: raw formats are HTTP only), from
 * `database.ontime`, with scratch tables beside it. `parquet` says whether the server
 * writes Parquet.
 */
export async function rawRoundTrip(
  client: Client,
  parquet: boolean,
  database = 'perftest',
): Promise<RoundTripStep[]> {
  const dir = await mkdtemp(join(tmpdir(), 'clickwire-raw-'))
  const steps: RoundTripStep[] = []
  const timed = async <T>(run: () => Promise<T>) => {
    const started = performance.now()
    const value = await run()
    return { value, seconds: (performance.now() - started) / 1000 }
  }
  try {
    const source = await count(client, `${database}.ontime`)
    const csv = join(dir, 'ontime.csv')
    const exported = await timed(() => exportTo(client, `SELECT * FROM ${database}.ontime`, 'CSV', csv))
    if (exported.value.lines !== source)
      throw new Error(`CSV export: ${exported.value.lines} lines for ${source} rows`)
    steps.push({
      step: 'queryRaw CSV to a file',
      rows: exported.value.lines,
      bytes: exported.value.bytes,
      seconds: exported.seconds,
    })

    await emptyOntime(client, database, 'ontime_csv')
    const inserted = await timed(() =>
      client.insertRaw(`${database}.ontime_csv`, createReadStream(csv), { format: 'CSV' }),
    )
    const csvRows = await count(client, `${database}.ontime_csv`)
    if (csvRows !== source) throw new Error(`insertRaw CSV: ${csvRows} rows in the table, ${source} exported`)
    const original = await fingerprint(client, `${database}.ontime`)
    if ((await fingerprint(client, `${database}.ontime_csv`)) !== original)
      throw new Error('insertRaw CSV: the rows differ from the ones exported')
    steps.push({
      step: 'insertRaw the CSV file',
      rows: csvRows,
      bytes: (await stat(csv)).size,
      seconds: inserted.seconds,
    })

    const tsv = join(dir, 'ontime.tsv')
    const readTsv = await timed(() => exportTo(client, `SELECT * FROM ${database}.ontime_csv`, 'TSV', tsv))
    if (readTsv.value.lines !== source)
      throw new Error(`TSV: ${readTsv.value.lines} lines for ${source} rows`)
    steps.push({
      step: 'queryRaw TSV',
      rows: readTsv.value.lines,
      bytes: readTsv.value.bytes,
      seconds: readTsv.seconds,
    })

    if (parquet) {
      const file = join(dir, 'ontime.parquet')
      const readParquet = await timed(() =>
        exportTo(client, `SELECT * FROM ${database}.ontime_csv`, 'Parquet', file),
      )
      await emptyOntime(client, database, 'ontime_parquet')
      await client.insertRaw(`${database}.ontime_parquet`, createReadStream(file), { format: 'Parquet' })
      const parquetRows = await count(client, `${database}.ontime_parquet`)
      if (parquetRows !== source) throw new Error(`Parquet: ${parquetRows} rows read back, ${source} written`)
      if ((await fingerprint(client, `${database}.ontime_parquet`)) !== original)
        throw new Error('Parquet: the rows read back differ from the ones written')
      steps.push({
        step: 'queryRaw Parquet (rows: inserted back)',
        rows: parquetRows,
        bytes: readParquet.value.bytes,
        seconds: readParquet.seconds,
      })
      await client.command(`DROP TABLE ${database}.ontime_parquet`)
    }
    await client.command(`DROP TABLE ${database}.ontime_csv`)
    return steps
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
