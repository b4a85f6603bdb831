import { describe, expect, it } from 'vitest'
import { context } from '../../test/support/codec-checks.js'
import { NativeBlockReader } from '../blocks/native-block-reader.js'
import { type ColumnToWrite, NativeBlockWriter } from '../blocks/native-block-writer.js'
import { ByteReader } from '../io/byte-reader.js'
import { ByteWriter } from '../io/byte-writer.js'
import { ColumnParts, joinValues, wholeColumn } from './column-parts.js'

/** Columns of every kind of codec, each as three parts of 2, 0 and 3 rows. */
const parts: { name: string; type: string; parts: unknown[][] | ArrayLike<unknown>[] }[] = [
  { name: 'u', type: 'UInt32', parts: [Uint32Array.of(1, 2), new Uint32Array(0), Uint32Array.of(3, 4, 5)] },
  { name: 'b', type: 'UInt64', parts: [[1n, 2n], [], [3, '4', 5n]] },
  { name: 's', type: 'String', parts: [['a', 'é'], [], ['', 'x'.repeat(300), 'z']] },
  { name: 'f', type: 'FixedString(3)', parts: [['ab', 'c'], [], ['', 'xyz', '€']] },
  { name: 'n', type: 'Nullable(String)', parts: [['a', null], [], [null, 'b', 'c']] },
  { name: 'a', type: 'Array(UInt8)', parts: [[[1], []], [], [[2, 3], [], [4]]] },
  { name: 'l', type: 'LowCardinality(String)', parts: [['x', 'y'], [], ['x', 'x', 'z']] },
]

function encode(columns: ColumnToWrite[], rows = 5): Uint8Array {
  const writer = new ByteWriter(16)
  new NativeBlockWriter({ ...context(), revision: 54412 }).write(writer, columns, rows)
  return writer.copy()
}

describe('ColumnParts', () => {
  it('encodes a block of columns in parts byte for byte like the joined columns', () => {
    const inParts = encode(
      parts.map(({ name, type, parts }) => ({ name, type, values: new ColumnParts(parts) })),
    )
    const joined = encode(parts.map(({ name, type, parts }) => ({ name, type, values: joinValues(parts) })))
    expect(inParts).toEqual(joined)
    const block = new NativeBlockReader({ ...context(), revision: 54412 }).read(new ByteReader(inParts))!
    expect(Array.from(block.columns[2]!.column.values())).toEqual(['a', 'é', '', 'x'.repeat(300), 'z'])
    expect(Array.from(block.columns[4]!.column.values())).toEqual(['a', null, null, 'b', 'c'])
  })

  it('writes only the rows of the block when the parts hold more', () => {
    const column = (values: ColumnToWrite['values']) => [{ name: 's', type: 'String', values }]
    expect(encode(column(new ColumnParts([['a'], ['b', 'c', 'd']])), 2)).toEqual(
      encode(column(['a', 'b']), 2),
    )
  })

  it('names the row of the whole column when a value in a later part is wrong', () => {
    const values = new ColumnParts([
      ['a', 'b'],
      ['c', 7],
    ])
    expect(() => encode([{ name: 's', type: 'String', values }], 4)).toThrow(
      /column \[0\] "s" String: row 3: 7/,
    )
    const numbers = new ColumnParts([Uint32Array.of(1), [2, -1]])
    expect(() => encode([{ name: 'u', type: 'UInt32', values: numbers }], 3)).toThrow(
      /row 2: -1 is not a valid UInt32/,
    )
  })

  it('encodes ranges of parts (a block cut from the middle of arrays) like the joined slices', () => {
    // Each column's parts padded with rows outside the range on both sides: 1 before and 2
    // after the first part, 3 before the last (and none after), the empty part as [1, 1).
    const pad = (part: unknown[] | ArrayLike<unknown>, before: number, after: number) => {
      const filler = (Array.isArray(part) ? part : Array.from(part))[0] ?? ''
      if (ArrayBuffer.isView(part)) {
        const typed = part as Uint32Array
        const out = new (typed.constructor as Uint32ArrayConstructor)(before + typed.length + after)
        out.set(typed, before)
        return out
      }
      return [...Array(before).fill(filler), ...(part as unknown[]), ...Array(after).fill(filler)]
    }
    const ranged = parts.map(({ name, type, parts: given }) => {
      const [first, empty, last] = given as unknown[][]
      const padded = [pad(first!, 1, 2), pad(empty!, 1, 1), pad(last!, 3, 0)]
      const starts = [1, 1, 3]
      const ends = [1 + first!.length, 1, 3 + last!.length]
      return { name, type, values: new ColumnParts(padded as unknown[][], starts, ends) }
    })
    const joined = encode(parts.map(({ name, type, parts }) => ({ name, type, values: joinValues(parts) })))
    expect(encode(ranged)).toEqual(joined)
    ranged.forEach(({ values }, index) => {
      expect(values.length).toBe(5)
      expect(Array.from(wholeColumn(values))).toEqual(Array.from(joinValues(parts[index]!.parts)))
    })
    const strings = ranged[2]!.values
    expect(Array.from(wholeColumn(strings))).toEqual(['a', 'é', '', 'x'.repeat(300), 'z'])
    expect(strings.part(0)).toEqual(['a', 'é'])
  })

  it('names the row of the whole column when a value in a ranged part is wrong', () => {
    const values = new ColumnParts(
      [
        ['x', 'a', 'b'],
        ['y', 'y', 'c', 7, 'z'],
      ],
      [1, 2],
      [3, 4],
    )
    expect(() => encode([{ name: 's', type: 'String', values }], 4)).toThrow(
      /column \[0\] "s" String: row 3: 7/,
    )
    const fixed = new ColumnParts(
      [
        ['x', 'a'],
        ['y', 'toolong'],
      ],
      [1, 1],
      [2, 2],
    )
    expect(() => encode([{ name: 'f', type: 'FixedString(2)', values: fixed }], 2)).toThrow(
      /column \[0\] "f" FixedString\(2\): row 1: .*7 bytes, longer than 2/,
    )
  })

  it('joins typed arrays of one kind into one typed array, anything else into a JS array', () => {
    expect(joinValues([Int16Array.of(1), Int16Array.of(2, 3)])).toEqual(Int16Array.of(1, 2, 3))
    expect(joinValues([Int16Array.of(1), [2]])).toEqual([1, 2])
    const single = ['only']
    expect(joinValues([single])).toBe(single)
    expect(wholeColumn(new ColumnParts([['a'], ['b']]))).toEqual(['a', 'b'])
    expect(wholeColumn(single)).toBe(single)
    expect(new ColumnParts([[1, 2], [], [3]]).length).toBe(3)
  })
})
