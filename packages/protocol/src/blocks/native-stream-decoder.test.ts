import { describe, expect, it } from 'vitest'
import { context } from '../../test/support/codec-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { ByteWriter } from '../io/byte-writer.js'
import { defaultValueMapping } from '../types/value-mapping.js'
import { rowObjects } from './block-rows.js'
import type { NativeBlock } from './native-block.js'
import { NativeBlockWriter } from './native-block-writer.js'
import { NativeStreamDecoder } from './native-stream-decoder.js'

function stream(blocks: number, rows: number): Uint8Array {
  const writer = new ByteWriter()
  const blockWriter = new NativeBlockWriter({ ...context(), revision: 0 }, false)
  for (let b = 0; b < blocks; b++) {
    const n = Array.from({ length: rows }, (_, i) => BigInt(b * rows + i))
    const s = n.map((value) => `v${value}`)
    blockWriter.write(
      writer,
      [
        { name: 'n', type: 'UInt64', values: n },
        { name: 's', type: 'String', values: s },
      ],
      rows,
    )
  }
  return writer.copy()
}

function decodeInChunks(bytes: Uint8Array, size: (index: number) => number): NativeBlock[] {
  const decoder = new NativeStreamDecoder({ ...context(), revision: 0 })
  const blocks: NativeBlock[] = []
  for (let offset = 0, index = 0; offset < bytes.length; index++) {
    const end = Math.min(bytes.length, offset + size(index))
    decoder.push(bytes.slice(offset, end))
    offset = end
    for (let block = decoder.next(); block; block = decoder.next()) blocks.push(block)
  }
  for (let block = decoder.next(true); block; block = decoder.next(true)) blocks.push(block)
  decoder.finish()
  return blocks
}

const flatten = (blocks: NativeBlock[]) => blocks.flatMap((block) => rowObjects(block))

/** The blocks of `bytes` pushed in two chunks, split at `cut`, decoded at `revision`. */
function decodeSplitAt(bytes: Uint8Array, cut: number, revision: number): NativeBlock[] {
  const decoder = new NativeStreamDecoder({ ...context(), revision })
  const blocks: NativeBlock[] = []
  decoder.push(bytes.slice(0, cut))
  for (let block = decoder.next(); block; block = decoder.next()) blocks.push(block)
  decoder.push(bytes.slice(cut))
  for (let block = decoder.next(true); block; block = decoder.next(true)) blocks.push(block)
  decoder.finish()
  return blocks
}

describe('NativeStreamDecoder alignment', () => {
  const bytes = stream(3, 5)
  const expected = Array.from({ length: 15 }, (_, i) => ({ n: BigInt(i), s: `v${i}` }))

  it('decodes the same rows whatever the split point', () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(flatten(decodeSplitAt(bytes, cut, 0)), `cut at ${cut}`).toEqual(expected)
    }
  })

  it('decodes byte by byte and in uneven chunks', () => {
    expect(flatten(decodeInChunks(bytes, () => 1))).toEqual(expected)
    expect(flatten(decodeInChunks(bytes, (i) => ((i * 7) % 13) + 1))).toEqual(expected)
  })

  it('decodes a large stream in 64 KiB chunks with few retries', () => {
    const big = stream(4, 50_000)
    const blocks = decodeInChunks(big, () => 65_536)
    expect(blocks.map((block) => block.rows)).toEqual([50_000, 50_000, 50_000, 50_000])
    expect(blocks[3]!.columns[1]!.column.get(49_999)).toBe('v199999')
  })

  it('reports a stream cut inside a block', () => {
    const decoder = new NativeStreamDecoder({ ...context(), revision: 0 })
    decoder.push(bytes.subarray(0, bytes.length - 1))
    while (decoder.next(true));
    expect(() => decoder.finish()).toThrow(ProtocolError)
    expect(() => decoder.finish()).toThrow(/ended inside a block/)
  })
})

const alignedContext = { revision: 0, timezone: 'UTC', mapping: defaultValueMapping }

function uint64Stream(blocks: number, rows: number, name = 'number'): Uint8Array {
  const writer = new ByteWriter()
  const blockWriter = new NativeBlockWriter(alignedContext, false)
  for (let b = 0; b < blocks; b++) {
    const values = BigUint64Array.from({ length: rows }, (_, i) => BigInt(b * rows + i))
    blockWriter.write(writer, [{ name, type: 'UInt64', values }], rows)
  }
  return writer.copy()
}

function decodeAligned(bytes: Uint8Array, size: number): { values: bigint[]; views: number } {
  const decoder = new NativeStreamDecoder(alignedContext)
  const values: bigint[] = []
  let views = 0
  const take = (force: boolean) => {
    for (let block = decoder.next(force); block; block = decoder.next(force)) {
      const column = block.columns[0]!.column.values() as BigUint64Array
      values.push(...column)
      // A view of the decoder's buffer, not a copy of its own.
      if (column.buffer.byteLength > column.byteLength) views++
    }
  }
  for (let at = 0; at < bytes.length; at += size) {
    decoder.push(bytes.subarray(at, at + size))
    take(false)
  }
  take(true)
  decoder.finish()
  return { values, views }
}

