import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'

describe('Date32', () => {
  it('writes Int32 days since 1970-01-01 at both ends of 1900-01-01..2299-12-31', () => {
    // chdb: SELECT arrayJoin([toDate32('1900-01-01'), toDate32('2299-12-31'), toDate32('1969-12-31')])
    checkCodec({
      type: 'Date32',
      values: ['1900-01-01', '2299-12-31', '1969-12-31'],
      bytes: '219cffff d1d60100 ffffffff',
    })
  })

  it('gives Date objects at UTC midnight in date mode', () => {
    checkCodec({
      type: 'Date32',
      values: [new Date(Date.UTC(1900, 0, 1)), new Date(Date.UTC(2299, 11, 31))],
      mapping: { dates: 'date' },
      bytes: '219cffff d1d60100',
    })
  })

  it('reads days beyond the printable range as 0000-01-01 and 9999-12-31, as ClickHouse prints them', () => {
    // chdb prints Int32 min/max in a Date32 file as these bounds.
    const column = decodeColumn('Date32', fromHex('00000080 ffffff7f 5f9dffff'), 3)
    expect(Array.from(column.values())).toEqual(['0000-01-01', '9999-12-31', '1900-11-15'])
  })

  it('rejects days outside 1900-01-01..2299-12-31, also in an Int32Array', () => {
    expect(() => encodeColumn('Date32', ['1899-12-31'])).toThrow(
      /row 0: "1899-12-31" is not a valid Date32 \(out of range 1900-01-01 to 2299-12-31\)/,
    )
    expect(() => encodeColumn('Date32', [new Date(Date.UTC(2300, 0, 1))])).toThrow(/out of range/)
    expect(() => encodeColumn('Date32', new Int32Array([0, 120530]))).toThrow(
      /row 1: 120530 is not a valid Date32/,
    )
    expect(encodeColumn('Date32', new Int32Array([-1]))).toEqual(fromHex('ffffffff'))
  })
})
