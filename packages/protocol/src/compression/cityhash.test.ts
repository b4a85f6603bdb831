import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromHex } from '../../test/support/codec-checks.js'
import { referenceCityHash128 } from '../../test/support/compression-cityhash-reference.js'
import { clickhouseFrames } from '../../test/support/compression-frames.js'
import { checksumHex, cityhash128, cityhash128Implementation, cityhash128Into } from './cityhash.js'
import { cityHash128Js } from './cityhash-js.js'
import { loadCityHashWasm } from './cityhash-wasm.js'

const wasm = loadCityHashWasm()

function halves(digest: Uint8Array): [bigint, bigint] {
  const view = new DataView(digest.buffer, digest.byteOffset, 16)
  return [view.getBigUint64(0, true), view.getBigUint64(8, true)]
}

/** The digests of both implementations, for `bytes` placed at an odd offset of a larger array. */
function bothDigests(bytes: Uint8Array): { js: [bigint, bigint]; wasm: [bigint, bigint] } {
  const padded = new Uint8Array(bytes.length + 10)
  padded.set(bytes, 3)
  const js = new Uint8Array(16)
  cityHash128Js(padded, 3, 3 + bytes.length, js, 0)
  const fast = new Uint8Array(20)
  wasm!.hashInto(padded, 3, 3 + bytes.length, fast, 4)
  return { js: halves(js), wasm: halves(fast.subarray(4)) }
}

const text = (value: string) => new TextEncoder().encode(value)

describe('cityhash128 (v1.0.2)', () => {
  it('uses WebAssembly in Node', () => {
    expect(wasm).toBeDefined()
    expect(cityhash128Implementation()).toBe('wasm')
  })

  it('gives the published check values', () => {
    expect(halves(cityhash128(new Uint8Array(0)))).toEqual([0x3df09dfc64c09a2bn, 0x3cb540c392e51e29n])
    expect(halves(cityhash128(text('abc')))).toEqual([0x900ff195577748fen, 0x13a9176355b20d7en])
    for (const digest of Object.values(bothDigests(text('abc'))))
      expect(digest).toEqual([0x900ff195577748fen, 0x13a9176355b20d7en])
    expect(referenceCityHash128(new Uint8Array(0))).toEqual([0x3df09dfc64c09a2bn, 0x3cb540c392e51e29n])
  })

  it('formats digests as ClickHouse prints checksums', () => {
    expect(checksumHex(cityhash128(text('abc')))).toBe('900ff195577748fe13a9176355b20d7e')
  })

  it('hashes a range of a larger array', () => {
    const bytes = text('xxabcyy')
    expect(cityhash128(bytes, 2, 5)).toEqual(cityhash128(text('abc')))
    const out = new Uint8Array(20)
    cityhash128Into(bytes, 2, 5, out, 2)
    expect(out.subarray(2, 18)).toEqual(cityhash128(text('abc')))
  })

  it('rejects ranges outside the input', () => {
    expect(() => cityhash128(new Uint8Array(4), 2, 5)).toThrow(/out of bounds/)
    expect(() => cityhash128(new Uint8Array(4), 3, 2)).toThrow(/out of bounds/)
    expect(() => cityhash128Into(new Uint8Array(4), 0, 4, new Uint8Array(16), 1)).toThrow(/out of bounds/)
  })

  it('matches the BigInt reference at every length 0..300 (both implementations)', () => {
    for (let length = 0; length <= 300; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 167 + length * 13 + 5) & 0xff)
      const expected = referenceCityHash128(bytes)
      const { js, wasm } = bothDigests(bytes)
      expect(js, `js, length ${length}`).toEqual(expected)
      expect(wasm, `wasm, length ${length}`).toEqual(expected)
    }
  })

  it('matches the BigInt reference on random inputs of 0..300 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 300 }), (bytes) => {
        const expected = referenceCityHash128(bytes)
        const { js, wasm } = bothDigests(bytes)
        expect(js).toEqual(expected)
        expect(wasm).toEqual(expected)
      }),
      { numRuns: 1000 },
    )
  })

  it('matches the reference across the WebAssembly chunk boundaries (64 KiB of blocks)', () => {
    // Chunks hold 512 blocks after the 16 seed bytes; lengths around 1, 2 and 3 chunks.
    const chunk = 16 + 512 * 128
    const lengths = [chunk - 1, chunk, chunk + 1, chunk + 127, chunk + 128, 2 * chunk - 16, 3 * chunk + 77]
    for (const length of lengths) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + (i >>> 9)) & 0xff)
      const expected = referenceCityHash128(bytes)
      const { js, wasm } = bothDigests(bytes)
      expect(js, `js, length ${length}`).toEqual(expected)
      expect(wasm, `wasm, length ${length}`).toEqual(expected)
    }
  })
})

describe('cityhash128 on frames ClickHouse wrote', () => {
  it('equals the checksum stored in front of each frame', () => {
    for (const [method, text] of Object.entries(clickhouseFrames)) {
      const frame = fromHex(text)
      expect(checksumHex(cityhash128(frame, 16, frame.length)), method).toBe(checksumHex(frame))
      expect(checksumHex(cityHash128JsDigest(frame, 16)), method).toBe(checksumHex(frame))
    }
  })
})

function cityHash128JsDigest(bytes: Uint8Array, start: number): Uint8Array {
  const out = new Uint8Array(16)
  cityHash128Js(bytes, start, bytes.length, out, 0)
  return out
}
