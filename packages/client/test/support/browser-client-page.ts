// The page of browser-client.test.ts: a page of another origin than the server that uses
// @clickwire/client as an application would, `createClient(url)` with no other option (or
// with a username and password), and writes what each call gave into #result as JSON.
import { AbortError, ClickHouseError, createClient, UsageError } from '@clickwire/client'

const params = new URLSearchParams(location.search)
const url = params.get('clickhouse')!
const user = params.get('user')
const password = params.get('password') ?? ''
const table = params.get('table')!
const abortQueryId = params.get('abortQueryId')!
const status = document.getElementById('status')!

/** What an error is, in terms the test compares with what Node gives. */
function describeError(error: unknown): Record<string, unknown> {
  const failure = error as { name?: string; code?: number; message?: string; reason?: unknown }
  return {
    name: failure?.name,
    code: failure?.code,
    clickHouseError: error instanceof ClickHouseError,
    abortError: error instanceof AbortError,
    usageError: error instanceof UsageError,
    message: String(failure?.message),
  }
}

async function run(): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = {}
  // What an application writes: the URL, and credentials when the user has a password.
  const ch = user === null ? createClient(url) : createClient({ url, username: user, password })

  await ch.ping()
  result.ping = 'ok'

  const rs = await ch.query(
    "SELECT number AS n, toString(number * 2) AS doubled, 'é€' AS text FROM system.numbers LIMIT 3",
  )
  result.rows = (await rs.rows()).map((row) => ({ ...row, n: String(row.n) }))

  await ch.command(`CREATE TABLE ${table} (n UInt64, s String, d Nullable(Float64)) ENGINE = Memory`)
  const inserted = await ch.insert(table, [
    { n: 1n, s: 'one', d: 0.5 },
    { n: 2n, s: 'é€ two', d: null },
    { n: 3n, s: '', d: -1e300 },
  ])
  result.rowsWritten = inserted.rowsWritten
  const back = await ch.query(`SELECT n, s, d FROM ${table} ORDER BY n`)
  result.readBack = (await back.rows()).map((row) => ({ ...row, n: String(row.n) }))

  result.error = await ch
    .query('SELECT * FROM no_such_table_in_browser')
    .then(() => 'no error')
    .catch(describeError)

  // Runs until stopped: it ends only through the abort.
  const controller = new AbortController()
  const started = performance.now()
  setTimeout(() => controller.abort(), 300)
  result.abort = await ch
    .query('SELECT sum(number) FROM system.numbers', { signal: controller.signal, queryId: abortQueryId })
    .then((running) => running.rows())
    .then(() => 'no error')
    .catch(describeError)
  result.abortMs = Math.round(performance.now() - started)
  result.afterAbort = (await (await ch.query('SELECT 1 AS after')).rows())[0]

  // A header a simple request cannot carry is refused at once, not left to hang.
  try {
    createClient({ url, auth: 'basic' })
    result.basicAuth = 'accepted'
  } catch (error) {
    result.basicAuth = describeError(error)
  }

  result.serverVersion = (await ch.serverInfo()).version
  await ch.close()
  return result
}

/** The control: normal requests, which need a preflight the server does not answer. */
async function runNormal(): Promise<Record<string, unknown>> {
  const ch = createClient({ url, simpleRequests: false })
  const started = performance.now()
  const ping = await ch
    .ping({ timeoutMs: 3000 })
    .then(() => 'ok')
    .catch(describeError)
  return { ping, pingMs: Math.round(performance.now() - started) }
}

/**
 * A wrong password and a server that is down: both used to read `Failed to fetch`. The
 * password case is a query (ping needs no credentials).
 */
async function runRefused(): Promise<Record<string, unknown>> {
  const wrong = createClient({ url, username: params.get('wrongUser')!, password: 'not-the-password' })
  const down = createClient({ url: params.get('downUrl')!, connectTimeoutMs: 3000 })
  const query = (ch: typeof wrong) =>
    ch
      .query('SELECT 1')
      .then(() => 'no error')
      .catch(describeError)
  const result = { wrongPassword: await query(wrong), down: await query(down) }
  await Promise.all([wrong.close(), down.close()])
  return result
}

const mode = params.get('mode')
;(mode === 'normal' ? runNormal() : mode === 'refused' ? runRefused() : run()).then(
  (result) => {
    document.getElementById('result')!.textContent = JSON.stringify(result)
    status.textContent = 'done'
  },
  (error: unknown) => {
    status.textContent = `failed: ${String((error as Error)?.stack ?? error)}`
  },
)
