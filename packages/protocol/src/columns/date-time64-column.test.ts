import { describe, expect, it } from 'vitest'
import { checkCodec, context, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import type { DateTime64Column } from './date-time64-column.js'

describe('DateTime64', () => {
  it('writes Int64 ticks; nanoseconds reach from 1900 to the Int64 limit in 2262', () => {
    // chdb: toDateTime64('1900-01-01 00:00:00', 9, 'UTC'), ('2262-04-11 23:47:16.854775807', 9, 'UTC'),
    // ('2021-11-07 01:30:00.123456789', 9, 'America/New_York') written into a UTC column.
    checkCodec({
      type: "DateTime64(9, 'UTC')",
      values: [
        '1900-01-01 00:00:00.000000000',
        '2262-04-11 23:47:16.854775807',
        '2021-11-07 05:30:00.123456789',
      ],
      bytes: '00002fdf631858e1 ffffffffffffff7f 153d7981872cb516',
    })
  })

  it('prints exactly p fraction digits, none for p = 0, on the column clock', () => {
    checkCodec({ type: "DateTime64(0, 'UTC')", values: ['2299-12-31 23:59:59'], bytes: 'ffdab56c02000000' })
    checkCodec({
      type: "DateTime64(1, 'America/New_York')",
      values: ['2021-03-14 01:59:59.5'],
      bytes: '5b0c09c303000000',
    })
    checkCodec({
      type: "DateTime64(6, 'Europe/Moscow')",
      values: ['1925-06-01 12:00:00.000001'],
      bytes: '01880e145a00fbff',
    })
  })

  it('uses the local mean time ClickHouse uses for Moscow before 1919', () => {
    // chdb: toUnixTimestamp64Second(toDateTime64('1900-01-01 00:00:00', 0, 'Europe/Moscow')) = -2208997817,
    // and 1919-07-01 00:00:00 = -1593837079 (+4:31:19).
    const type = "DateTime64(0, 'Europe/Moscow')"
    const column = decodeColumn(type, encodeColumn(type, ['1900-01-01 00:00:00', '1919-07-01 00:00:00']), 2)
    expect(Array.from((column as DateTime64Column).data)).toEqual([-2208997817n, -1593837079n])
    expect(Array.from(column.values())).toEqual(['1900-01-01 00:00:00', '1919-07-01 00:00:00'])
  })

  it('splits negative ticks into the earlier second and a positive fraction', () => {
    checkCodec({
      type: "DateTime64(3, 'UTC')",
      values: [-1n, -1001n, '1969-12-31 23:59:59.5'],
      decoded: ['1969-12-31 23:59:59.999', '1969-12-31 23:59:58.999', '1969-12-31 23:59:59.500'],
      bytes: 'ffffffffffffffff 17fcffffffffffff 0cfeffffffffffff',
    })
  })

  it('gives Dates truncated to the millisecond in date mode', () => {
    const type = "DateTime64(6, 'UTC')"
    const bytes = encodeColumn(type, ['2021-01-01 00:00:00.123999', '1969-12-31 23:59:59.999999'])
    const column = decodeColumn(type, bytes, 2, context({ dates: 'date' }))
    expect(column.values()).toEqual([
      new Date('2021-01-01T00:00:00.123Z'),
      new Date('1969-12-31T23:59:59.999Z'),
    ])
    const coarse = decodeColumn(
      "DateTime64(1, 'UTC')",
      encodeColumn("DateTime64(1, 'UTC')", [1.5]),
      1,
      context({ dates: 'date' }),
    )
    expect(coarse.get(0)).toEqual(new Date(1500))
  })

  it('takes numbers as seconds, bigints as ticks, and drops digits past the precision like ClickHouse', () => {
    // chdb: '2020-01-01 00:00:00.129' and 1577836800.25 read into DateTime64(1) as .1 and .2.
    const type = "DateTime64(1, 'UTC')"
    const inputs = [
      '2020-01-01 00:00:00.129',
      1577836800.25,
      15778368002n,
      new Date('2020-01-01T00:00:00.299Z'),
      '2020-01-01T03:00:00.2+03:00',
      1.15,
    ]
    const column = decodeColumn(type, encodeColumn(type, inputs), inputs.length)
    expect(Array.from(column.values())).toEqual([
      '2020-01-01 00:00:00.1',
      '2020-01-01 00:00:00.2',
      '2020-01-01 00:00:00.2',
      '2020-01-01 00:00:00.2',
      '2020-01-01 00:00:00.2',
      '1970-01-01 00:00:01.1',
    ])
  })

  it('accepts a BigInt64Array of ticks within the range', () => {
    expect(encodeColumn("DateTime64(3, 'UTC')", new BigInt64Array([1n]))).toEqual(fromHex('0100000000000000'))
    expect(() => encodeColumn("DateTime64(3, 'UTC')", new BigInt64Array([0n, -2208988800001n]))).toThrow(
      /row 1: -2208988800001n is not a valid DateTime64\(3\) \(out of range/,
    )
  })

  it('rejects instants outside 1900-01-01..2299-12-31 on the column clock, and past Int64 for p = 9', () => {
    expect(() => encodeColumn("DateTime64(3, 'UTC')", ['1899-12-31 23:59:59.999'])).toThrow(
      /row 0: .*\(out of range/,
    )
    expect(() => encodeColumn("DateTime64(3, 'UTC')", ['2300-01-01 00:00:00'])).toThrow(/out of range/)
    expect(() => encodeColumn("DateTime64(3, 'Asia/Tokyo')", ['1900-01-01 00:00:00'])).not.toThrow()
    expect(() => encodeColumn("DateTime64(3, 'Asia/Tokyo')", ['1899-12-31 23:59:59'])).toThrow(/out of range/)
    expect(() => encodeColumn("DateTime64(9, 'UTC')", ['2262-04-11 23:47:16.854775808'])).toThrow(
      /out of range/,
    )
    expect(() => encodeColumn("DateTime64(9, 'UTC')", ['2262-04-11 23:47:16.854775807'])).not.toThrow()
  })

  it('prints ticks beyond the printable years as ClickHouse does, and needs a precision', () => {
    // chdb prints Int64 max in a DateTime64(0, 'UTC') file as 9999-12-31 23:59:59.
    const column = decodeColumn("DateTime64(0, 'UTC')", fromHex('ffffffffffffff7f 0000000000000080'), 2)
    expect(Array.from(column.values())).toEqual(['9999-12-31 23:59:59', '0000-01-01 00:00:00'])
    expect(() => encodeColumn('DateTime64', [0])).toThrow(/DateTime64: missing precision/)
    expect(() => encodeColumn('DateTime64(10)', [0])).toThrow(/precision must be an integer from 0 to 9/)
  })
})
