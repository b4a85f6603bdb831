import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { typedValue } from './typed-value.js'
import type { VariantColumn } from './variant-column.js'

describe('Variant', () => {
  it('numbers alternatives in type-name order, 255 for NULL (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin([1::Variant(String,UInt8), 'x', NULL, 7]): String is 0, UInt8 is 1.
    checkCodec({
      type: 'Variant(UInt8, String)',
      values: [1, 'x', null, 7],
      bytes: '0000000000000000 0100ff01 0178 0107',
    })
    // chdb: SELECT arrayJoin([NULL, NULL])::Variant(String, UInt8)
    checkCodec({ type: 'Variant(String, UInt8)', values: [null, null], bytes: '0000000000000000 ffff' })
  })

  it('composes alternative prefixes, and writes nothing for empty alternatives (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin([[1]::Variant(Array(UInt64), LowCardinality(String), Tuple(a UInt8)), 'a', NULL,
    //   tuple(5)::Tuple(a UInt8), [2,3]])
    const type = 'Variant(Array(UInt64), Array(UInt8), LowCardinality(String), String, Tuple(a UInt8))'
    const column = checkCodec({
      type,
      values: [typedValue('Array(UInt8)', [1]), 'a', null, { a: 5 }, typedValue('Array(UInt8)', [2, 3])],
      decoded: [[1], 'a', null, { a: 5 }, [2, 3]],
      bytes:
        '0000000000000000 0100000000000000 0103ff0401' + '0100000000000000 0300000000000000 010203 0161 05',
    }) as VariantColumn
    expect(Array.from(column.discriminators)).toEqual([1, 3, 255, 4, 1])
  })

  it('infers the alternative from the JS value', () => {
    const type = 'Variant(Float64, Int64, String, Array(String))'
    const values = [1.5, 2, 'x', ['a'], 3n]
    expect(decodeColumn(type, encodeColumn(type, values), values.length).values()).toEqual([
      1.5,
      2n,
      'x',
      ['a'],
      3n,
    ])
    expect(
      decodeColumn('Variant(UInt8, Int64)', encodeColumn('Variant(UInt8, Int64)', [300, 3]), 2).values(),
    ).toEqual([300n, 3])
  })

  it('reads the compact discriminators mode', () => {
    // Mode 1: granules of <rows><format><discriminator(s)>: 2 rows all UInt8, then 2 plain rows.
    const bytes = fromHex('0100000000000000 02 01 01 02 00 00ff 0178 0708')
    expect(decodeColumn('Variant(String, UInt8)', bytes, 4).values()).toEqual([7, 8, 'x', null])
  })

  it('rejects unknown discriminators, modes and alternatives', () => {
    expect(() => decodeColumn('Variant(String, UInt8)', fromHex('0000000000000000 02'), 1)).toThrow(
      ProtocolError,
    )
    expect(() => decodeColumn('Variant(String, UInt8)', fromHex('0200000000000000'), 0)).toThrow(/mode 2/)
    expect(() => encodeColumn('Variant(String, UInt8)', [typedValue('Int8', 1)])).toThrow(
      /not an alternative/,
    )
    expect(() => encodeColumn('Variant(String, UInt8)', [1.5])).toThrow(/row 0: no alternative/)
  })
})

describe('Variant of scalar types', () => {
  it('picks Bool, Date and IPv4 from JS values (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin([true::Variant(Bool, Date, IPv4), '2017-01-04'::Date, '1.2.3.4'::IPv4, NULL])
    checkCodec({
      type: 'Variant(Bool, Date, IPv4)',
      values: [true, '2017-01-04', '1.2.3.4', null],
      bytes: '0000000000000000 000102ff 01 1243 04030201',
    })
  })
})
