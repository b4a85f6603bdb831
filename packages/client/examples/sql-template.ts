// The sql tag: values become typed server-side parameters (never SQL text), identifiers go
// through sql.id, trusted SQL through sql.raw, and fragments compose.
import { createClient, sql } from '@clickwire/client'

await using ch = createClient(process.env.CLICKHOUSE_URL ?? 'clickhouse://127.0.0.1:9000')

const hostile = "'; DROP TABLE users; --"
const ids = [3, 5, 7]
const filters = [sql`has(${ids}, number)`, sql`toString(number) != ${hostile}`]
const rs = await ch.query<{ number: bigint; label: string }>(
  sql`SELECT number, ${'n = '} || toString(number) AS ${sql.id('label')}
      FROM ${sql.raw('numbers(10)')}
      WHERE ${sql.join(filters, sql` AND `)}
      ORDER BY number ${sql.raw('DESC')}`,
)
for (const row of await rs.rows()) console.log(row.label)

// Placeholders with explicit types work too: {name:Type} and `params`.
const typed = await ch.query<{ d: string }>('SELECT {day:Date} + 1 AS d', { params: { day: '2024-02-28' } })
console.log((await typed.rows())[0]?.d)
