import { describe, expect, it } from 'vitest'
import { ByteReader } from '../io/byte-reader.js'
import { ByteWriter } from '../io/byte-writer.js'
import { context } from '../test-support/codec-checks.js'
import { rowArrays, rowBuilder, rowObjects } from './block-rows.js'
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

  it('treats any column name as data, __proto__ and quotes included', () => {
    const build = rowBuilder(['__proto__', 'a"b', "c'd\n", 'constructor'])
    const row = build([[{ polluted: true }], [1], [2], [3]], 0)
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
    expect(Object.keys(row)).toEqual(['__proto__', 'a"b', "c'd\n", 'constructor'])
    expect(row['a"b']).toBe(1)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
