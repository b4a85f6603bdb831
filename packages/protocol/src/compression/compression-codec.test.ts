import { concatBytes } from '@clickwire/testing'
import { Zstd } from '@hpcc-js/wasm-zstd'
import { describe, expect, it } from 'vitest'
import { fromHex } from '../../test/support/codec-checks.js'
import { clickhouseFrames } from '../../test/support/compression-frames.js'
import { loadLz4, lz4Codec, nodeCompression, nodeLz4Codec } from './compression-node.js'
import { portableCompression, type ZstdLibrary, zstdCodec, zstdContentSize } from './compression-portable.js'

describe('compression codecs', () => {
  it('LZ4 decompresses from the frame header onwards and compresses to a bare block', async () => {
    const codec = lz4Codec(await loadLz4())
    const frame = fromHex(clickhouseFrames.lz4)
    const values = codec.decompress(frame.subarray(16), 24)
    expect(Object.getPrototypeOf(values)).toBe(Uint8Array.prototype)
    expect(Array.from(new BigUint64Array(values.slice().buffer))).toEqual([10n, 20n, 30n])
    expect(codec.compress(values)).toEqual(frame.subarray(25))
  })

  it('ZSTD round-trips at the chosen level and checks the level', async () => {
    const zstd = await Zstd.load()
    const data = new TextEncoder().encode('abcabcabcabcabcabc'.repeat(100))
    for (const level of [-5, 1, 3, 19]) {
      const codec = zstdCodec(zstd, { zstdLevel: level })
      const payload = codec.compress(data)
      expect(zstdContentSize(payload)).toBe(data.length)
      const block = new Uint8Array(9 + payload.length)
      block.set(payload, 9)
      expect(codec.decompress(block, data.length)).toEqual(data)
    }
    expect(() => zstdCodec(zstd, { zstdLevel: 23 })).toThrow(
      /zstdLevel must be an integer from -\d+ to 22, got 23/,
    )
    expect(() => zstdCodec(zstd, { zstdLevel: 1.5 })).toThrow(/zstdLevel/)
  })

  it('ZSTD works through the public API alone, as through the library internals', async () => {
    const zstd = await Zstd.load()
    // Only the public methods: the fallback when the internals are not there.
    const publicOnly: ZstdLibrary = {
      compress: (data, level) => zstd.compress(data, level),
      decompress: (data) => zstd.decompress(data),
      minCLevel: () => zstd.minCLevel(),
      maxCLevel: () => zstd.maxCLevel(),
    }
    const data = new TextEncoder().encode('0123456789'.repeat(1000))
    const fast = zstdCodec(zstd)
    const slow = zstdCodec(publicOnly)
    const frame = (payload: Uint8Array) => {
      const block = new Uint8Array(9 + payload.length)
      block.set(payload, 9)
      return block
    }
    expect(slow.compress(data)).toEqual(fast.compress(data))
    expect(slow.decompress(frame(fast.compress(data)), data.length)).toEqual(data)
    expect(fast.decompress(frame(slow.compress(data)), data.length)).toEqual(data)
    // A corrupt payload is an error either way; the direct path names ZSTD's reason.
    const corrupt = frame(fast.compress(data))
    corrupt[corrupt.length - 4] = corrupt[corrupt.length - 4]! ^ 0xff
    expect(() => fast.decompress(corrupt, data.length)).toThrow(/ZSTD: /)
    expect(() => slow.decompress(corrupt, data.length)).toThrow()
    // A streamed ZSTD frame declares no content size; it gets room for the frame header's
    // size only, so one holding more does not fit.
    zstd.reset()
    const streamed = concatBytes(...[zstd.compressChunk(data), zstd.compressEnd()])
    expect(zstdContentSize(streamed)).toBeUndefined()
    expect(fast.decompress(frame(streamed), data.length)).toEqual(data)
    expect(() => fast.decompress(frame(streamed), 10)).toThrow(/ZSTD: /)
  })

  it('reads the content size of ZSTD frame headers', () => {
    expect(zstdContentSize(fromHex(clickhouseFrames.zstd).subarray(25))).toBe(5)
    // Single segment with 2-, 4- and 8-byte sizes; a frame that declares none; not ZSTD.
    expect(zstdContentSize(fromHex('28b52ffd 60 2c01 00'))).toBe(300 + 256 - 256 + 256)
    expect(zstdContentSize(fromHex('28b52ffd a0 40420f00 00'))).toBe(1_000_000)
    expect(zstdContentSize(fromHex('28b52ffd e0 0000000001000000 00'))).toBe(2 ** 32)
    expect(zstdContentSize(fromHex('28b52ffd 00 58 0000'))).toBeUndefined()
    expect(zstdContentSize(fromHex('0011223344556677'))).toBeUndefined()
  })

  it('decodes LZ4 with lz4-napi alone where WebAssembly is unavailable (a --jitless Node)', async () => {
    const scope = globalThis as { WebAssembly?: unknown }
    const wasm = scope.WebAssembly
    let codec: Awaited<ReturnType<typeof nodeLz4Codec>>
    try {
      scope.WebAssembly = undefined
      codec = await nodeLz4Codec()
    } finally {
      scope.WebAssembly = wasm
    }
    const frame = fromHex(clickhouseFrames.lz4)
    const values = codec.decompress(frame.subarray(16), 24)
    expect(Array.from(new BigUint64Array(values.slice().buffer))).toEqual([10n, 20n, 30n])
    // lz4-napi's own message, not the WebAssembly decoder's.
    expect(() => codec.decompress(frame.subarray(16, 40), 24)).toThrow()
    expect(() => codec.decompress(frame.subarray(16, 40), 24)).not.toThrow(/malformed LZ4 block/)
  })

  it('offers LZ4 and ZSTD on Node and everywhere, LZ4 decoding through WebAssembly on both', async () => {
    const node = await nodeCompression()
    const portable = await portableCompression({ zstdLevel: 3 })
    expect(Object.keys(node).sort()).toEqual(['lz4', 'zstd'])
    expect(Object.keys(portable).sort()).toEqual(['lz4', 'zstd'])
    const frame = fromHex(clickhouseFrames.lz4)
    for (const codecs of [node, portable]) {
      const values = codecs.lz4!.decompress(frame.subarray(16), 24)
      expect(Array.from(new BigUint64Array(values.buffer))).toEqual([10n, 20n, 30n])
      expect(codecs.lz4!.compress(values)).toEqual(frame.subarray(25))
      expect(() => codecs.lz4!.decompress(frame.subarray(16, 40), 24)).toThrow(/malformed LZ4 block/)
    }
  })
})
