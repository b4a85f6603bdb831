import { concatBytes } from '@clickwire/testing'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { fromHex } from '../../test/support/codec-checks.js'
import {
  clickhouseFrames,
  decodeChunks,
  expectProtocolError,
  expectSameBytes,
} from '../../test/support/compression-frames.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { ByteReader } from '../io/byte-reader.js'
import { cityhash128Into } from './cityhash.js'
import type { CompressionCodecs } from './compression-codec.js'
import { nodeCompression } from './compression-node.js'
import { decompressFrames, FrameDecoder, readFrame } from './frame-reader.js'
import { compressFrames } from './frame-writer.js'

let codecs: CompressionCodecs

beforeAll(async () => {
  codecs = await nodeCompression()
})

const text = (value: string) => new TextEncoder().encode(value)

/** A frame with any header values, checksummed correctly. */
function forgeFrame(method: number, compressedSize: number, uncompressedSize: number, payload: Uint8Array) {
  const frame = new Uint8Array(25 + payload.length)
  const view = new DataView(frame.buffer)
  frame[16] = method
  view.setUint32(17, compressedSize, true)
  view.setUint32(21, uncompressedSize, true)
  frame.set(payload, 25)
  cityhash128Into(frame, 16, frame.length, frame, 0)
  return frame
}

/** Three frames of different methods, small enough to split at every pair of offsets. */
function mixedStream(): { stream: Uint8Array; data: Uint8Array; ends: number[] } {
  const parts = [text('first frame, stored'), text('second '.repeat(8)), text('third: zstd zstd zstd')]
  const frames = [
    compressFrames(parts[0]!, 'none', codecs),
    compressFrames(parts[1]!, 'lz4', codecs),
    compressFrames(parts[2]!, 'zstd', codecs),
  ]
  const ends = frames.map((_, i) => frames.slice(0, i + 1).reduce((sum, frame) => sum + frame.length, 0))
  return { stream: concatBytes(...frames), data: concatBytes(...parts), ends }
}

describe('decompressFrames', () => {
  it('reads real ClickHouse frames of each method', () => {
    expect(decompressFrames(fromHex(clickhouseFrames.none), codecs)).toEqual(Uint8Array.of(1, 2, 3))
    const lz4 = decompressFrames(fromHex(clickhouseFrames.lz4), codecs)
    expect(Array.from(new BigUint64Array(lz4.slice().buffer))).toEqual([10n, 20n, 30n])
    expect(new TextDecoder().decode(decompressFrames(fromHex(clickhouseFrames.zstd), codecs))).toBe('abcde')
  })

  it('returns a NONE payload as a view of the input', () => {
    const input = fromHex(clickhouseFrames.none)
    const payload = decompressFrames(input, codecs)
    expect(payload.buffer).toBe(input.buffer)
  })

  it('concatenates several frames and reads empty input as empty', () => {
    const { stream, data } = mixedStream()
    expect(decompressFrames(stream, codecs)).toEqual(data)
    expect(decompressFrames(new Uint8Array(0), codecs)).toEqual(new Uint8Array(0))
  })

  it('reports every truncation', () => {
    const { stream, ends } = mixedStream()
    for (let cut = 1; cut < stream.length; cut++) {
      let thrown: unknown
      try {
        decompressFrames(stream.subarray(0, cut), codecs)
      } catch (error) {
        thrown = error
      }
      // Cuts at a frame boundary leave whole frames: those decode.
      if (thrown === undefined) expect(ends).toContain(cut)
      else expect(ProtocolError.isInstance(thrown), `cut ${cut}: ${String(thrown)}`).toBe(true)
    }
  })
})

