import { describe, expect, it } from 'vitest'
import { context } from '../../test/support/codec-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { ByteReader } from '../io/byte-reader.js'
import { ByteWriter } from '../io/byte-writer.js'
import { NativeBlockReader } from './native-block-reader.js'
import { NativeBlockWriter } from './native-block-writer.js'
import { NativeStreamDecoder } from './native-stream-decoder.js'

const at0 = { ...context(), revision: 0 }

function varUInt(value: number): number[] {
  const out: number[] = []
  let rest = value
  do {
    out.push((rest & 0x7f) | (rest >= 0x80 ? 0x80 : 0))
    rest = Math.floor(rest / 128)
  } while (rest > 0)
  return out
}
const text = (value: string) => [...varUInt(value.length), ...new TextEncoder().encode(value)]

/** A block of one row of a String column whose value declares `length` bytes, `sent` of them present. */
function stringBlock(length: number, sent: number): Uint8Array {
  return Uint8Array.from([
    1,
    1,
    ...text('s'),
    ...text('String'),
    ...varUInt(length),
    ...new Array(sent).fill(0x61),
  ])
}

/** Blocks of `rows` UInt32 rows each, written by our encoder (the input, not the oracle). */
function uint32Blocks(rows: number[]): Uint8Array {
  const writer = new ByteWriter()
  const blocks = new NativeBlockWriter(at0, false)
  for (const count of rows)
    blocks.write(
      writer,
      [{ name: 'x', type: 'UInt32', values: Uint32Array.from({ length: count }, (_, i) => i) }],
      count,
    )
  return writer.copy()
}

const overLimit = (size: number, limit: number) =>
  new RegExp(`^a block of at least ${size} bytes is over maxBlockBytes \\(${limit}\\)`)

describe('maxBlockBytes in NativeBlockReader', () => {
  it('refuses a value that declares more than the limit while its bytes are still to come', () => {
    const reader = new NativeBlockReader(at0, false, 1000)
    // 11 bytes of header and length, then 2000 declared: short, and over the limit.
    const input = new ByteReader(stringBlock(2000, 10))
    expect(() => reader.read(input)).toThrow(ProtocolError)
    expect(() => new NativeBlockReader(at0, false, 1000).read(new ByteReader(stringBlock(2000, 10)))).toThrow(
      overLimit(2013, 1000),
    )
  })

  it('waits for a value within the limit, and decodes it whole', () => {
    const reader = new NativeBlockReader(at0, false, 1000)
    const bytes = stringBlock(987, 987)
    expect(bytes.length).toBe(1000)
    expect(reader.read(new ByteReader(bytes.subarray(0, 500)))).toBeUndefined()
    const block = reader.read(new ByteReader(bytes))
    expect(block!.columns[0]!.column.get(0)).toBe('a'.repeat(987))
  })

  it('refuses a complete block over the limit, and rows × columns over it before any column', () => {
    expect(() => new NativeBlockReader(at0, false, 999).read(new ByteReader(stringBlock(987, 987)))).toThrow(
      overLimit(1000, 999),
    )
    // 3000 rows of one column: at least a byte each, whatever the type.
    const header = Uint8Array.from([1, ...varUInt(3000)])
    expect(() => new NativeBlockReader(at0, false, 2999).read(new ByteReader(header))).toThrow(
      overLimit(3000, 2999),
    )
  })
})

describe('NativeStreamDecoder: the end of the data and maxBlockBytes', () => {
  const good = uint32Blocks([3, 2])
  const end = [0, 0]

  function decodeAll(chunks: Uint8Array[], maxBlockBytes?: number): number[] {
    const decoder = new NativeStreamDecoder(at0, false, maxBlockBytes)
    const rows: number[] = []
    for (const chunk of chunks) {
      decoder.push(chunk)
      for (let block = decoder.next(); block; block = decoder.next()) rows.push(block.rows)
    }
    for (let block = decoder.next(true); block; block = decoder.next(true)) rows.push(block.rows)
    decoder.finish()
    return rows
  }

  it('takes a block of no columns as the end of the data, and does not return it', () => {
    expect(decodeAll([good, Uint8Array.from(end)])).toEqual([3, 2])
    expect(decodeAll([Uint8Array.from([...good, ...end])])).toEqual([3, 2])
  })

  it('refuses bytes after the end, in the same chunk or a later one', () => {
    const trailing = /^trailing bytes after the end of the data: 1 bytes after a block of no columns/
    expect(() => decodeAll([Uint8Array.from([...good, ...end, 7])])).toThrow(trailing)
    expect(() => decodeAll([Uint8Array.from([...good, ...end]), Uint8Array.from([7])])).toThrow(trailing)
  })

  it('refuses zero bytes after a good block at once, instead of decoding endless empty blocks', () => {
    const zeros = new Uint8Array(8 << 20)
    const started = process.cpuUsage()
    expect(() => decodeAll([good, zeros])).toThrow(
      /^trailing bytes after the end of the data: 8388606 bytes after a block of no columns/,
    )
    const cpu = process.cpuUsage(started)
    // Generous for a loaded machine: decoding 4 million empty blocks took minutes.
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(2000)
  })

  it('passes its limit to the block reader: a value over it fails before its bytes arrive', () => {
    const decoder = new NativeStreamDecoder(at0, false, 4096)
    decoder.push(stringBlock(1 << 30, 100))
    expect(() => decoder.next(true)).toThrow(overLimit(2 ** 30 + 16, 4096))
    expect(decodeAll([uint32Blocks([1000])], 4096)).toEqual([1000])
  })
})
