import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import type { NullableColumn } from './nullable-column.js'

describe('Nullable', () => {
  it('writes the null map, then the inner column with placeholders (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin([1, NULL, 3])::Nullable(UInt8)
    checkCodec({ type: 'Nullable(UInt8)', values: [1, null, 3], bytes: '000100 010003' })
    checkCodec({ type: 'Nullable(String)', values: ['a', null, ''], bytes: '000100 0161 00 00' })
  })

  it('reads any non-zero null-map byte as NULL and keeps the map as a view', () => {
    const bytes = fromHex('00ff 0500 0000 0600 0000')
    const column = decodeColumn('Nullable(Int32)', bytes, 2) as NullableColumn
    expect(column.values()).toEqual([5, null])
    expect(column.nulls.buffer).toBe(bytes.buffer)
    expect(column.values()).toBe(column.values())
  })

  it('accepts undefined as NULL and 64-bit values', () => {
    const column = decodeColumn('Nullable(Int64)', encodeColumn('Nullable(Int64)', [undefined, 5n]), 2)
    expect(column.values()).toEqual([null, 5n])
  })

  it('puts the type default behind every NULL', () => {
    expect(encodeColumn('Nullable(Float64)', [null])).toEqual(fromHex('01 0000000000000000'))
    expect(encodeColumn('Nullable(String)', [null, null])).toEqual(fromHex('0101 00 00'))
  })

  it('rejects a bad inner value with its row', () => {
    expect(() => encodeColumn('Nullable(UInt8)', [null, 'x'])).toThrow(/row 1/)
  })
})

describe('Nullable of scalar types', () => {
  it('uses 1970-01-01 and the first enum element behind NULLs (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin(['2017-01-04', NULL])::Nullable(Date)
    checkCodec({ type: 'Nullable(Date)', values: ['2017-01-04', null], bytes: '0001 1243 0000' })
    // chdb: SELECT arrayJoin([NULL, 'b'])::Nullable(Enum8('a' = 1, 'b' = 2))
    checkCodec({ type: "Nullable(Enum8('a' = 1, 'b' = 2))", values: [null, 'b'], bytes: '0100 0102' })
  })
})
