// The page of the browser test: queries ClickHouse straight from Chromium through the
// browser build of @clickwire/http, and shows the rows in a table.
import { createHttpTransport } from '../../src/index.js'

const params = new URLSearchParams(location.search)
const status = document.getElementById('status')!

async function run(): Promise<void> {
  const http = createHttpTransport({
    url: params.get('clickhouse')!,
    username: params.get('user') ?? 'default',
    password: params.get('password') ?? '',
    simpleRequests: true,
    settings: { add_http_cors_header: 1 },
  })
  const info = await http.serverInfo()
  document.getElementById('version')!.textContent = info.version
  const result = await http.query(
    "SELECT number AS n, toString(number * 2) AS doubled, 'é€' AS text FROM system.numbers LIMIT 5",
  )
  const body = document.querySelector('#rows tbody')!
  for await (const row of result.rows()) {
    const tr = document.createElement('tr')
    for (const value of [row.n, row.doubled, row.text]) {
      const td = document.createElement('td')
      td.textContent = String(value)
      tr.appendChild(td)
    }
    body.appendChild(tr)
  }
  // AggregateFunction's codec loads on demand (a chunk of its own): the decoder awaits it.
  // The sum's state is its UInt64 bytes; none is zero, which reinterpretAsString would drop.
  const sum = '0x0102030405060708'
  const states = await http.query(
    `SELECT sumState(toUInt64(${sum})) AS s, hex(reinterpretAsString(toUInt64(${sum}))) AS h`,
  )
  for await (const row of states.rows()) {
    const bytes = Array.from(row.s as Uint8Array, (byte) => byte.toString(16).padStart(2, '0'))
    document.getElementById('state')!.textContent = `${bytes.join('').toUpperCase()} ${String(row.h)}`
  }
  const failure = await http
    .query('SELECT * FROM no_such_table_in_browser')
    .then(() => 'no error')
    .catch((error: { name?: string; code?: number }) => `${error.name} ${error.code}`)
  document.getElementById('error')!.textContent = failure
  status.textContent = `done via ${http.backendName}`
}

run().catch((error: unknown) => {
  status.textContent = `failed: ${String((error as Error)?.stack ?? error)}`
})
