// Throughput of the HTTP path next to curl, on the same server in the same run:
//   SELECT number FROM system.numbers_mt LIMIT 500000000 FORMAT Native  (4 GB of UInt64)
// Run with `pnpm bench` (CLICKHOUSE_URL=http://... to use a running server;
// BENCH_ROWS=... to change the size, BENCH_RUNS=... the repetitions).
import { spawn } from 'node:child_process'
import { Pool } from 'undici'
import { createHttpTransport } from '../src/index-node.js'

const rows = Number(process.env.BENCH_ROWS ?? 500_000_000)
const runs = Number(process.env.BENCH_RUNS ?? 3)
const sql = `SELECT number FROM system.numbers_mt LIMIT ${rows}`

/**
 * A stand-in server (its own process) that streams the bytes of the same query, UInt64
 * blocks of 65536 rows, in large HTTP chunks as current ClickHouse versions do (18.16
 * sends 4 KiB chunks), spending almost no CPU: it shows what the client side costs alone.
 */
const syntheticSource = `
const { createServer } = require('node:http')
const rows = Number(process.argv[1])
function block(n) {
  const lead = [1]
  for (let v = n; ; v = Math.floor(v / 128)) { if (v < 128) { lead.push(v); break } lead.push((v % 128) | 128) }
  const head = Buffer.from([...lead, 6, ...Buffer.from('number'), 6, ...Buffer.from('UInt64')])
  const out = Buffer.alloc(head.length + n * 8)
  head.copy(out)
  for (let i = 0; i < n; i++) out.writeBigUInt64LE(BigInt(i), head.length + i * 8)
  return out
}
const full = block(65536)
const tail = rows % 65536 ? block(rows % 65536) : undefined
const server = createServer(async (request, response) => {
  let text = ''
  for await (const chunk of request) text += chunk
  if (text.includes('version()')) return void response.end('25.11.1.1\\tUTC\\n')
  response.writeHead(200, { 'content-type': 'application/octet-stream' })
  let left = Math.floor(rows / 65536)
  const write = () => {
    while (left > 0) {
      left--
      if (!response.write(full)) return void response.once('drain', write)
    }
    if (tail) response.write(tail)
    response.end()
  }
  write()
})
server.listen(0, '127.0.0.1', () => console.log(server.address().port))
`

async function syntheticServer(): Promise<{ url: string; close(): void }> {
  const child = spawn(process.execPath, ['-e', syntheticSource, String(rows)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<string>((resolve) =>
    child.stdout.once('data', (data) => resolve(String(data).trim())),
  )
  return { url: `http://127.0.0.1:${port}`, close: () => child.kill() }
}

function curl(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn('curl', [
      '-s',
      '-o',
      '/dev/null',
      '--fail',
      '--data-binary',
      `${sql} FORMAT Native`,
      url,
    ])
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`curl exited ${code}`)),
    )
  })
}

async function blocks(http: ReturnType<typeof createHttpTransport>): Promise<number> {
  const started = performance.now()
  let count = 0
  let last = 0n
  for await (const block of await http.query(sql)) {
    const values = block.columns[0]!.column.values() as BigUint64Array
    count += values.length
    if (values.length > 0) last = values[values.length - 1]!
  }
  const ms = performance.now() - started
  if (count !== rows) throw new Error(`read ${count} rows, expected ${rows}`)
  if (rows > 0 && last < 0n) throw new Error('impossible')
  return ms
}

async function rawBytes(http: ReturnType<typeof createHttpTransport>): Promise<number> {
  const started = performance.now()
  let bytes = 0
  for await (const chunk of await http.queryRaw(sql, { format: 'Native' })) bytes += chunk.length
  if (bytes < rows * 8) throw new Error(`read ${bytes} bytes, expected more than ${rows * 8}`)
  return performance.now() - started
}

const cpu: Record<string, number[]> = {}
async function measured(name: string, run: () => Promise<number>): Promise<number> {
  const before = process.cpuUsage()
  const ms = await run()
  const used = process.cpuUsage(before)
  ;(cpu[name] ??= []).push((used.user + used.system) / 1000)
  return ms
}

