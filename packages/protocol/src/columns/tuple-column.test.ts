import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn } from '../../test/support/codec-checks.js'

describe('Tuple', () => {
  it('writes each element column in turn (bytes from ClickHouse)', () => {
    // chdb: SELECT (1,'x')::Tuple(a UInt8, `b c` String)
    checkCodec({ type: 'Tuple(a UInt8, `b c` String)', values: [{ a: 1, 'b c': 'x' }], bytes: '01 0178' })
    checkCodec({
      type: 'Tuple(UInt8, String)',
      values: [
        [1, 'x'],
        [2, ''],
      ],
      bytes: '0102 0178 00',
    })
  })

  it('accepts arrays for named tuples and reads them back as objects', () => {
    const bytes = encodeColumn('Tuple(a UInt8, `b c` String)', [[1, 'x']])
    expect(decodeColumn('Tuple(a UInt8, `b c` String)', bytes, 1).get(0)).toEqual({ a: 1, 'b c': 'x' })
  })

  it('nests and keeps 64-bit and nullable elements', () => {
    checkCodec({
      type: 'Tuple(Array(Nullable(Int64)), Tuple(s String, m Map(String, UInt8)))',
      values: [
        [[1n, null], { s: 'a', m: new Map([['k', 1]]) }],
        [[], { s: '', m: new Map() }],
      ],
    })
  })

  it('Tuple() writes one 0x30 byte per row and reads back empty arrays', () => {
    // chdb: SELECT () FROM numbers(3)
    checkCodec({ type: 'Tuple()', values: [[], [], []], bytes: '303030' })
    // chdb: SELECT [()]::Array(Tuple()) FROM numbers(2)
    checkCodec({
      type: 'Array(Tuple())',
      values: [[[]], [[]]],
      bytes: '0100000000000000 0200000000000000 3030',
    })
  })

  it('keeps a __proto__ element as a plain key', () => {
    const value = decodeColumn(
      'Tuple(__proto__ UInt8)',
      encodeColumn('Tuple(__proto__ UInt8)', [[7]]),
      1,
    ).get(0)
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value as object)).toEqual(['__proto__'])
  })

  it('rejects rows of the wrong shape', () => {
    expect(() => encodeColumn('Tuple(UInt8, UInt8)', [[1]])).toThrow(/row 0: expected 2 elements/)
    expect(() => encodeColumn('Tuple(UInt8)', [{ a: 1 }])).toThrow(/expected an array/)
  })
})
