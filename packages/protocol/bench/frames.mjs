// Frame decoding costs on 1 MiB frames of realistic data (sequential UInt64, ontime-like
// strings): LZ4 (lz4-napi) and ZSTD (@hpcc-js/wasm-zstd) decompression, the CityHash128
// checksum over the compressed frame, the whole frame read, and a memcpy of the same bytes
// for scale. Rates are uncompressed bytes per second unless marked. Run from
// packages/protocol after `npx tsc -p tsconfig.build.json` (see README.md).
import { cityHash128Js } from '../dist/compression/cityhash-js.js'
import { loadCityHashWasm } from '../dist/compression/cityhash-wasm.js'
import { nodeCompression } from '../dist/compression/compression-node.js'
import { decompressFrames } from '../dist/compression/frame-reader.js'
import { compressFrames } from '../dist/compression/frame-writer.js'
import { gbps, ontimeStrings, sequentialUInt64, throughput } from './bench-support.mjs'

const codecs = await nodeCompression({ zstdLevel: 1 })
const wasm = loadCityHashWasm()
const out = new Uint8Array(16)

console.log('1 MiB frames, best of 7 rounds; GB/s of uncompressed data unless noted')
for (const [name, data] of [
  ['UInt64 sequence', sequentialUInt64()],
  ['ontime strings', ontimeStrings()],
]) {
  const size = data.length
  const copy = new Uint8Array(size)
  const memcpy = throughput(() => copy.set(data), size)
  console.log(`\n${name} (${size} bytes): memcpy ${gbps(memcpy)}`)
  for (const method of ['lz4', 'zstd']) {
    const frame = compressFrames(data, method, codecs)
    const block = frame.subarray(16)
    const codec = codecs[method]
    const decompress = throughput(() => codec.decompress(block, size), size)
    const checkWasm = throughput(() => wasm.hashInto(frame, 16, frame.length, out, 0), size)
    const checkJs = throughput(() => cityHash128Js(frame, 16, frame.length, out, 0), size)
    const read = throughput(() => decompressFrames(frame, codecs), size)
    const compress = throughput(() => compressFrames(data, method, codecs), size, { rounds: 3 })
    const perFrame = (rate) => `${((size / rate) * 1e6).toFixed(0)} µs`
    console.log(
      `  ${method.toUpperCase().padEnd(4)} ratio ${(size / frame.length).toFixed(1)}x (${frame.length} bytes): ` +
        `decompress ${gbps(decompress)} (${perFrame(decompress)}/frame), ` +
        `checksum wasm ${perFrame(checkWasm)}/frame = ${((100 * decompress) / checkWasm).toFixed(0)}% of decompress` +
        ` [js ${perFrame(checkJs)} = ${((100 * decompress) / checkJs).toFixed(0)}%], ` +
        `whole frame read ${gbps(read)} = ${((100 * read) / memcpy).toFixed(0)}% of memcpy, compress ${gbps(compress)}`,
    )
  }
}
