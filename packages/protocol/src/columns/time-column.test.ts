import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'

describe('Time', () => {
  it('writes Int32 seconds and prints them as ClickHouse does, at both ends of the range', () => {
    // chdb: toTime('12:34:56'), toTime(-3600), toTime(3599999), toTime(-3599999)
    checkCodec({
      type: 'Time',
      values: ['12:34:56', '-01:00:00', '999:59:59', '-999:59:59'],
      bytes: 'f0b00000 f0f1ffff 7fee3600 8111c9ff',
    })
  })

  it('gives the same text in date mode', () => {
    checkCodec({ type: 'Time', values: ['00:00:05'], mapping: { dates: 'date' }, bytes: '05000000' })
  })

  it('saturates the printed magnitude at 999:59:59, as ClickHouse prints stored values beyond it', () => {
    // chdb prints 360000000, 10000000 and -10000000 read from a Time file as these.
    const column = decodeColumn('Time', fromHex('00e1f505 80969800 806967ff'), 3)
    expect(Array.from(column.values())).toEqual(['999:59:59', '999:59:59', '-999:59:59'])
  })

  it('accepts numbers of seconds, one-digit hours and an Int32Array', () => {
    const column = decodeColumn('Time', encodeColumn('Time', [5, -5n, '1:02:03', 100 * 3600, '7.9']), 5)
    expect(Array.from(column.values())).toEqual([
      '00:00:05',
      '-00:00:05',
      '01:02:03',
      '100:00:00',
      '00:00:07',
    ])
    expect(encodeColumn('Time', new Int32Array([-1]))).toEqual(fromHex('ffffffff'))
  })

  it('rejects values beyond ±999:59:59 and malformed text with the row', () => {
    expect(() => encodeColumn('Time', ['1000:00:00'])).toThrow(
      /row 0: "1000:00:00" is not a valid Time \(out of range -999:59:59 to 999:59:59\)/,
    )
    expect(() => encodeColumn('Time', [-3600000])).toThrow(/out of range/)
    expect(() => encodeColumn('Time', ['12:60:00'])).toThrow(/expected \[-\]hhh:mm:ss/)
    expect(() => encodeColumn('Time', ['-5:3:2'])).toThrow(/not a valid Time/)
    expect(() => encodeColumn('Time', [new Date()])).toThrow(/not a valid Time/)
  })
})
