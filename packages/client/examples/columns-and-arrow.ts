// Columns and Arrow: whole columns as typed arrays, or an apache-arrow Table that shares
// the received buffers of numeric columns.
import { createClient } from '@clickwire/client'

await using ch = createClient(process.env.CLICKHOUSE_URL ?? 'clickhouse://127.0.0.1:9000')

const query = `SELECT toUInt32(number) AS id, number / 4 AS ratio, toString(number % 3) AS label
  FROM system.numbers LIMIT 10`

const columns = await (await ch.query<{ id: number; ratio: number; label: string }>(query)).columns()
const ids = columns.id // a Uint32Array
let sum = 0
for (const id of ids) sum += id
console.log(`${ids.constructor.name} of ${ids.length}, sum ${sum}`)
console.log(`ratio: ${columns.ratio.constructor.name}, labels: ${columns.label.join(' ')}`)

const table = await (await ch.query(query)).arrow()
console.log(table.schema.fields.map((field) => `${field.name}: ${field.type}`).join(', '))
console.log(`${table.numRows} rows; ratio[9] = ${table.getChild('ratio')?.get(9)}`)
