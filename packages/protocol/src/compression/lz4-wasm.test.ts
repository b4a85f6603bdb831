import { concatBytes } from '@clickwire/testing'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromHex } from '../../test/support/codec-checks.js'
import { clickhouseFrames, expectProtocolError } from '../../test/support/compression-frames.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { loadLz4 } from './compression-node.js'
import { decompressFrames } from './frame-reader.js'
import { compressFrames } from './frame-writer.js'
import { loadLz4Wasm, loadLz4WasmSync, lz4WasmCodec } from './lz4-wasm.js'

const addon = await loadLz4()
/** lz4-napi's block, without its u32 size prefix. */
const napiBlock = (data: Uint8Array) => addon.compressSync(data).subarray(4)

function random(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size)
  let state = seed >>> 0
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    out[i] = state >>> 24
  }
  return out
}

const shapes: Record<string, Uint8Array> = {
  empty: new Uint8Array(0),
  'one byte': Uint8Array.of(7),
  random: random(1 << 20, 1),
  zeros: new Uint8Array(1 << 20),
  'short strings': new TextEncoder().encode(
    Array.from({ length: 60_000 }, (_, i) => `\u0003${['ATL', 'ORD', 'DFW', 'LAX'][i % 4]}${i % 7}`).join(''),
  ),
  'sequential UInt64': new Uint8Array(
    BigUint64Array.from({ length: 1 << 17 }, (_, i) => BigInt(i) + 10n ** 12n).buffer,
  ),
  'random Int32': new Uint8Array(Int32Array.from(random(1 << 20, 2).subarray(0, 1 << 18)).buffer),
}

