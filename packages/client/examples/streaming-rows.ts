// Streaming: iterate over a result of any size, one block in memory at a time. Breaking out
// of the loop stops the query on the server.
import { createClient } from '@clickwire/client'

await using ch = createClient(process.env.CLICKHOUSE_URL ?? 'clickhouse://127.0.0.1:9000')

const rs = await ch.query<{ n: bigint }>('SELECT number AS n FROM system.numbers', {
  settings: { max_block_size: 10_000 },
})
let total = 0n
let rows = 0
for await (const row of rs) {
  total += row.n
  if (++rows === 1_000_000) break // system.numbers never ends: stop after a million rows
}
console.log(`read ${rows} rows, sum ${total}`)

// Blocks are the columnar alternative: each block's columns are typed arrays.
let blocks = 0
const blockRs = await ch.query<{ n: number }>(
  'SELECT toUInt32(number) AS n FROM system.numbers LIMIT 25000',
  {
    settings: { max_block_size: 10_000 },
  },
)
for await (const block of blockRs.blocks()) {
  blocks++
  console.log(`block ${blocks}: ${block.rowCount} rows, first n ${block.columns().n[0]}`)
}
