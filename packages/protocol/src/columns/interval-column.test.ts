import { describe, expect, it } from 'vitest'
import { checkCodec, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import { intervalUnits } from './interval-column.js'

describe('Interval*', () => {
  it.each(intervalUnits)('Interval%s: Int64 counts at both ends', (unit) => {
    checkCodec({
      type: `Interval${unit}`,
      values: [-(2n ** 63n), 2n ** 63n - 1n, 5n],
      bytes: '0000000000000080 ffffffffffffff7f 0500000000000000',
    })
  })

  it('follows the int64 mapping', () => {
    checkCodec({ type: 'IntervalSecond', values: [5n], decoded: [5], mapping: { int64: 'number' } })
    checkCodec({ type: 'IntervalDay', values: [-1n], decoded: ['-1'], mapping: { int64: 'string' } })
  })

  it('accepts numbers, strings and a BigInt64Array, and names the type in errors', () => {
    checkCodec({ type: 'IntervalYear', values: [-1, '7'], decoded: [-1n, 7n] })
    expect(encodeColumn('IntervalHour', new BigInt64Array([1n]))).toEqual(fromHex('0100000000000000'))
    expect(() => encodeColumn('IntervalHour', [1.5])).toThrow(/row 0: 1.5 is not a valid IntervalHour/)
  })
})
