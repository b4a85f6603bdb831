import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn } from '../../test/support/codec-checks.js'

describe('Map', () => {
  it('writes offsets, all keys, then all values (bytes from ClickHouse)', () => {
    // chdb: SELECT map('a',[1,2],'b',[])::Map(String,Array(UInt64))
    checkCodec({
      type: 'Map(String, Array(UInt64))',
      values: [
        new Map([
          ['a', [1n, 2n]],
          ['b', []],
        ]),
      ],
      bytes: '0200000000000000 0161 0162 0200000000000000 0200000000000000 0100000000000000 0200000000000000',
    })
    // chdb: SELECT map('k', toLowCardinality('v'))::Map(String, LowCardinality(String)): the
    // value's LowCardinality prefix comes before the offsets.
    checkCodec({
      type: 'Map(String, LowCardinality(String))',
      values: [new Map([['k', 'v']])],
      bytes:
        '0100000000000000 0100000000000000 016b 0006000000000000 0200000000000000 00 0176 0100000000000000 01',
    })
  })

  it('keeps entries in wire order and accepts objects and pair lists', () => {
    const bytes = encodeColumn('Map(String, UInt8)', [{ z: 1, a: 2 }, [['k', 3]], new Map()])
    const column = decodeColumn('Map(String, UInt8)', bytes, 3)
    expect([...(column.get(0) as Map<string, number>).keys()]).toEqual(['z', 'a'])
    expect(column.values()).toEqual([
      new Map([
        ['z', 1],
        ['a', 2],
      ]),
      new Map([['k', 3]]),
      new Map(),
    ])
  })

  it('rejects malformed rows', () => {
    expect(() => encodeColumn('Map(String, UInt8)', [[['a']]])).toThrow(/\[key, value\] pairs/)
    expect(() => encodeColumn('Map(String, UInt8)', ['x'])).toThrow(/row 0/)
  })
})

describe('Map of scalar types', () => {
  it('Map(UUID, Decimal(10, 2)) (bytes from ClickHouse)', () => {
    // chdb: SELECT map('61f0c404-5cb3-11e7-907b-a6006ad3dba0'::UUID, -12.5::Decimal(10,2))
    checkCodec({
      type: 'Map(UUID, Decimal(10, 2))',
      values: [new Map([['61f0c404-5cb3-11e7-907b-a6006ad3dba0', '-12.50']])],
      bytes: '0100000000000000 e711b35c04c4f061a0dbd36a00a67b90 1efbffffffffffff',
    })
  })
})
