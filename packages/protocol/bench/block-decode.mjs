// Native block decoding through NativeStreamDecoder (the HTTP path) and NativeBlockReader
// from one buffer (the native path): 16 blocks of 65,536 rows of UInt64, String and
// Array(UInt32), pushed in 64 KiB chunks. Rows per second, best of 7 rounds. Run from
// packages/protocol after `npx tsc -p tsconfig.build.json` (see README.md).
import { NativeBlockReader } from '../dist/blocks/native-block-reader.js'
import { NativeBlockWriter } from '../dist/blocks/native-block-writer.js'
import { NativeStreamDecoder } from '../dist/blocks/native-stream-decoder.js'
import { ByteReader } from '../dist/io/byte-reader.js'
import { ByteWriter } from '../dist/io/byte-writer.js'
import { defaultValueMapping } from '../dist/types/value-mapping.js'
import { throughput } from './bench-support.mjs'

const context = { revision: 0, timezone: 'UTC', mapping: defaultValueMapping }
const rows = 65_536
const blocks = 16
const writer = new ByteWriter()
const blockWriter = new NativeBlockWriter(context, false)
for (let b = 0; b < blocks; b++) {
  const n = new BigUint64Array(rows).map((_, i) => BigInt(b * rows + i))
  const s = Array.from({ length: rows }, (_, i) => `carrier-${(i * 7919) % 1000}`)
  const a = Array.from({ length: rows }, (_, i) => [i, i + 1, i + 2].slice(0, i % 4))
  blockWriter.write(
    writer,
    [
      { name: 'n', type: 'UInt64', values: n },
      { name: 's', type: 'String', values: s },
      { name: 'a', type: 'Array(UInt32)', values: a },
    ],
    rows,
  )
}
const body = writer.copy()
const chunk = 64 << 10
const total = rows * blocks

const streamed = throughput(() => {
  const decoder = new NativeStreamDecoder(context)
  let seen = 0
  for (let at = 0; at < body.length; at += chunk) {
    decoder.push(body.slice(at, at + chunk))
    for (let block = decoder.next(); block; block = decoder.next()) seen += block.rows
  }
  for (let block = decoder.next(true); block; block = decoder.next(true)) seen += block.rows
  decoder.finish()
  if (seen !== total) throw new Error(`decoded ${seen} rows, expected ${total}`)
}, total)

const whole = throughput(() => {
  const reader = new ByteReader().reset(body, 0, body.length)
  const blockReader = new NativeBlockReader(context, false)
  let seen = 0
  while (reader.offset < body.length) seen += blockReader.read(reader).rows
  if (seen !== total) throw new Error(`decoded ${seen} rows, expected ${total}`)
}, total)

console.log(`${blocks} blocks of ${rows} rows (${body.length} bytes)`)
console.log(`  NativeStreamDecoder, 64 KiB chunks: ${(streamed / 1e6).toFixed(2)} M rows/s`)
console.log(`  NativeBlockReader, one buffer:      ${(whole / 1e6).toFixed(2)} M rows/s`)
