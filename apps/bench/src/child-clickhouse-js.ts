/**
 * One benchmark process with @clickhouse/client, the official JS client (HTTP only, no
 * Native format): `node child-clickhouse-js.js <work> <cutoff date | rows> [format]`.
 * Formats per work, the fastest this client has on ClickHouse 18.16 (which lacks
 * JSONCompactEachRow): text() of TSV / JSONEachRow for raw bytes, a TabSeparated stream
 * for split lines, JSONEachRow or JSONCompact `json()` for parsed rows, a JSONEachRow
 * stream for iteration, a CSV stream for ch-bench, JSONEachRow for inserts.
 */
import { createClient } from '@clickhouse/client'
import { childArguments, reportRows, requiredEnv, startClock } from './child-clock.js'
import { ontimeColumns } from './ontime-schema.js'
import { insertTable, numbersQuery, ontimeQuery, type Work } from './scenario-queries.js'

const [work, point, format] = childArguments('child-clickhouse-js.js <work> <cutoff|rows> [format]', 2) as [
  Work,
  string,
  string | undefined,
]

// Inserted rows exist as objects before the clock starts, as an application's would.
let insertRows: Record<string, unknown>[] = []
if (work === 'insert') {
  const { generateOntime } = await import('./ontime-generator.js')
  for (const day of generateOntime({ before: point })) {
    for (let row = 0; row < day.rows; row++) {
      const object: Record<string, unknown> = {}
      for (const [name, type] of ontimeColumns) {
        const value = day.columns[name]![row]
        object[name] =
          type === 'Date' ? new Date(Number(value) * 86_400_000).toISOString().slice(0, 10) : value
      }
      insertRows.push(object)
    }
  }
}

startClock()

const client = createClient({
  url: requiredEnv('BENCH_HTTP_BASE'),
  username: process.env.BENCH_USER ?? 'default',
  password: process.env.BENCH_PASSWORD ?? '',
  request_timeout: 3_600_000,
})

async function countStreamed(query: string, streamFormat: 'JSONEachRow' | 'TabSeparated' | 'CSV') {
  const result = await client.query({ query, format: streamFormat })
  let rows = 0
  // Every row is decoded (JSON) or its text taken, as a consumer would.
  let touched = 0
  for await (const batch of result.stream()) {
    for (const row of batch) {
      touched += streamFormat === 'JSONEachRow' ? (row.json() === undefined ? 0 : 1) : row.text.length
      rows++
    }
  }
  return touched >= 0 ? rows : -1
}

switch (work) {
  case 'raw-tsv':
  case 'raw-json': {
    const result = await client.query({
      query: ontimeQuery(work, point),
      format: work === 'raw-tsv' ? 'TabSeparated' : 'JSONEachRow',
    })
    const text = await result.text()
    let lines = 0
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++
    reportRows(lines)
    break
  }
  case 'tsv-split': {
    const result = await client.query({ query: ontimeQuery(work, point), format: 'TabSeparated' })
    const rows: string[][] = []
    for await (const batch of result.stream()) for (const row of batch) rows.push(row.text.split('\t'))
    reportRows(rows.length)
    break
  }
  case 'rows': {
    if (format === 'JSONCompact') {
      const result = await client.query({ query: ontimeQuery(work, point), format: 'JSONCompact' })
      reportRows((await result.json<unknown[]>()).data.length)
    } else {
      const result = await client.query({ query: ontimeQuery(work, point), format: 'JSONEachRow' })
      reportRows((await result.json<Record<string, unknown>>()).length)
    }
    break
  }
  case 'iterate':
  case 'iterate-strings':
  case 'iterate-ints':
    reportRows(await countStreamed(ontimeQuery(work, point), 'JSONEachRow'))
    break
  case 'numbers':
    reportRows(await countStreamed(numbersQuery(Number(point)), 'CSV'))
    break
  case 'insert': {
    await client.insert({ table: insertTable, values: insertRows, format: 'JSONEachRow' })
    reportRows(insertRows.length)
    insertRows = []
    break
  }
  default:
    process.stderr.write(`@clickhouse/client has no ${work} scenario here\n`)
    process.exitCode = 2
}
await client.close()
