import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import type { JsonColumn } from './json-column.js'
import { typedValue } from './typed-value.js'

const rows = ['{"a":{"b":1},"c":"x"}', '{"a":{"b":2}, "d":[1,2]}', '{}']
const dynamicPrefix = (name: string) => `0100000000000000 01 01 ${name} 0000000000000000`
const int64 = '05496e743634'
const string = '06537472696e67'
const arrayOfNullable = '164172726179284e756c6c61626c6528496e7436342929'
const shared3 = '0000000000000000 0000000000000000 0000000000000000'

describe('JSON', () => {
  it('V1: sorted dynamic paths, each a Dynamic, then empty shared data (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin([...rows])::JSON
    checkCodec({
      type: 'JSON',
      values: [{ a: { b: 1 }, c: 'x' }, { a: { b: 2 }, d: typedValue('Array(Nullable(Int64))', [1, 2]) }, {}],
      decoded: [{ a: { b: 1n }, c: 'x' }, { a: { b: 2n }, d: [1n, 2n] }, {}],
      bytes:
        `0000000000000000 03 03 03612e62 0163 0164 ${dynamicPrefix(int64)} ${dynamicPrefix(string)} ${dynamicPrefix(arrayOfNullable)}` +
        '0000ff 0100000000000000 0200000000000000' +
        '01ffff 0178' +
        'ff00ff 0200000000000000 0000 0100000000000000 0200000000000000' +
        shared3,
    })
  })

  it('puts typed paths first and always fills them (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin([...rows])::JSON(a.b UInt32, SKIP z)
    checkCodec({
      type: 'JSON(`a.b` UInt32, SKIP z)',
      values: [
        { a: { b: 1 }, c: 'x', z: 5 },
        { a: { b: 2 }, d: typedValue('Array(Nullable(Int64))', [1, 2]) },
        {},
      ],
      decoded: [{ a: { b: 1 }, c: 'x' }, { a: { b: 2 }, d: [1n, 2n] }, { a: { b: 0 } }],
      bytes:
        `0000000000000000 02 02 0163 0164 ${dynamicPrefix(string)} ${dynamicPrefix(arrayOfNullable)}` +
        '01000000 02000000 00000000' +
        '01ffff 0178' +
        'ff00ff 0200000000000000 0000 0100000000000000 0200000000000000' +
        shared3,
    })
  })

  it('reads paths kept in the shared data (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin([...rows])::JSON(max_dynamic_paths=1)
    const bytes = fromHex(
      `0000000000000000 01 01 03612e62 ${dynamicPrefix(int64)} 0000ff 0100000000000000 0200000000000000` +
        '0100000000000000 0200000000000000 0200000000000000 0163 0164' +
        '03 150178 16 1e230a 02 00 0100000000000000 00 0200000000000000',
    )
    const column = decodeColumn('JSON(max_dynamic_paths=1)', bytes, 3) as JsonColumn
    const expected = [{ a: { b: 1n }, c: 'x' }, { a: { b: 2n }, d: [1n, 2n] }, {}]
    expect(column.values()).toEqual(expected)
    expect([0, 1, 2].map((row) => column.get(row))).toEqual(expected)
  })

  it('reads the FLATTENED and STRING layouts (bytes from ClickHouse)', () => {
    const flat = fromHex(
      '0300000000000000 03 03612e62 0163 0164' +
        `0300000000000000 01 ${int64} 0300000000000000 01 ${string} 0300000000000000 01 ${arrayOfNullable}` +
        '000001 0100000000000000 0200000000000000' +
        '000101 0178' +
        '010001 0200000000000000 0000 0100000000000000 0200000000000000',
    )
    expect(decodeColumn('JSON', flat, 3).values()).toEqual([
      { a: { b: 1n }, c: 'x' },
      { a: { b: 2n }, d: [1n, 2n] },
      {},
    ])
    const text = fromHex('0100000000000000 15 7b2261223a7b2262223a317d2c2263223a2278227d 02 7b7d')
    expect(decodeColumn('JSON', text, 2).values()).toEqual([{ a: { b: 1 }, c: 'x' }, {}])
  })

  it('accepts JSON text rows, nests deeply and keeps __proto__ a plain key', () => {
    const bytes = encodeColumn('JSON', [rows[0], { x: { y: { z: ['a'] } }, ['__proto__']: { k: 1 } }])
    const values = decodeColumn('JSON', bytes, 2).values()
    expect(values[0]).toEqual({ a: { b: 1n }, c: 'x' })
    expect(values[1]).toEqual(
      JSON.parse('{"x":{"y":{"z":["a"]}},"__proto__":{"k":1}}', (_k, v) => (v === 1 ? 1n : v)),
    )
    expect(Object.getPrototypeOf(values[1])).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).k).toBeUndefined()
  })

  it('rejects rows that are not objects', () => {
    expect(() => encodeColumn('JSON', [[1]])).toThrow(/row 0: expected an object/)
    expect(() => encodeColumn('JSON', ['{'])).toThrow(/row 0/)
  })
})
