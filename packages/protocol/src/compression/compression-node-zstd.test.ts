// ZSTD through node:zlib (Node 22.15+, Bun, Deno), checked against frames ClickHouse wrote
// and against the WebAssembly library: the two must read each other's frames. Node 20's
// zlib has no ZSTD, and there the WebAssembly codec serves.
import * as zlib from 'node:zlib'
import { Zstd } from '@hpcc-js/wasm-zstd'
import { describe, expect, it } from 'vitest'
import { fromHex } from '../../test/support/codec-checks.js'
import { clickhouseFrames } from '../../test/support/compression-frames.js'
import { loadZlibZstd, nodeCompression } from './compression-node.js'
import { zstdCodec } from './compression-portable.js'
import { decompressFrames } from './frame-reader.js'
import { compressFrames } from './frame-writer.js'

const hasZlibZstd = typeof (zlib as { zstdCompressSync?: unknown }).zstdCompressSync === 'function'
const text = new TextEncoder().encode('clickwire, ClickHouse '.repeat(4000))

describe.runIf(hasZlibZstd)('ZSTD through node:zlib', () => {
  it('reads the frame ClickHouse wrote', async () => {
    const zstd = await loadZlibZstd()
    const codecs = { zstd: zstdCodec(zstd!) }
    expect(new TextDecoder().decode(decompressFrames(fromHex(clickhouseFrames.zstd), codecs))).toBe('abcde')
  })

  it('reads the WebAssembly codec frames and writes frames it reads, at each level', async () => {
    const native = await loadZlibZstd()
    const wasm = await Zstd.load()
    for (const level of [-5, 1, 3, 19]) {
      const viaZlib = { zstd: zstdCodec(native!, { zstdLevel: level }) }
      const viaWasm = { zstd: zstdCodec(wasm, { zstdLevel: level }) }
      expect(decompressFrames(compressFrames(text, 'zstd', viaWasm), viaZlib)).toEqual(text)
      expect(decompressFrames(compressFrames(text, 'zstd', viaZlib), viaWasm)).toEqual(text)
    }
    expect(() => zstdCodec(native!, { zstdLevel: 23 })).toThrow(
      /zstdLevel must be an integer from -131072 to 22, got 23/,
    )
  })

  it('gives plain Uint8Arrays, and never more bytes than the frame header gives', async () => {
    const zstd = (await loadZlibZstd())!
    const payload = zstd.compress(text, 1)
    expect(Object.getPrototypeOf(payload)).toBe(Uint8Array.prototype)
    const back = zstd.decompress(payload, text.length)
    expect(Object.getPrototypeOf(back)).toBe(Uint8Array.prototype)
    expect(back).toEqual(text)
    // A header that says less than the payload holds: an error, not a larger allocation.
    expect(() => zstd.decompress(payload, 1000)).toThrow()
  })

  it('is the codec nodeCompression gives', async () => {
    const codecs = await nodeCompression()
    expect(codecs.zstd!.compress(text)).toEqual((await loadZlibZstd())!.compress(text, 1))
    const frames = compressFrames(text, 'zstd', codecs)
    // zlib's frames and the WebAssembly library's can differ in bytes; the content must not.
    expect(decompressFrames(frames, { zstd: zstdCodec(await Zstd.load()) })).toEqual(text)
  })
})

describe.runIf(!hasZlibZstd)('ZSTD where zlib has none (Node 20)', () => {
  it('falls back to the WebAssembly codec', async () => {
    expect(await loadZlibZstd()).toBeUndefined()
    const codecs = await nodeCompression()
    expect(decompressFrames(compressFrames(text, 'zstd', codecs), codecs)).toEqual(text)
  })
})
