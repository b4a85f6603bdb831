import { describe, expect, it } from 'vitest'
import { checkCodec, context, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import type { DateTimeColumn } from './date-time-column.js'

const newYork = "DateTime('America/New_York')"

describe('DateTime', () => {
  it('writes UInt32 seconds since the epoch, at both ends of the range', () => {
    checkCodec({
      type: "DateTime('UTC')",
      values: ['1970-01-01 00:00:00', '2106-02-07 06:28:15'],
      bytes: '00000000 ffffffff',
    })
  })

  it('reads and writes text on the server clock when the type names no zone', () => {
    checkCodec({
      type: 'DateTime',
      values: ['1970-01-01 03:00:00'],
      timezone: 'Europe/Moscow',
      bytes: '00000000',
    })
    checkCodec({
      type: 'DateTime',
      values: ['1969-12-31 19:00:00'],
      timezone: 'Etc/GMT+5',
      bytes: '00000000',
    })
  })

  it('prints New York time exactly around both DST transitions of 2021', () => {
    // chdb: toDateTime('2021-03-14 01:59:59' / '03:00:00' / '2021-11-07 01:30:00', 'America/New_York'),
    // toDateTime(1636266600, 'America/New_York'): the second 01:30, now EST.
    checkCodec({
      type: newYork,
      values: ['2021-03-14 01:59:59', '2021-03-14 03:00:00', '2021-11-07 01:30:00', 1636266600],
      decoded: ['2021-03-14 01:59:59', '2021-03-14 03:00:00', '2021-11-07 01:30:00', '2021-11-07 01:30:00'],
      bytes: '6fb44d60 70b44d60 58648761 68728761',
    })
  })

  it('reads skipped and repeated New York times the way ClickHouse does', () => {
    // chdb: toUnixTimestamp(toDateTime('2021-03-14 02:30:00', 'America/New_York')) = 1615703400 (01:30 EST),
    // '2021-11-07 01:30:00' = 1636263000 (the earlier, EDT), '2021-11-07 02:30:00' = 1636270200.
    const bytes = encodeColumn(newYork, ['2021-03-14 02:30:00', '2021-11-07 01:30:00', '2021-11-07 02:30:00'])
    expect(Array.from((decodeColumn(newYork, bytes, 3) as DateTimeColumn).data)).toEqual([
      1615703400, 1636263000, 1636270200,
    ])
  })

  it("prints Moscow's historic offsets as ClickHouse does", () => {
    // chdb: toDateTime(x, 'Europe/Moscow') for these instants: +3 in 1970, summer time from 1981,
    // the 1991-1992 changes, +4 all year from 2011, back to +3 in 2014.
    const seconds = [
      0, 354920399, 354920400, 370724399, 370724400, 669675600, 686005200, 701820000, 1301180399, 1301180400,
      1414274399, 1414274400,
    ]
    const texts = [
      '1970-01-01 03:00:00',
      '1981-03-31 23:59:59',
      '1981-04-01 01:00:00',
      '1981-09-30 22:59:59',
      '1981-09-30 23:00:00',
      '1991-03-23 00:00:00',
      '1991-09-28 00:00:00',
      '1992-03-29 01:00:00',
      '2011-03-27 01:59:59',
      '2011-03-27 03:00:00',
      '2014-10-26 01:59:59',
      '2014-10-26 01:00:00',
    ]
    for (const dates of ['string', 'date'] as const) {
      const column = decodeColumn(
        "DateTime('Europe/Moscow')",
        encodeColumn('DateTime', seconds),
        seconds.length,
        {
          ...context({ dates }),
        },
      )
      expect(Array.from(column.values())).toEqual(
        dates === 'string' ? texts : seconds.map((s) => new Date(s * 1000)),
      )
    }
  })

  it('gives Date objects of the instant in date mode, and writes Dates floored to the second', () => {
    checkCodec({
      type: newYork,
      values: [new Date('2021-03-14T06:59:59Z'), new Date('2021-03-14T07:00:00.999Z')],
      decoded: [new Date('2021-03-14T06:59:59Z'), new Date('2021-03-14T07:00:00Z')],
      mapping: { dates: 'date' },
      bytes: '6fb44d60 70b44d60',
    })
  })

  it('accepts ISO 8601 with offsets, date-only text, numbers and numeric strings', () => {
    const inputs = [
      '2021-03-14T06:59:59Z',
      '2021-03-14T01:59:59-05:00',
      '2021-03-14 08:59:59+0200',
      '2021-03-14T06:59:59.9z',
      1615705199n,
      '1615705199',
    ]
    const column = decodeColumn("DateTime('UTC')", encodeColumn("DateTime('UTC')", inputs), inputs.length)
    expect(Array.from(column.values())).toEqual(new Array(inputs.length).fill('2021-03-14 06:59:59'))
    expect(decodeColumn("DateTime('UTC')", encodeColumn("DateTime('UTC')", ['2021-03-14']), 1).get(0)).toBe(
      '2021-03-14 00:00:00',
    )
  })

  it('keeps the seconds as a Uint32Array and writes one as is', () => {
    expect(encodeColumn('DateTime', new Uint32Array([1, 2]))).toEqual(fromHex('01000000 02000000'))
    const column = decodeColumn('DateTime', fromHex('01000000'), 1) as DateTimeColumn
    expect(column.data).toBeInstanceOf(Uint32Array)
  })

  it('rejects instants outside the UInt32 range and malformed text with the row', () => {
    expect(() => encodeColumn("DateTime('UTC')", ['1969-12-31 23:59:59'])).toThrow(
      /row 0: "1969-12-31 23:59:59" is not a valid DateTime \(out of range/,
    )
    expect(() => encodeColumn("DateTime('UTC')", [4294967296])).toThrow(/out of range/)
    expect(() => encodeColumn("DateTime('UTC')", [new Date('2106-02-07T06:28:16Z')])).toThrow(/out of range/)
    expect(() => encodeColumn("DateTime('UTC')", [Date.now()])).toThrow(/out of range/)
    expect(() => encodeColumn("DateTime('UTC')", ['2021-03-14 24:00:00'])).toThrow(
      /expected YYYY-MM-DD hh:mm:ss/,
    )
    expect(() => encodeColumn("DateTime('UTC')", [true])).toThrow(/row 0: true is not a valid DateTime/)
  })

  it('rejects an unknown time zone', () => {
    expect(() => encodeColumn("DateTime('Mars/Olympus')", [0])).toThrow(/unknown time zone "Mars\/Olympus"/)
  })
})
