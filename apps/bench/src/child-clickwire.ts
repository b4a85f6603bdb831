/**
 * One benchmark process with clickwire:
 * `node child-clickwire.js <native|http> <work> <cutoff date | rows> [lz4|none|ArrowStream]`:
 * lz4 or none is native's block compression; ArrowStream makes the Arrow works over HTTP
 * call `queryArrow()` (the server's ArrowStream where it reads the same) instead of `arrow()`.
 * The server comes from BENCH_NATIVE_URL / BENCH_HTTP_URL; BENCH_PROTOCOL_REVISION, when set,
 * is the highest native protocol revision the client may speak (`protocolRevision`).
 */
import { createClient } from '@clickwire/client'
import { childArguments, reportRows, requiredEnv, startClock } from './child-clock.js'
import type { OntimeDay } from './ontime-generator.js'
import { insertTable, queryOf, type Work } from './scenario-queries.js'

const [transport, work, point, compression] = childArguments(
  'child-clickwire.js <native|http> <work> <cutoff|rows> [lz4|none|ArrowStream]',
  3,
) as [string, Work, string, string | undefined]

// An insert writes rows that exist in memory before the clock starts, as an
// application's would.
let days: OntimeDay[] = []
if (work === 'insert') {
  const { generateOntime } = await import('./ontime-generator.js')
  days = [...generateOntime({ before: point })]
}

startClock()

const url = requiredEnv(transport === 'http' ? 'BENCH_HTTP_URL' : 'BENCH_NATIVE_URL')
const revision = process.env.BENCH_PROTOCOL_REVISION
const client = createClient({
  url,
  compression:
    transport === 'native' && (compression === 'lz4' || compression === 'none') ? compression : undefined,
  // Spread, so that a client without the option still compiles (and ignores it).
  ...(revision ? { protocolRevision: Number(revision) } : {}),
})

switch (work) {
  case 'numbers':
  case 'numbers-strings': {
    let rows = 0
    const result = await client.query(queryOf(work, point))
    // Each block is dropped before the next, as in ch-bench's other clients: its memory is reused.
    for await (const block of result.blocks({ reuseMemory: true })) rows += block.values()[0]!.length
    reportRows(rows)
    break
  }
  case 'numbers-strings-blocks': {
    let rows = 0
    const result = await client.query(queryOf(work, point))
    // Decoded (offsets checked, values located) but no JS string made: String's wire layout alone.
    for await (const block of result.blocks({ reuseMemory: true })) rows += block.rowCount
    reportRows(rows)
    break
  }
  case 'rows':
    reportRows((await (await client.query(queryOf(work, point))).rows()).length)
    break
  case 'iterate':
  case 'iterate-strings':
  case 'iterate-ints': {
    let rows = 0
    for await (const _row of await client.query(queryOf(work, point))) rows++
    reportRows(rows)
    break
  }
  case 'columns-strings':
  case 'columns-ints': {
    const columns = await (await client.query(queryOf(work, point))).columns()
    reportRows(Object.values(columns)[0]?.length ?? 0)
    break
  }
  case 'arrow':
  case 'arrow-ints':
  case 'arrow-strings':
    reportRows(
      (compression === 'ArrowStream'
        ? await client.queryArrow(queryOf(work, point))
        : await (await client.query(queryOf(work, point))).arrow()
      ).numRows,
    )
    break
  case 'insert': {
    // An iterable of column chunks (an array of them would read as an array of row objects).
    const result = await client.insert(
      insertTable,
      (function* () {
        for (const day of days) yield day.columns
      })(),
    )
    reportRows(result.rowsWritten)
    break
  }
  default:
    process.stderr.write(`clickwire has no ${work} scenario\n`)
    process.exitCode = 2
}
await client.close()