/** The floor of any undici-based client: the same body through a dispatch handler that does nothing. */
async function undiciFloor(pool: Pool): Promise<number> {
  const started = performance.now()
  await new Promise<void>((resolve, reject) => {
    pool.dispatch({ path: '/?default_format=Native', method: 'POST', body: sql }, {
      onRequestStart() {},
      onResponseStart() {},
      onResponseData() {},
      onResponseEnd: () => resolve(),
      onResponseError: (_controller: unknown, error: Error) => reject(error),
    } as never)
  })
  return performance.now() - started
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`

const external = process.env.CLICKHOUSE_URL
// The harness is loaded from its build (`pnpm --filter @clickwire/testing build`).
const server = external
  ? undefined
  : await (await import('@clickwire/testing')).startClickHouse({ local: true })
const url = external ?? server!.httpUrl
try {
  const transport = createHttpTransport({ url })
  const viaFetch = createHttpTransport({ url, fetch: globalThis.fetch })
  await transport.ping()
  const results: Record<string, number[]> = {
    'curl -s -o /dev/null': [],
    'clickwire blocks (node:http)': [],
    'clickwire raw bytes (node:http)': [],
    'clickwire blocks (Node fetch)': [],
    'undici dispatch, no-op handler': [],
  }
  const pool = new Pool(new URL(url).origin)
  // Warm-up: the server's and the JIT's first run.
  await curl(url)
  await blocks(transport)
  const only = process.env.BENCH_ONLY
  for (let run = 0; run < runs; run++) {
    if (!only) results['curl -s -o /dev/null']!.push(await curl(url))
    results['clickwire blocks (node:http)']!.push(
      await measured('clickwire blocks (node:http)', () => blocks(transport)),
    )
    if (!only) {
      results['clickwire raw bytes (node:http)']!.push(
        await measured('clickwire raw bytes (node:http)', () => rawBytes(transport)),
      )
    }
    if (!only) {
      results['undici dispatch, no-op handler']!.push(
        await measured('undici dispatch, no-op handler', () => undiciFloor(pool)),
      )
    }
    if (!only) {
      results['clickwire blocks (Node fetch)']!.push(
        await measured('clickwire blocks (Node fetch)', () => blocks(viaFetch)),
      )
    }
  }
  if (only) results['curl -s -o /dev/null']!.push(await curl(url))
  const base = median(results['curl -s -o /dev/null']!)
  console.log(
    `${sql} FORMAT Native, ${runs} runs, server ${(await transport.serverInfo()).version}, node ${process.version}`,
  )
  for (const [name, times] of Object.entries(results)) {
    if (times.length === 0) continue
    const best = Math.min(...times)
    const mid = median(times)
    const gbps = (rows * 8) / 1e9 / (mid / 1000)
    console.log(
      `${name.padEnd(32)} median ${seconds(mid)}  best ${seconds(best)}  ${gbps.toFixed(2)} GB/s  ${(mid / base).toFixed(2)}x curl` +
        (cpu[name] ? `  client CPU ${seconds(median(cpu[name]!))}` : ''),
    )
  }
  await transport.close()
  await viaFetch.close()
  await pool.close()

  // The client alone: the same bytes from a server that costs nothing, in 64 KiB+ chunks.
  const synthetic = await syntheticServer()
  try {
    const fast = createHttpTransport({
      url: synthetic.url,
      highWaterMark: Number(process.env.BENCH_HWM ?? 8 << 20),
    })
    const times: number[] = []
    const curls: number[] = []
    const cpus: number[] = []
    await blocks(fast)
    for (let run = 0; run < runs; run++) {
      curls.push(await curl(synthetic.url))
      const before = process.cpuUsage()
      times.push(await blocks(fast))
      const used = process.cpuUsage(before)
      cpus.push((used.user + used.system) / 1000)
    }
    const mid = median(times)
    console.log(
      `synthetic server (large chunks): curl median ${seconds(median(curls))}, clickwire blocks median ${seconds(mid)} ` +
        `(${((rows * 8) / 1e9 / (mid / 1000)).toFixed(2)} GB/s, ${(mid / median(curls)).toFixed(2)}x curl, client CPU ${seconds(median(cpus))})`,
    )
    await fast.close()
  } finally {
    synthetic.close()
  }
} finally {
  await server?.stop()
}
