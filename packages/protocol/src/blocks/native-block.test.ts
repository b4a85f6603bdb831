import { describe, expect, it } from 'vitest'
import { context, fromHex, hex } from '../../test/support/codec-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { ByteReader } from '../io/byte-reader.js'
import { ByteWriter } from '../io/byte-writer.js'
import { NativeBlockReader } from './native-block-reader.js'
import { NativeBlockWriter } from './native-block-writer.js'

const columns = [
  { name: 'n', type: 'UInt64', values: [1n, 2n, 3n] },
  { name: 's', type: 'String', values: ['a', 'bc', ''] },
]

function encode(revision: number, rows = 3) {
  const writer = new ByteWriter()
  new NativeBlockWriter({ ...context(), revision }).write(writer, columns, rows)
  return writer.copy()
}

describe('Native blocks', () => {
  it('writes BlockInfo and the custom-serialization byte only from their revisions', () => {
    const body = '0203' + '016e' + '0655496e743634' + '010000000000000002000000000000000300000000000000'
    const strings = '0173' + '06537472696e67' + '0161' + '026263' + '00'
    expect(hex(encode(0))).toBe(body + strings)
    const info = '0100' + '02ffffffff' + '00'
    expect(hex(encode(54412))).toBe(info + body + strings)
    const custom =
      info + '0203' + '016e' + '0655496e743634' + '00' + '010000000000000002000000000000000300000000000000'
    expect(hex(encode(54460))).toBe(custom + '0173' + '06537472696e67' + '00' + '0161' + '026263' + '00')
  })

  it.each([0, 54412, 54460])('round-trips at revision %i', (revision) => {
    const bytes = encode(revision)
    const block = new NativeBlockReader({ ...context(), revision }).read(new ByteReader(bytes))!
    expect(block.rows).toBe(3)
    expect(block.columns.map((c) => [c.name, c.typeName, Array.from(c.column.values())])).toEqual([
      ['n', 'UInt64', [1n, 2n, 3n]],
      ['s', 'String', ['a', 'bc', '']],
    ])
  })

  it('writes no data for zero rows', () => {
    const bytes = encode(54460, 0)
    const block = new NativeBlockReader({ ...context(), revision: 54460 }).read(new ByteReader(bytes))!
    expect(block.rows).toBe(0)
    expect(block.columns.map((c) => c.column.length)).toEqual([0, 0])
  })

  it('reports every truncation as missing input, at every offset', () => {
    const bytes = encode(54460)
    for (let cut = 0; cut < bytes.length; cut++) {
      const reader = new ByteReader(bytes.subarray(0, cut))
      expect(new NativeBlockReader({ ...context(), revision: 54460 }).read(reader)).toBeUndefined()
      expect(reader.missing).toBeGreaterThan(cut)
    }
  })

  it('resumes a short block at the column it stopped in, as input grows in the same bytes', () => {
    const bytes = encode(54460)
    const blocks = new NativeBlockReader({ ...context(), revision: 54460 })
    const reader = new ByteReader()
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(blocks.read(reader.reset(bytes, 0, cut))).toBeUndefined()
    }
    const block = blocks.read(reader.reset(bytes, 0, bytes.length))!
    expect(block.columns.map((c) => Array.from(c.column.values()))).toEqual([
      [1n, 2n, 3n],
      ['a', 'bc', ''],
    ])
    expect(reader.offset).toBe(bytes.length)
  })

  it('starts over when the bytes, the start or the input length do not continue the short attempt', () => {
    const bytes = encode(54460)
    const blocks = new NativeBlockReader({ ...context(), revision: 54460 })
    const reader = new ByteReader()
    const cut = bytes.length - 3
    expect(blocks.read(reader.reset(bytes, 0, cut))).toBeUndefined()
    // Other bytes with the same layout: the columns decoded from the first ones must not be reused.
    const other = encode(54460)
    other.set(fromHex('0900000000000000'), other.length - 24)
    const block = blocks.read(reader.reset(other, 0, other.length))!
    expect(Array.from(block.columns[0]!.column.values())).toEqual([1n, 2n, 9n])
    // A shorter input than the attempt saw starts over too (and runs short again).
    expect(blocks.read(reader.reset(bytes, 0, cut))).toBeUndefined()
    expect(blocks.read(reader.reset(bytes, 0, 10))).toBeUndefined()
    expect(blocks.read(reader.reset(bytes, 0, bytes.length))!.rows).toBe(3)
  })

  describe('an unaligned last column of plain fixed-width values', () => {
    const block = (lastType: string, values: unknown[]) => {
      const writer = new ByteWriter()
      new NativeBlockWriter({ ...context(), revision: 0 }).write(
        writer,
        [
          { name: 's', type: 'String', values: ['x', 'y'] },
          { name: 'last', type: lastType, values },
        ],
        2,
      )
      return writer.copy()
    }
    /** The block placed `shift` bytes into a larger buffer, and a reader of it. */
    const placed = (bytes: Uint8Array, shift: number, ownsInput: boolean) => {
      const input = new Uint8Array(bytes.length + 8)
      input.set(bytes, shift)
      const reader = new ByteReader(input, shift, shift + bytes.length)
      reader.ownsInput = ownsInput
      return { input, reader }
    }
    const shifts = [0, 1, 2, 3, 4, 5, 6, 7]

    it.each(shifts)(
      "moves over its own name and type into alignment when the input is the stream layer's (shift %i)",
      (shift) => {
        const bytes = block('UInt64', [7n, 2n ** 64n - 1n])
        const { input, reader } = placed(bytes, shift, true)
        const read = new NativeBlockReader({ ...context(), revision: 0 }).read(reader)!
        const values = read.columns[1]!.column.values() as BigUint64Array
        expect(values.buffer).toBe(input.buffer)
        expect(Array.from(values)).toEqual([7n, 2n ** 64n - 1n])
        expect(read.columns[0]!.column.values()).toEqual(['x', 'y'])
        expect(reader.offset).toBe(shift + bytes.length)
      },
    )

    it.each(shifts)(
      "is copied, leaving the input untouched, when the input is the caller's (shift %i)",
      (shift) => {
        const { input, reader } = placed(block('UInt64', [7n, 8n]), shift, false)
        const before = input.slice()
        const read = new NativeBlockReader({ ...context(), revision: 0 }).read(reader)!
        expect(Array.from(read.columns[1]!.column.values())).toEqual([7n, 8n])
        expect(input).toEqual(before)
      },
    )

    it.each([
      ['Array(UInt64)', [[1n], [2n, 3n]]],
      ['Nullable(UInt64)', [5n, null]],
      [
        'Tuple(UInt64, String)',
        [
          [1n, 'a'],
          [2n, 'b'],
        ],
      ],
    ])('is never moved for %s, whose decoding reads more than one run of values', (type, values) => {
      for (const shift of shifts) {
        const { input, reader } = placed(block(type, values), shift, true)
        const before = input.slice()
        const read = new NativeBlockReader({ ...context(), revision: 0 }).read(reader)!
        expect(Array.from(read.columns[1]!.column.values())).toEqual(values)
        expect(input).toEqual(before)
      }
    })
  })

  it('refuses a block that announces rows but has no columns', () => {
    // Revision 0 layout: column count 0, then 1000 rows (LEB128 e8 07) that no bytes hold.
    const read = () =>
      new NativeBlockReader({ ...context(), revision: 0 }).read(new ByteReader(fromHex('00 e807')))
    expect(read).toThrow(ProtocolError)
    expect(read).toThrow('block with 1000 rows and no columns')
  })

  it('names the column when a type is unknown', () => {
    const bytes = fromHex('0101 0178 03466f6f 00')
    const read = () => new NativeBlockReader({ ...context(), revision: 0 }).read(new ByteReader(bytes))
    expect(read).toThrow(ProtocolError)
    expect(read).toThrow('column [0] "x" Foo: no codec for ClickHouse type Foo')
  })
})
