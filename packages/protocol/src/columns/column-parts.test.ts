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