describe('frame validation', () => {
  it('names the frame, the expected and the actual checksum on a mismatch', () => {
    const { stream, ends } = mixedStream()
    const corrupt = stream.slice()
    const second = ends[0]!
    expect(second).toBe(44)
    corrupt[second + 30] = corrupt[second + 30]! ^ 0x01
    expectProtocolError(
      () => decompressFrames(corrupt, codecs),
      /checksum mismatch in compressed frame 1 at byte 44 \(\d+ bytes after the checksum\): expected [0-9a-f]{32}, actual [0-9a-f]{32}/,
    )
    const badSum = fromHex(clickhouseFrames.none)
    badSum[0] = 0x12
    expectProtocolError(
      () => decompressFrames(badSum, codecs),
      /frame 0 at byte 0 .*expected 6c3f4d19c82dc512c30340c5c130e125, actual 6c3f4d19c82dc513c30340c5c130e125/,
    )
  })

  it('rejects unknown methods and impossible sizes', () => {
    const payload = text('abc')
    expectProtocolError(
      () => decompressFrames(forgeFrame(0x91, 12, 3, payload)),
      /unknown compression method byte 0x91 in compressed frame 0 at byte 0/,
    )
    expectProtocolError(
      () => decompressFrames(forgeFrame(0x02, 8, 3, payload)),
      /impossible compressed size 8/,
    )
    expectProtocolError(
      () => decompressFrames(forgeFrame(0x82, 0x4000_0001, 3, payload)),
      /impossible compressed size 1073741825/,
    )
    expectProtocolError(
      () => decompressFrames(forgeFrame(0x90, 12, 0x4000_0001, payload), codecs),
      /uncompressed size 1073741825 .* over the limit of 1073741824/,
    )
    expectProtocolError(
      () => decompressFrames(forgeFrame(0x90, 12, 1000, payload), codecs, { maxUncompressedSize: 999 }),
      /over the limit of 999/,
    )
    expectProtocolError(
      () => decompressFrames(forgeFrame(0x02, 12, 4, payload)),
      /declares 4 bytes but carries 3/,
    )
    expectProtocolError(
      () => decompressFrames(forgeFrame(0x82, 12, 3 * 255 + 256, payload), codecs),
      /more than LZ4 can expand/,
    )
  })

  it('rejects a payload that does not decompress, or decompresses to another length', () => {
    expectProtocolError(
      () => decompressFrames(forgeFrame(0x82, 12, 5, Uint8Array.of(0xff, 1, 2)), codecs),
      /cannot decompress LZ4 compressed frame 0 at byte 0: /,
    )
    expectProtocolError(
      () => decompressFrames(forgeFrame(0x90, 12, 5, Uint8Array.of(1, 2, 3)), codecs),
      /cannot decompress ZSTD compressed frame 0/,
    )
    // Valid LZ4 of "abc", declared one byte longer than it is.
    const lz4 = fromHex(clickhouseFrames.lz4).subarray(25)
    expectProtocolError(
      () => decompressFrames(forgeFrame(0x82, 9 + lz4.length, 25, lz4), codecs),
      /LZ4 compressed frame 0 at byte 0 decompressed to 24 bytes, the header says 25/,
    )
    const zstd = fromHex(clickhouseFrames.zstd).subarray(25)
    expectProtocolError(
      () => decompressFrames(forgeFrame(0x90, 9 + zstd.length, 6, zstd), codecs),
      /cannot decompress ZSTD .*declares 5 bytes, the header 6/,
    )
  })

  it('says which codec is missing', () => {
    expectProtocolError(
      () => decompressFrames(fromHex(clickhouseFrames.lz4), {}),
      /uses LZ4, but no LZ4 codec was given/,
    )
    expectProtocolError(
      () => decompressFrames(fromHex(clickhouseFrames.zstd), { lz4: codecs.lz4 }),
      /no ZSTD codec/,
    )
  })
})

describe('frame limits', () => {
  it('names the limit it was given, and checks it before reading the payload', () => {
    const header = forgeFrame(0x82, 9 + 4096, 100_000, new Uint8Array(4096)).subarray(0, 25)
    const limitName = 'maxBlockBytes (65536) with 0 bytes of the Data before it'
    const options = { maxUncompressedSize: 65_536, limitName }
    expectProtocolError(
      () => readFrame(new ByteReader(header), codecs, options),
      /^uncompressed size 100000 in compressed frame 0 at byte 0 is over maxBlockBytes \(65536\) with 0 bytes of the Data before it$/,
    )
    expectProtocolError(
      () => new FrameDecoder(codecs, options).push(header),
      /is over maxBlockBytes \(65536\)/,
    )
  })

  it('refuses a compressed size more than a frame of the limit can take, before waiting for it', () => {
    // 1000 bytes uncompressed at most: no codec needs more than 1000 + 7 + 1024 for them.
    const options = { maxUncompressedSize: 1000 }
    const header = (payload: number) => forgeFrame(0x90, 9 + payload, 1000, new Uint8Array(0)).subarray(0, 25)
    const reader = new ByteReader(header(2031))
    expect(readFrame(reader, codecs, options)).toBeUndefined()
    expect(reader.missing).toBe(16 + 9 + 2031)
    expectProtocolError(
      () => readFrame(new ByteReader(header(2032)), codecs, options),
      /^compressed size 2041 in compressed frame 0 at byte 0 is more than a frame of at most 1000 bytes can take$/,
    )
    expectProtocolError(
      () => new FrameDecoder(codecs, options).push(header(2032)),
      /more than a frame of at most 1000/,
    )
  })
})

