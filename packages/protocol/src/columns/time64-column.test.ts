import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'

function int64(value: bigint): string {
  const bytes = new Uint8Array(8)
  new DataView(bytes.buffer).setBigInt64(0, value, true)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

describe('Time64', () => {
  it('writes Int64 ticks and prints sign, magnitude and exactly p digits, as ClickHouse does', () => {
    // chdb: toTime64('12:34:56.5', 3), toTime64(-0.5, 3)
    checkCodec({
      type: 'Time64(3)',
      values: ['12:34:56.500', '-00:00:00.500'],
      bytes: '742bb30200000000 0cfeffffffffffff',
    })
  })

  it('reaches ±999:59:59.999999999 at p = 9', () => {
    checkCodec({
      type: 'Time64(9)',
      values: ['-999:59:59.999999999', '999:59:59.999999999'],
      bytes: '0100cfaed135f3ff ffff30512eca0c00',
    })
  })

  it('prints p = 0 without a point, and the same text in date mode', () => {
    checkCodec({ type: 'Time64(0)', values: ['00:00:59', '-999:59:59'], mapping: { dates: 'date' } })
  })

  it('saturates the whole seconds and keeps the fraction, as ClickHouse prints out-of-range ticks', () => {
    // chdb prints these Time64(3) ticks: 3600000123, -3600000123, -1, Int64 min.
    const bytes = int64(3600000123n) + int64(-3600000123n) + int64(-1n) + int64(-(2n ** 63n))
    const column = decodeColumn('Time64(3)', fromHex(bytes), 4)
    expect(Array.from(column.values())).toEqual([
      '999:59:59.123',
      '-999:59:59.123',
      '-00:00:00.001',
      '-999:59:59.808',
    ])
  })

  it('takes numbers as seconds and bigints as ticks; drops digits past p like ClickHouse', () => {
    // chdb reads '12:00:00.129' into Time64(2) as 12:00:00.12.
    const column = decodeColumn(
      'Time64(2)',
      encodeColumn('Time64(2)', ['12:00:00.129', -1.25, 5n, '-1:00:00.5']),
      4,
    )
    expect(Array.from(column.values())).toEqual([
      '12:00:00.12',
      '-00:00:01.25',
      '00:00:00.05',
      '-01:00:00.50',
    ])
    expect(encodeColumn('Time64(2)', new BigInt64Array([1n]))).toEqual(fromHex('0100000000000000'))
  })

  it('rejects values beyond ±999:59:59.99.. with the row', () => {
    expect(() => encodeColumn('Time64(3)', ['1000:00:00'])).toThrow(
      /row 0: "1000:00:00" is not a valid Time64\(3\)/,
    )
    expect(() => encodeColumn('Time64(3)', [-3600000])).toThrow(/out of range/)
    expect(() => encodeColumn('Time64(3)', [-3599999.999])).not.toThrow()
    expect(() => encodeColumn('Time64(3)', new BigInt64Array([3600000000n]))).toThrow(/row 0: 3600000000n/)
    expect(() => encodeColumn('Time64(3)', ['x'])).toThrow(/not a valid Time64\(3\)/)
  })
})