describe('NativeStreamDecoder', () => {
  it('decodes the same values whatever the chunk size, and UInt64 data as aligned views', () => {
    // 1-byte to 11-byte names shift the data offset through every residue mod 8.
    for (const name of ['n', 'number', 'a_longer_n']) {
      const bytes = uint64Stream(6, 1000, name)
      const expected = Array.from({ length: 6000 }, (_, i) => BigInt(i))
      for (const size of [1, 5, 4096, 100_000]) {
        const { values, views } = decodeAligned(bytes, size)
        expect(values, `${name} in chunks of ${size}`).toEqual(expected)
        expect(views, `${name} in chunks of ${size}`).toBe(6)
      }
    }
  })

  it('peeks at the next block boundary and reports a cut stream', () => {
    const bytes = uint64Stream(2, 10)
    const decoder = new NativeStreamDecoder(alignedContext)
    decoder.push(bytes.subarray(0, bytes.length - 1))
    expect(decoder.next(true)?.rows).toBe(10)
    expect(decoder.peek(2)).toEqual(Uint8Array.of(1, 10))
    expect(decoder.next(true)).toBeUndefined()
    expect(() => decoder.finish()).toThrow(ProtocolError)
  })
})

describe('NativeStreamDecoder memory reuse', () => {
  /** Decodes `bytes` in chunks of `size`, releasing each block before taking the next. */
  function decodeReleasing(bytes: Uint8Array, size: number, recycle: boolean) {
    const decoder = new NativeStreamDecoder(alignedContext)
    decoder.recycle(recycle)
    const buffers = new Set<ArrayBufferLike>()
    let blocks = 0
    let sum = 0n
    const take = (force: boolean) => {
      for (let block = decoder.next(force); block; block = decoder.next(force)) {
        const column = block.columns[0]!.column.values() as BigUint64Array
        buffers.add(column.buffer)
        for (const value of column) sum += value
        blocks++
        decoder.releaseThrough(decoder.lastBlock)
      }
    }
    for (let at = 0; at < bytes.length; at += size) {
      // A fresh chunk each time, as a fetch body gives them.
      decoder.push(bytes.slice(at, at + size))
      take(false)
    }
    take(true)
    decoder.finish()
    return { blocks, sum, buffers: buffers.size }
  }

  it('reuses the receive buffers of released blocks and decodes the same values', () => {
    // 200 blocks of 80 KB: 16 MB, arriving in 16 KiB chunks (copied into the arena's buffers).
    const rows = 10_000
    const bytes = uint64Stream(200, rows)
    const n = BigInt(200 * rows)
    const expectedSum = (n * (n - 1n)) / 2n
    const recycled = decodeReleasing(bytes, 16_384, true)
    const plain = decodeReleasing(bytes, 16_384, false)
    for (const run of [recycled, plain]) {
      expect(run.blocks).toBe(200)
      expect(run.sum).toBe(expectedSum)
    }
    // Without reuse the buffers grow 64 KiB, 128 KiB, ... 4 MiB, and every one after is fresh
    // memory; with it, a released buffer comes back.
    expect(plain.buffers).toBe(8)
    expect(recycled.buffers).toBeLessThanOrEqual(3)
  })

  it('decodes in place the large chunks it adopts, and aligns what it can', () => {
    const rows = 20_000
    const bytes = uint64Stream(5, rows, 'abc')
    for (const size of [65_536, 100_003, 160_000, bytes.length]) {
      const { values } = decodeAligned(bytes, size)
      expect(values.length, `chunks of ${size}`).toBe(5 * rows)
      expect(values[values.length - 1], `chunks of ${size}`).toBe(BigInt(5 * rows - 1))
      expect(values[rows], `chunks of ${size}`).toBe(BigInt(rows))
    }
  })
})

describe('NativeStreamDecoder at a client_protocol_version', () => {
  // ClickHouse 26.9.2.1's answer to `SELECT arrayJoin(['ab','c','']) AS s FORMAT Native` over
  // HTTP with client_protocol_version=54492: BlockInfo, a custom-serialization byte after the
  // type, and the String in the size-stream layout (offsets 2, 3, 3, then "abc").
  const body =
    '010002ffffffff03000001030173' +
    '06537472696e67' +
    '00' +
    '0200000000000000' +
    '0300000000000000' +
    '0300000000000000' +
    '616263'
  const bytes = Uint8Array.from(body.match(/../g)!.map((pair) => Number.parseInt(pair, 16)))

  it('reads BlockInfo and the size-stream layout, whatever the split point', async () => {
    const { loadCodecs } = await import('../columns/rare-codec-loader.js')
    await loadCodecs()
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(flatten(decodeSplitAt(bytes, cut, 54492)), `cut at ${cut}`).toEqual([
        { s: 'ab' },
        { s: 'c' },
        { s: '' },
      ])
    }
  })
})
