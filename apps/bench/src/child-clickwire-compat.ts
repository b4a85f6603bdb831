/**
 * One benchmark process with `@clickwire/client/compat`, the drop-in for @clickhouse/client:
 * `node child-clickwire-compat.js <native|http> rows <cutoff date>`. The parsed-rows work
 * as @clickhouse/client users write it, JSONEachRow `json()`, so that it runs side by side
 * with @clickhouse/client's own: over HTTP the server writes the JSON, over native the
 * drop-in writes it from Native blocks.
 */
import { createClient } from '@clickwire/client/compat'
import { childArguments, reportRows, requiredEnv, startClock } from './child-clock.js'
import { ontimeQuery, type Work } from './scenario-queries.js'

const [transport, work, point] = childArguments(
  'child-clickwire-compat.js <native|http> rows <cutoff>',
  3,
) as ['native' | 'http', Work, string]

startClock()

const client = createClient({
  url: requiredEnv(transport === 'http' ? 'BENCH_HTTP_BASE' : 'BENCH_NATIVE_URL'),
  username: process.env.BENCH_USER ?? 'default',
  password: process.env.BENCH_PASSWORD ?? '',
  request_timeout: 3_600_000,
})

if (work !== 'rows') {
  process.stderr.write(`@clickwire/client/compat has no ${work} scenario here\n`)
  process.exitCode = 2
} else {
  const result = await client.query({ query: ontimeQuery(work, point), format: 'JSONEachRow' })
  reportRows(((await result.json()) as unknown[]).length)
}
await client.close()
