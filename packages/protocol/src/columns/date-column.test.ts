import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import type { DateColumn } from './date-column.js'

describe('Date', () => {
  it('writes UInt16 days since 1970-01-01, as ClickHouse does, at both ends of the range', () => {
    // chdb: SELECT arrayJoin([toDate('1970-01-01'), toDate('2149-06-06'), toDate('2020-02-29')])
    checkCodec({
      type: 'Date',
      values: ['1970-01-01', '2149-06-06', '2020-02-29'],
      bytes: '0000 ffff 9147',
    })
  })

  it('gives Date objects at UTC midnight in date mode, and reads them back', () => {
    const values = [
      new Date(Date.UTC(1970, 0, 1)),
      new Date(Date.UTC(2149, 5, 6)),
      new Date(Date.UTC(2020, 1, 29)),
    ]
    checkCodec({ type: 'Date', values, mapping: { dates: 'date' }, bytes: '0000 ffff 9147' })
  })

  it('accepts day numbers, bigints, Date objects (their UTC day) and a Uint16Array as is', () => {
    const bytes = encodeColumn('Date', [0, 18321n, new Date('2020-02-29T23:59:59.999Z'), ' 2020-02-29 '])
    expect(Array.from(decodeColumn('Date', bytes, 4).values())).toEqual([
      '1970-01-01',
      '2020-02-29',
      '2020-02-29',
      '2020-02-29',
    ])
    expect(encodeColumn('Date', new Uint16Array([1, 0xffff]))).toEqual(fromHex('0100 ffff'))
  })

  it('keeps the day numbers as a Uint16Array', () => {
    const column = decodeColumn('Date', fromHex('0100 0200'), 2) as DateColumn
    expect(column.data).toBeInstanceOf(Uint16Array)
    expect(Array.from(column.data)).toEqual([1, 2])
  })

  it('rejects days outside 1970-01-01..2149-06-06 and malformed dates with the row', () => {
    expect(() => encodeColumn('Date', ['2020-01-01', '1969-12-31'])).toThrow(
      /row 1: "1969-12-31" is not a valid Date \(out of range 1970-01-01 to 2149-06-06\)/,
    )
    expect(() => encodeColumn('Date', [65536])).toThrow(/out of range/)
    expect(() => encodeColumn('Date', ['2021-02-29'])).toThrow(/row 0: "2021-02-29" is not a valid Date/)
    expect(() => encodeColumn('Date', ['2020-13-01'])).toThrow(/expected YYYY-MM-DD/)
    expect(() => encodeColumn('Date', [1.5])).toThrow(/row 0: 1.5 is not a valid Date/)
    expect(() => encodeColumn('Date', [new Date(Number.NaN)])).toThrow(/an invalid Date/)
    expect(() => encodeColumn('Date', [null])).toThrow(/row 0: null is not a valid Date/)
  })
})
