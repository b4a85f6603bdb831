// ch-bench.mjs next to the C++ clickhouse-client reading the same result into --format Null,
// with LZ4 and without compression, interleaved round by round so a busy machine slows both
// alike. Prints each run and, per compression, the medians and clickwire / clickhouse-client.
//
// Usage: node bench/compare-clickhouse-client.mjs [--port 9000] [--rows 500000000] [--rounds 3]
// Without --port a throwaway server is started (needs `pnpm build`: it uses @clickwire/testing's
// dist, and ch-bench.mjs uses this package's dist).
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    rows: { type: 'string', default: '500000000' },
    rounds: { type: 'string', default: '3' },
  },
})
const rows = values.rows
const rounds = Number(values.rounds)
const benchScript = fileURLToPath(new URL('./ch-bench.mjs', import.meta.url))
const query = `SELECT number FROM system.numbers_mt LIMIT ${rows}`

function run(file, args) {
  return new Promise((resolve, reject) => {
    execFile(file, args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')} failed: ${stderr || error.message}`))
      else resolve({ stdout, stderr })
    })
  })
}

async function clickwire(port, compression) {
  const { stdout } = await run(process.execPath, [benchScript, String(port), rows, compression])
  const result = JSON.parse(stdout.trim().split('\n').at(-1))
  if (String(result.rows) !== rows) throw new Error(`ch-bench read ${result.rows} rows, not ${rows}`)
  return { seconds: result.seconds, maxRssMiB: result.maxRssMiB }
}

/** Wall time and max RSS of clickhouse-client through /usr/bin/time (%e seconds, %M KiB). */
async function cppClient(port, compression) {
  const args = [
    '-f',
    'cw-time %e %M',
    'clickhouse-client',
    '--port',
    String(port),
    '--query',
    query,
    '--format',
    'Null',
  ]
  if (compression === 'none') args.push('--compression', '0')
  const { stderr } = await run('/usr/bin/time', args)
  const line = stderr.split('\n').find((each) => each.startsWith('cw-time '))
  if (!line) throw new Error(`no timing from /usr/bin/time: ${stderr}`)
  const [, seconds, kib] = line.split(' ')
  return { seconds: Number(seconds), maxRssMiB: +(Number(kib) / 1024).toFixed(1) }
}

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

let server
let port = values.port
if (!port) {
  const { startClickHouse } = await import('@clickwire/testing')
  server = await startClickHouse({ local: true })
  port = server.ports.tcp
}
try {
  const results = { lz4: { clickwire: [], cpp: [] }, none: { clickwire: [], cpp: [] } }
  for (let round = 1; round <= rounds; round++) {
    for (const compression of ['lz4', 'none']) {
      // Alternate which goes first, so neither always runs on a warmer machine.
      const order = round % 2 ? ['clickwire', 'cpp'] : ['cpp', 'clickwire']
      for (const who of order) {
        const result =
          who === 'clickwire' ? await clickwire(port, compression) : await cppClient(port, compression)
        results[compression][who].push(result)
        console.log(JSON.stringify({ round, compression, client: who, ...result }))
      }
    }
  }
  for (const compression of ['lz4', 'none']) {
    const ours = median(results[compression].clickwire.map((each) => each.seconds))
    const theirs = median(results[compression].cpp.map((each) => each.seconds))
    console.log(
      JSON.stringify({
        summary: compression,
        rows: Number(rows),
        clickwireSeconds: ours,
        clickhouseClientSeconds: theirs,
        ratio: +(ours / theirs).toFixed(2),
        clickwireRowsPerSecond: Math.round(Number(rows) / ours),
        clickwireMaxRssMiB: Math.max(...results[compression].clickwire.map((each) => each.maxRssMiB)),
        clickhouseClientMaxRssMiB: Math.max(...results[compression].cpp.map((each) => each.maxRssMiB)),
      }),
    )
  }
} finally {
  await server?.stop()
}
