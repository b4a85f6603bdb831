import { describe, expect, it } from 'vitest'
import { context } from '../../test/support/codec-checks.js'
import { ColumnParts } from '../columns/column-parts.js'
import { UsageError } from '../errors/usage-error.js'
import { ByteWriter } from '../io/byte-writer.js'
import { type ColumnToWrite, NativeBlockWriter } from './native-block-writer.js'

const surrogate =
  'contains a lone UTF-16 surrogate, which has no UTF-8 encoding; pass a Uint8Array to store arbitrary bytes'

/** Writes `blocks` (each a list of columns and a row count) with one writer, as an insert does. */
function insertError(blocks: readonly (readonly [readonly ColumnToWrite[], number])[]): UsageError {
  const writer = new NativeBlockWriter(context(), false)
  try {
    for (const [columns, rows] of blocks) writer.write(new ByteWriter(), columns, rows)
  } catch (error) {
    expect(UsageError.isInstance(error)).toBe(true)
    return error as UsageError
  }
  throw new Error('the insert did not fail')
}

describe('insert errors', () => {
  it('refuse a lone surrogate in String and FixedString, naming column and row; ASCII and pairs pass', () => {
    const ok = ['plain', 'é', '😀', 'x'.repeat(200)]
    for (const type of ['String', 'FixedString(210)']) {
      const error = insertError([[[{ name: 's', type, values: [...ok, 'a\ud800', 'b'] }], 6]])
      expect(error.message).toBe(
        `column [0] "s" ${type}: row 4: "a\\ud800" is not a valid ${type} (${surrogate})`,
      )
      const low = insertError([[[{ name: 's', type, values: ['\udc00z'] }], 1]])
      expect(low.message).toBe(
        `column [0] "s" ${type}: row 0: "\\udc00z" is not a valid ${type} (${surrogate})`,
      )
    }
    const bytes = new NativeBlockWriter(context(), false)
    expect(() =>
      bytes.write(
        new ByteWriter(),
        [{ name: 's', type: 'String', values: [new Uint8Array([0xed, 0xa0, 0x80])] }],
        1,
      ),
    ).not.toThrow()
  })

  it('name the row of the whole insert, not of the block', () => {
    const values = (rows: number, bad?: number) =>
      Array.from({ length: rows }, (_, row) => (row === bad ? 'x' : row % 200))
    const error = insertError([
      [[{ name: 'n', type: 'UInt8', values: values(65536) }], 65536],
      [[{ name: 'n', type: 'UInt8', values: values(34464, 4464) }], 34464],
    ])
    expect(error.message).toBe('column [0] "n" UInt8: row 70000: "x" is not a valid UInt8')
  })

  it('name the row when the block comes in parts', () => {
    const parts = new ColumnParts([
      [1, 2, 3],
      [4, 'y', 6],
    ])
    const error = insertError([
      [[{ name: 'n', type: 'UInt8', values: [1, 2] }], 2],
      [[{ name: 'n', type: 'UInt8', values: parts }], 6],
    ])
    expect(error.message).toBe('column [0] "n" UInt8: row 6: "y" is not a valid UInt8')
  })

  it('name the row and the element path inside arrays, tuples and maps', () => {
    const arrays = [[1], [], [2, 3], [4], [5, 6, 7], [8, 9, 'x']]
    expect(insertError([[[{ name: 'tags', type: 'Array(UInt8)', values: arrays }], 6]]).message).toBe(
      'column [0] "tags" Array(UInt8): row 5, element [2]: "x" is not a valid UInt8',
    )
    const nested = [
      [[1], [2]],
      [[3], [4, 300]],
    ]
    expect(insertError([[[{ name: 'a', type: 'Array(Array(UInt8))', values: nested }], 2]]).message).toBe(
      'column [0] "a" Array(Array(UInt8)): row 1, element [1][1]: 300 is not a valid UInt8 (out of range)',
    )
    const tuples = [
      { id: 1, tags: ['a'] },
      { id: 2, tags: ['b', 7] },
    ]
    expect(
      insertError([[[{ name: 't', type: 'Tuple(id UInt8, tags Array(String))', values: tuples }], 2]])
        .message,
    ).toBe(
      'column [0] "t" Tuple(id UInt8, tags Array(String)): row 1, element .tags[1]: 7 is not a valid String (expected a string or Uint8Array)',
    )
    const maps = [
      new Map([['k', 1]]),
      new Map([
        ['k', 1],
        ['j', -1],
      ]),
    ]
    expect(insertError([[[{ name: 'm', type: 'Map(String, UInt8)', values: maps }], 2]]).message).toBe(
      'column [0] "m" Map(String, UInt8): row 1, element ["j"]: -1 is not a valid UInt8 (out of range)',
    )
    const nullable = [['a'], [null, 'b\udfff']]
    expect(
      insertError([[[{ name: 's', type: 'Array(Nullable(String))', values: nullable }], 2]]).message,
    ).toBe(
      `column [0] "s" Array(Nullable(String)): row 1, element [1]: "b\\udfff" is not a valid String (${surrogate})`,
    )
  })

  it('refuse flattened Nested arrays of different lengths in one row, naming the row and the Nested', () => {
    const columns = (b: unknown[][]): ColumnToWrite[] => [
      { name: 'id', type: 'UInt8', values: [1, 2, 3] },
      { name: 'n.a', type: 'Array(UInt8)', values: [[1], [2, 3], []] },
      { name: 'n.b', type: 'Array(String)', values: b },
    ]
    const error = insertError([
      [columns([['x'], ['y', 'z'], []]), 3],
      [columns([['x'], ['y'], []]), 3],
    ])
    expect(error.message).toBe(
      'row 4: the arrays of Nested "n" differ in length (n.a 2, n.b 1); each row needs arrays of one length',
    )
  })
})
