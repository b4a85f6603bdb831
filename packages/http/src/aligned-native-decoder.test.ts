import { ByteWriter, defaultValueMapping, NativeBlockWriter, ProtocolError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { AlignedNativeDecoder } from './aligned-native-decoder.js'

const context = { revision: 0, timezone: 'UTC', mapping: defaultValueMapping }

function stream(blocks: number, rows: number, name = 'number'): Uint8Array {
  const writer = new ByteWriter()
  const blockWriter = new NativeBlockWriter(context, false)
  for (let b = 0; b < blocks; b++) {
    const values = BigUint64Array.from({ length: rows }, (_, i) => BigInt(b * rows + i))
    blockWriter.write(writer, [{ name, type: 'UInt64', values }], rows)
  }
  return writer.copy()
}

function decode(bytes: Uint8Array, size: number): { values: bigint[]; views: number } {
  const decoder = new AlignedNativeDecoder(context)
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

describe('AlignedNativeDecoder', () => {
  it('decodes the same values whatever the chunk size, and UInt64 data as aligned views', () => {
    // 1-byte to 11-byte names shift the data offset through every residue mod 8.
    for (const name of ['n', 'number', 'a_longer_n']) {
      const bytes = stream(6, 1000, name)
      const expected = Array.from({ length: 6000 }, (_, i) => BigInt(i))
      for (const size of [1, 5, 4096, 100_000]) {
        const { values, views } = decode(bytes, size)
        expect(values, `${name} in chunks of ${size}`).toEqual(expected)
        expect(views, `${name} in chunks of ${size}`).toBe(6)
      }
    }
  })

  it('peeks at the next block boundary and reports a cut stream', () => {
    const bytes = stream(2, 10)
    const decoder = new AlignedNativeDecoder(context)
    decoder.push(bytes.subarray(0, bytes.length - 1))
    expect(decoder.next(true)?.rows).toBe(10)
    expect(decoder.peek(2)).toEqual(Uint8Array.of(1, 10))
    expect(decoder.next(true)).toBeUndefined()
    expect(() => decoder.finish()).toThrow(ProtocolError)
  })

  it('uses the injected allocator for its buffers', () => {
    const sizes: number[] = []
    const decoder = new AlignedNativeDecoder(context, (size) => {
      sizes.push(size)
      return new Uint8Array(size)
    })
    decoder.push(stream(1, 10))
    expect(decoder.next()?.rows).toBe(10)
    expect(sizes).toEqual([4 << 20])
  })
})