describe('readFrame', () => {
  it('reads one frame from a ByteReader and leaves the rest', () => {
    const { stream } = mixedStream()
    const reader = new ByteReader(stream)
    expect(new TextDecoder().decode(readFrame(reader, codecs))).toBe('first frame, stored')
    expect(reader.offset).toBe(44)
    expect(readFrame(reader, codecs, { frameIndex: 1 })?.length).toBe(56)
  })

  it('reports missing bytes for every prefix without consuming', () => {
    const frame = compressFrames(text('hello hello hello'), 'lz4', codecs)
    for (let cut = 0; cut < frame.length; cut++) {
      const reader = new ByteReader(frame, 0, cut)
      expect(readFrame(reader, codecs)).toBeUndefined()
      expect(reader.offset).toBe(0)
      expect(reader.missing).toBe(cut < 25 ? 25 : frame.length)
    }
  })
})

describe('readFrame into memory of the caller', () => {
  it('decompresses an LZ4 frame where the output says, and a stored frame as a view of the input', () => {
    const data = text('abcabcabc '.repeat(500))
    const lz4 = compressFrames(data, 'lz4', codecs)
    const memory = new Uint8Array(8192)
    const asked: number[] = []
    const output = (size: number) => {
      asked.push(size)
      return { bytes: memory, offset: 100 }
    }
    const payload = readFrame(new ByteReader(lz4), codecs, { output })!
    expect(asked).toEqual([data.length])
    expect(payload.buffer).toBe(memory.buffer)
    expect(payload.byteOffset).toBe(100)
    expect(payload).toEqual(data)
    // NONE needs no output: the payload is the frame's own bytes.
    const stored = compressFrames(data, 'none', codecs)
    const view = readFrame(new ByteReader(stored), codecs, { output })!
    expect(asked).toEqual([data.length])
    expect(view.buffer).toBe(stored.buffer)
    expect(view).toEqual(data)
  })

  it('refuses a frame that decodes to another size than its header says, with a typed error', () => {
    const frame = compressFrames(text('hello hello hello hello'), 'lz4', codecs)
    // One more byte declared than the block holds, and the checksum fixed, so the codec sees it.
    frame[16 + 5]! += 1
    cityhash128Into(frame, 16, frame.length, frame, 0)
    const output = () => ({ bytes: new Uint8Array(64), offset: 0 })
    expect(() => readFrame(new ByteReader(frame), codecs, { output })).toThrow(ProtocolError)
  })
})

