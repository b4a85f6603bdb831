// Quick start: connect, query with a typed parameter, read rows. The URL picks the
// transport: clickhouse:// (native TCP) or http:// (HTTP); nothing else changes.
//   CLICKHOUSE_URL=clickhouse://127.0.0.1:9000 npx tsx examples/quick-start.ts
import { createClient, sql } from '@clickwire/client'

await using ch = createClient(process.env.CLICKHOUSE_URL ?? 'clickhouse://127.0.0.1:9000')

const limit = 3
const rs = await ch.query<{ n: bigint; square: bigint }>(
  sql`SELECT number AS n, number * number AS square FROM system.numbers LIMIT ${limit}`,
)
console.log(rs.meta.map((column) => `${column.name}: ${column.type}`).join(', '))
for (const row of await rs.rows()) console.log(`${row.n} squared is ${row.square}`)
