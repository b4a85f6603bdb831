import { beforeAll, describe, expect, it } from 'vitest'
import { fromHex, hex } from '../../test/support/codec-checks.js'
import { clickhouseFrames, expectSameBytes } from '../../test/support/compression-frames.js'
import { ByteWriter } from '../io/byte-writer.js'
import type { CompressionCodecs } from './compression-codec.js'
import { nodeCompression } from './compression-node.js'
import { decompressFrames } from './frame-reader.js'
import { compressFrames, FrameWriter, writeFrames } from './frame-writer.js'

let codecs: CompressionCodecs

beforeAll(async () => {
  codecs = await nodeCompression()
})

/** [method byte, compressed size, uncompressed size] of each frame in a stream. */
function frameHeaders(stream: Uint8Array): [number, number, number][] {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength)
  const headers: [number, number, number][] = []
  for (let at = 0; at < stream.length; at += 16 + view.getUint32(at + 17, true)) {
    headers.push([stream[at + 16]!, view.getUint32(at + 17, true), view.getUint32(at + 21, true)])
  }
  return headers
}

function sample(length: number): Uint8Array {
  const bytes = new Uint8Array(length)
  for (let i = 0; i < length; i++) bytes[i] = (i % 97) + ((i >> 10) & 7)
  return bytes
}

describe('compressFrames', () => {
  it('writes exactly the NONE frame ClickHouse writes', () => {
    expect(hex(compressFrames(Uint8Array.of(1, 2, 3), 'none'))).toBe(clickhouseFrames.none.replace(/ /g, ''))
  })

  it('writes LZ4 and ZSTD frames with ClickHouse headers that read back', () => {
    const values = new Uint8Array(new BigUint64Array([10n, 20n, 30n]).buffer)
    const lz4 = compressFrames(values, 'lz4', codecs)
    expect(frameHeaders(lz4)).toEqual([[0x82, lz4.length - 16, 24]])
    expect(decompressFrames(lz4, codecs)).toEqual(values)
    // The same bytes as ClickHouse's own LZ4 encoder produced for this column.
    expect(hex(lz4)).toBe(clickhouseFrames.lz4.replace(/ /g, ''))
    const text = new TextEncoder().encode('abcde')
    const zstd = compressFrames(text, 'zstd', codecs)
    expect(frameHeaders(zstd)).toEqual([[0x90, zstd.length - 16, 5]])
    expect(decompressFrames(zstd, codecs)).toEqual(text)
  })

  it('cuts frames at 1 MiB of uncompressed data by default', () => {
    const data = sample((1 << 20) * 2 + 100)
    for (const method of ['lz4', 'zstd', 'none'] as const) {
      const stream = compressFrames(data, method, codecs)
      expect(frameHeaders(stream).map(([, , size]) => size)).toEqual([1 << 20, 1 << 20, 100])
      expectSameBytes(decompressFrames(stream, codecs), data, method)
    }
  })

  it('cuts at a chosen frame size and writes nothing for empty input', () => {
    const stream = compressFrames(sample(10), 'lz4', codecs, 4)
    expect(frameHeaders(stream).map(([, , size]) => size)).toEqual([4, 4, 2])
    expect(compressFrames(new Uint8Array(0), 'lz4', codecs)).toEqual(new Uint8Array(0))
  })

  it('rejects a missing codec, an unknown method and a bad frame size', () => {
    expect(() => compressFrames(sample(3), 'lz4', {})).toThrow(/no LZ4 codec was given/)
    expect(() => compressFrames(sample(3), 'brotli' as 'lz4', codecs)).toThrow(
      /unknown compression method brotli/,
    )
    expect(() => compressFrames(sample(3), 'none', {}, 0)).toThrow(/frameSize must be an integer/)
  })
})

describe('writeFrames', () => {
  it('appends frames of a range after what the writer holds', () => {
    const out = new ByteWriter(8)
    out.u8(0x02)
    const data = sample(300)
    writeFrames(out, data, codecs, { method: 'lz4', frameSize: 128 }, 10, 290)
    const written = out.finish()
    expect(written[0]).toBe(0x02)
    expect(decompressFrames(written.subarray(1), codecs)).toEqual(data.subarray(10, 290))
    expect(frameHeaders(written.subarray(1)).map(([, , size]) => size)).toEqual([128, 128, 24])
  })
})

describe('FrameWriter', () => {
  it('frames what encoders wrote into its input, at each flush', () => {
    const output = new ByteWriter(16)
    const frames = new FrameWriter(output, codecs, { method: 'zstd', frameSize: 1000 })
    frames.input.string('hello')
    frames.input.raw(sample(2500))
    expect(frames.pending).toBe(2506)
    frames.flush()
    expect(frames.pending).toBe(0)
    frames.input.u32(7)
    frames.flush()
    frames.flush()
    const stream = output.finish()
    expect(frameHeaders(stream).map(([method, , size]) => [method, size])).toEqual([
      [0x90, 1000],
      [0x90, 1000],
      [0x90, 506],
      [0x90, 4],
    ])
    const decoded = decompressFrames(stream, codecs)
    expect(decoded.subarray(0, 6)).toEqual(fromHex('05 68656c6c6f'))
    expect(decoded.subarray(6, 2506)).toEqual(sample(2500))
    expect(decoded.subarray(2506)).toEqual(fromHex('07000000'))
  })

  it('compresses whole frames between writes into the same frames as one flush at the end', () => {
    const data = sample(9_777)
    const once = new FrameWriter(new ByteWriter(16), codecs, { method: 'lz4', frameSize: 1000 })
    once.input.raw(data)
    once.flush()
    const streamed = new FrameWriter(new ByteWriter(16), codecs, { method: 'lz4', frameSize: 1000 })
    const pendings: number[] = []
    // Writes of uneven sizes (a column each), whole frames flushed once 2 wait.
    for (const [start, end] of [
      [0, 1],
      [1, 1999],
      [1999, 2000],
      [2000, 2000],
      [2000, 6543],
      [6543, 9777],
    ] as const) {
      streamed.input.raw(data.subarray(start, end))
      streamed.flushWholeFrames(2)
      pendings.push(streamed.pending)
    }
    expect(pendings).toEqual([1, 1999, 0, 0, 543, 777])
    expect(streamed.flushedBytes).toBe(9_000)
    streamed.flush()
    expect(streamed.flushedBytes).toBe(9_777)
    expect(streamed.output.finish()).toEqual(once.output.finish())
    expect(decompressFrames(streamed.output.finish(), codecs)).toEqual(data)
    expect(frameHeaders(streamed.output.finish()).map(([, , size]) => size)).toEqual([
      1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 777,
    ])
  })

  it('checks its options up front', () => {
    expect(() => new FrameWriter(new ByteWriter(), {}, { method: 'zstd' })).toThrow(/no ZSTD codec/)
    expect(new FrameWriter(new ByteWriter(), {}, { method: 'none' }).method).toBe('none')
    expect(new FrameWriter(new ByteWriter(), codecs).method).toBe('lz4')
  })
})