describe('FrameDecoder', () => {
  it('decodes a stream split at every offset, and at every pair of offsets up to 40 apart', () => {
    const { stream, data } = mixedStream()
    const same = (a: Uint8Array, b: Uint8Array) =>
      a.length === b.length && a.every((byte, i) => byte === b[i])
    for (let i = 0; i <= stream.length; i++) {
      for (let j = i; j <= Math.min(i + 40, stream.length); j++) {
        const chunks = [stream.subarray(0, i), stream.subarray(i, j), stream.subarray(j)]
        const decoded = decodeChunks(codecs, chunks)
        if (!same(decoded, data)) expect(decoded, `split at ${i}, ${j}`).toEqual(data)
      }
    }
  })

  it('decodes a stream fed one byte at a time and reports what the frame still needs', () => {
    const { stream, data, ends: frameEnds } = mixedStream()
    const decoder = new FrameDecoder(codecs)
    const out: Uint8Array[] = []
    for (let at = 0; at < stream.length; at++) {
      out.push(...decoder.push(stream.subarray(at, at + 1)))
      const frameStart = [0, ...frameEnds].filter((end) => end <= at + 1).at(-1)!
      const frameEnd = frameEnds.find((end) => end > at + 1)
      if (frameEnd === undefined || frameStart === at + 1) expect(decoder.needed).toBe(0)
      else if (at + 1 - frameStart < 25) expect(decoder.needed).toBe(frameStart + 25 - (at + 1))
      else expect(decoder.needed).toBe(frameEnd - (at + 1))
    }
    decoder.finish()
    expect(concatBytes(...out)).toEqual(data)
    expect(decoder.frames).toBe(3)
    expect(decoder.offset).toBe(stream.length)
  })

  it('decodes frames lying whole in a chunk without copying NONE payloads', () => {
    const stream = compressFrames(text('stored'), 'none')
    const [payload] = new FrameDecoder().push(stream)
    expect(payload!.buffer).toBe(stream.buffer)
  })

  it('keeps NONE payloads gathered from pieces valid after later frames', () => {
    const a = compressFrames(text('aaaa'), 'none')
    const b = compressFrames(text('bbbb'), 'none')
    const decoder = new FrameDecoder()
    const first = [...decoder.push(a.subarray(0, 10)), ...decoder.push(a.subarray(10))]
    decoder.push(b.subarray(0, 30))
    decoder.push(b.subarray(30))
    expect(new TextDecoder().decode(first[0])).toBe('aaaa')
  })

  it('gathers a frame larger than the eager buffer size across many chunks', () => {
    const data = new Uint8Array((9 << 20) + 5)
    for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 0xff
    const stream = compressFrames(data, 'none', {}, 16 << 20)
    const chunks = Array.from({ length: Math.ceil(stream.length / 65_536) }, (_, i) =>
      stream.subarray(i * 65_536, (i + 1) * 65_536),
    )
    expectSameBytes(decodeChunks({}, chunks), data)
  })

  it('fails on truncation at finish, and stays failed', () => {
    const { stream } = mixedStream()
    for (const cut of [1, 24, 25, 43, 45, 44 + 24, 44 + 25, stream.length - 1]) {
      const decoder = new FrameDecoder(codecs)
      decoder.push(stream.subarray(0, cut))
      expectProtocolError(
        () => decoder.finish(),
        /compressed stream ends inside compressed frame \d at byte \d+/,
      )
      expectProtocolError(() => decoder.push(new Uint8Array(1)), /ends inside/)
    }
    const decoder = new FrameDecoder(codecs)
    const corrupt = stream.slice()
    corrupt[3] = corrupt[3]! ^ 0xff
    expectProtocolError(() => decoder.push(corrupt), /checksum mismatch in compressed frame 0 at byte 0/)
    expectProtocolError(() => decoder.push(stream), /checksum mismatch in compressed frame 0/)
  })

  it('throws only ProtocolError on randomly mutated streams, and never hangs', () => {
    const { stream, data } = mixedStream()
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bits: fc.integer({ min: 1, max: 255 }) }),
      fc.record({
        kind: fc.constant('insert' as const),
        at: fc.nat(),
        bytes: fc.uint8Array({ minLength: 1, maxLength: 30 }),
      }),
      fc.record({
        kind: fc.constant('delete' as const),
        at: fc.nat(),
        count: fc.integer({ min: 1, max: 30 }),
      }),
      fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
    )
    fc.assert(
      fc.property(
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        (mutations, splits) => {
          let bytes: Uint8Array = stream.slice()
          for (const m of mutations) {
            const at = m.at % (bytes.length + 1)
            if (m.kind === 'flip' && at < bytes.length) bytes[at] = bytes[at]! ^ m.bits
            else if (m.kind === 'insert')
              bytes = concatBytes(...[bytes.subarray(0, at), m.bytes, bytes.subarray(at)])
            else if (m.kind === 'delete')
              bytes = concatBytes(...[bytes.subarray(0, at), bytes.subarray(at + m.count)])
            else if (m.kind === 'cut') bytes = bytes.slice(0, at)
          }
          const cuts = [...new Set(splits.map((s) => s % (bytes.length + 1)))].sort((a, b) => a - b)
          const chunks = [0, ...cuts].map((from, i) => bytes.subarray(from, [...cuts, bytes.length][i]))
          let decoded: Uint8Array | undefined
          try {
            decoded = decodeChunks(codecs, chunks)
          } catch (error) {
            expect(ProtocolError.isInstance(error), String(error)).toBe(true)
          }
          // Whatever got through the checksums is a prefix made of whole original frames.
          if (decoded !== undefined) expect(data.subarray(0, decoded.length)).toEqual(decoded)
        },
      ),
      { numRuns: 500 },
    )
  })
})
