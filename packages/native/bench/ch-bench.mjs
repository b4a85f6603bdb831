// SELECT number FROM system.numbers_mt LIMIT N read to the end through the native transport.
// Usage: node bench/ch-bench.mjs <port> [rows] [compression]
import { createNativeTransport } from '../dist/index.js'

const [port = '9000', rows = '500000000', compression = 'lz4'] = process.argv.slice(2)
const native = createNativeTransport({
  hosts: [{ host: '127.0.0.1', port: Number(port) }],
  compression,
  ...(process.env.READ_AHEAD ? { readAheadBytes: Number(process.env.READ_AHEAD) } : {}),
  ...(process.env.READ_BUFFER ? { readBufferBytes: Number(process.env.READ_BUFFER) } : {}),
})
const started = performance.now()
const stream = await native.query(`SELECT number FROM system.numbers_mt LIMIT ${rows}`)
let count = 0
let blocks = 0
for await (const block of stream) {
  count += block.rows
  blocks++
}
const seconds = (performance.now() - started) / 1000
await native.close()
const rss = process.resourceUsage().maxRSS / 1024
console.log(
  JSON.stringify({
    rows: count,
    blocks,
    seconds: +seconds.toFixed(3),
    maxRssMiB: +rss.toFixed(1),
    compression,
  }),
)