describe('liblz4 in WebAssembly', () => {
  const lz4 = loadLz4WasmSync()

  it.each(Object.entries(shapes))('decodes lz4-napi blocks and round-trips its own: %s', (_, data) => {
    expectSame(lz4.decompress(napiBlock(data), data.length), data)
    expectSame(lz4.decompressView(napiBlock(data), data.length), data)
    const own = lz4.compress(data).slice()
    expectSame(addon.uncompressSync(concatBytes(u32(data.length), own)), data)
    expectSame(lz4.decompress(own, data.length), data)
  })

  it('decodes the LZ4 frame ClickHouse wrote', () => {
    const frame = fromHex(clickhouseFrames.lz4)
    const values = lz4WasmCodec(lz4).decompress(frame.subarray(16), 24)
    expect(Object.getPrototypeOf(values)).toBe(Uint8Array.prototype)
    expect(Array.from(new BigUint64Array(values.buffer))).toEqual([10n, 20n, 30n])
    expect(lz4.compress(values)).toEqual(frame.subarray(25))
  })

  it('decodes into a caller buffer at an offset, and returns arrays of their own', () => {
    const data = shapes['sequential UInt64']!
    const target = new Uint8Array(data.length + 16).fill(0xee)
    lz4.decompressInto(napiBlock(data), data.length, target, 8)
    expectSame(target.subarray(8, 8 + data.length), data)
    expect([...target.subarray(0, 8), ...target.subarray(8 + data.length)]).toEqual(Array(16).fill(0xee))
    expect(() => lz4.decompressInto(napiBlock(data), data.length, target, 17)).toThrow(RangeError)
    const first = lz4.decompress(napiBlock(data), data.length)
    lz4.decompress(napiBlock(shapes.zeros!), 1 << 20)
    expectSame(first, data)
    expect(first.byteOffset).toBe(0)
    expect(first.buffer.byteLength).toBe(data.length)
  })

  it('grows for a large block and lets that memory go afterwards', () => {
    const own = loadLz4WasmSync()
    const data = new Uint8Array(40 << 20).fill(1)
    data[12345] = 2
    expectSame(own.decompress(napiBlock(data), data.length), data)
    expectSame(own.decompress(napiBlock(shapes.random!), 1 << 20), shapes.random!)
    expect((own as unknown as { memory: Uint8Array }).memory.length).toBeLessThan(4 << 20)
  })

  it('rejects malformed, truncated and mis-sized blocks with ProtocolError', () => {
    const data = shapes['short strings']!
    const block = napiBlock(data)
    const cases: [Uint8Array, number, RegExp][] = [
      [block.subarray(0, block.length - 1), data.length, /malformed LZ4 block/],
      [block.subarray(0, 100), data.length, /malformed LZ4 block/],
      [block, data.length - 1, /malformed LZ4 block/],
      [block, data.length + 1, /decodes to \d+ bytes, \d+ were declared/],
      // A match offset of 0xffff at the very start points before the output.
      [
        Uint8Array.of(0x10, 0x41, 0xff, 0xff, 0x00),
        100,
        /^malformed LZ4 block of 5 bytes \(LZ4_decompress_safe returned -\d+\)$/,
      ],
      [new Uint8Array(0), 0, /malformed LZ4 block/],
    ]
    for (const [input, size, message] of cases) {
      let thrown: unknown
      try {
        lz4.decompress(input, size)
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(ProtocolError)
      expect((thrown as Error).message).toMatch(message)
    }
    // Still usable afterwards.
    expectSame(lz4.decompress(block, data.length), data)
  })

  it('gives the frame reader typed errors for a corrupt LZ4 frame with a valid checksum', async () => {
    const data = shapes['short strings']!
    const frames = compressFrames(data, 'lz4', { lz4: lz4WasmCodec(lz4) })
    expectSame(decompressFrames(frames, { lz4: lz4WasmCodec(lz4) }), data)
    // A frame whose payload is cut short but whose checksum and sizes are consistent.
    const cut = compressFrames(data.subarray(0, 1000), 'lz4', {
      lz4: { compress: (bytes) => napiBlock(bytes).subarray(0, 20), decompress: () => new Uint8Array(0) },
    })
    expectProtocolError(
      () => decompressFrames(cut, { lz4: lz4WasmCodec(lz4) }),
      /cannot decompress LZ4 compressed frame 0 at byte 0: malformed LZ4 block/,
    )
  })

  it('loads asynchronously too, each instance with its own memory', async () => {
    const [a, b] = await Promise.all([loadLz4Wasm(), loadLz4Wasm()])
    const x = a.decompressView(napiBlock(shapes.random!), 1 << 20)
    b.decompressView(napiBlock(shapes.zeros!), 1 << 20)
    expectSame(x, shapes.random!)
  })

  it('agrees with lz4-napi on any bytes (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 5000 }),
          fc
            .tuple(fc.uint8Array({ minLength: 1, maxLength: 16 }), fc.integer({ min: 1, max: 3000 }))
            .map(([unit, times]) =>
              new Uint8Array(times * unit.length).map((_, i) => unit[i % unit.length]!),
            ),
        ),
        (data) => {
          expectSame(lz4.decompress(napiBlock(data), data.length), data)
          const own = lz4.compress(data).slice()
          expectSame(addon.uncompressSync(concatBytes(u32(data.length), own)), data)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('never reads or writes out of bounds on mangled blocks (property)', () => {
    const data = shapes['short strings']!.subarray(0, 4000)
    const block = napiBlock(data)
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: block.length - 1 }),
        fc.integer({ min: 0, max: 255 }),
        (at, byte) => {
          const mangled = block.slice()
          mangled[at] = byte
          try {
            const out = lz4.decompress(mangled, data.length)
            expect(out.length).toBe(data.length)
          } catch (error) {
            expect(error).toBeInstanceOf(ProtocolError)
          }
        },
      ),
      { numRuns: 500 },
    )
  })
})

/** Byte equality without vitest's element-wise diff (seconds for a MiB). */
function expectSame(actual: Uint8Array, expected: Uint8Array): void {
  expect(actual.length).toBe(expected.length)
  expect(Buffer.compare(actual, expected)).toBe(0)
}

function u32(value: number): Uint8Array {
  return new Uint8Array(Uint32Array.of(value).buffer)
}
