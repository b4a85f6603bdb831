// Inserts from an async generator: rows are sent in blocks of `insertBlockRows` as the
// generator yields them, so memory stays bounded however long the input is.
import { createClient } from '@clickwire/client'

await using ch = createClient(process.env.CLICKHOUSE_URL ?? 'clickhouse://127.0.0.1:9000')

const table = `example_events_${Date.now()}`
await ch.command(`CREATE TABLE ${table} (id UInt32, kind String, at DateTime) ENGINE = Memory`)
try {
  async function* events() {
    for (let id = 0; id < 100_000; id += 100) {
      // A small batch at a time, as a reader of a file or a queue would produce them.
      yield Array.from({ length: 100 }, (_, i) => ({
        id: id + i,
        kind: (id + i) % 2 === 0 ? 'click' : 'view',
        at: new Date(Date.UTC(2024, 0, 1) + (id + i) * 1000),
      }))
    }
  }
  const result = await ch.insert(table, events())
  console.log(`inserted ${result.rowsWritten} rows`)

  // Columns and Arrow tables are inserted the same way.
  await ch.insert(table, { id: new Uint32Array([1_000_000]), kind: ['columns'], at: ['2024-06-01 00:00:00'] })
  const counts = await ch.query<{ kind: string; n: bigint }>(
    `SELECT kind, count() AS n FROM ${table} GROUP BY kind ORDER BY kind`,
  )
  for (const { kind, n } of await counts.rows()) console.log(`${kind}: ${n}`)
} finally {
  await ch.command(`DROP TABLE ${table}`)
}
