// Encoding 1M Float32 values: from a plain number[] (the checked loop), from a
// Float64Array (the same loop), and from a Float32Array (raw bytes), plus BFloat16 from a
// number[]. Run from packages/protocol after `npx tsc -p tsconfig.build.json`; pass another
// build's folder (e.g. one of the previous commit) to compare: `node bench/float-encode.mjs
// /tmp/old-dist`. Figures are rows per second, best of 7 rounds.
import { throughput } from './bench-support.mjs'

const dist = process.argv[2] ?? new URL('../dist/', import.meta.url).pathname
const { float32Codec } = await import(`${dist}/columns/float32-column.gen.js`)
const { bfloat16Codec } = await import(`${dist}/columns/bfloat16-column.js`)
const { ByteWriter } = await import(`${dist}/io/byte-writer.js`)
const { parseType } = await import(`${dist}/types/type-parser.js`)

const rows = 1 << 20
const numbers = Array.from({ length: rows }, (_, i) => (i % 1000) * 1.25 - 300.5)
const wide = Float64Array.from(numbers)
const narrow = Float32Array.from(numbers)
const context = { revision: 54488, timezone: 'UTC', mapping: {} }
const float32 = float32Codec(parseType('Float32'), context)
const bfloat16 = bfloat16Codec(parseType('BFloat16'), context)
const writer = new ByteWriter(rows * 4 + 16)

const rate = (codec, input) =>
  throughput(() => {
    writer.offset = 0
    codec.encode(writer, input, rows)
  }, rows)
const m = (r) => `${(r / 1e6).toFixed(0)} M rows/s`
console.log(
  `Float32 from number[] ${m(rate(float32, numbers))}, from Float64Array ${m(rate(float32, wide))}, ` +
    `from Float32Array ${m(rate(float32, narrow))}; BFloat16 from number[] ${m(rate(bfloat16, numbers))}`,
)
