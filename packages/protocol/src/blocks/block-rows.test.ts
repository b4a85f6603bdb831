import { describe, expect, it } from 'vitest'
import { context } from '../../test/support/codec-checks.js'
import { ByteReader } from '../io/byte-reader.js'
import { ByteWriter } from '../io/byte-writer.js'
import { loopFactory, rowArrays, rowFactory, rowObjects } from './block-rows.js'
import { NativeBlockReader } from './native-block-reader.js'
import { NativeBlockWriter } from './native-block-writer.js'

function block(columns: { name: string; type: string; values: unknown[] }[]) {
  const writer = new ByteWriter()
  new NativeBlockWriter({ ...context(), revision: 0 }, false).write(
    writer,
    columns,
    columns[0]!.values.length,
  )
  return new NativeBlockReader({ ...context(), revision: 0 }, false).read(new ByteReader(writer.copy()))!
}

describe('rows from a block', () => {
  it('builds plain objects and arrays from the columns', () => {
    const b = block([
      { name: 'id', type: 'UInt32', values: [1, 2] },
      { name: 'name', type: 'String', values: ['a', 'b'] },
    ])
    const rows = rowObjects(b)
    expect(rows).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ])
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype)
    expect(rowArrays(b)).toEqual([
      [1, 'a'],
      [2, 'b'],
    ])
  })

  it.each([
    ['generated code', rowFactory],
    ['a loop (no code generation)', loopFactory],
  ])('treats any column name as data, __proto__ and quotes included, with %s', (_, factory) => {
    const names = ['__proto__', 'a"b', "c'd\n", 'constructor', '\u2028}', 'a"b']
    const read = factory(names)([
      [{ polluted: true }, 'x'],
      [1, 2],
      [2, 3],
      [3, 4],
      [5, 6],
      [7, 8],
    ])
    const row = read(0)
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
    expect(Object.keys(row)).toEqual(['__proto__', 'a"b', "c'd\n", 'constructor', '\u2028}'])
    // Later columns win on duplicate names.
    expect(row['a"b']).toBe(7)
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ polluted: true })
    expect(read(1)).toEqual(
      Object.fromEntries([
        ['__proto__', 'x'],
        ['a"b', 8],
        ["c'd\n", 3],
        ['constructor', 4],
        ['\u2028}', 6],
      ]),
    )
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
