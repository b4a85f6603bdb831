// Failover: several hosts in one URL (or a list of URLs). A host that cannot be reached is
// set aside and the next one answers. Here the first host has nothing listening.
import { createClient } from '@clickwire/client'

const url = new URL(process.env.CLICKHOUSE_URL ?? 'clickhouse://127.0.0.1:9000')
const live = url.host
const dead = '127.0.0.1:1'

await using ch = createClient(`${url.protocol}//${dead},${live}`)
const rs = await ch.query<{ answer: number }>('SELECT 42 AS answer')
console.log(`answered: ${(await rs.rows())[0]?.answer}`)

// The same with a list, and the hosts tried in order.
await using listed = createClient({
  url: [`${url.protocol}//${dead}`, `${url.protocol}//${live}`],
  hostStrategy: 'in-order',
})
await listed.ping()
console.log('ping ok')
