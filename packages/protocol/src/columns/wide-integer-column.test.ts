import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn } from '../../test/support/codec-checks.js'

describe('Int128 / UInt128 / Int256 / UInt256', () => {
  it("writes little-endian two's complement at the limits of every width, as ClickHouse does", () => {
    // chdb: toInt128/toUInt128/toInt256/toUInt256 of the extreme values.
    checkCodec({
      type: 'Int128',
      values: [-(2n ** 127n), 2n ** 127n - 1n, -2n],
      bytes:
        '00000000000000000000000000000080 ffffffffffffffffffffffffffffff7f feffffffffffffffffffffffffffffff',
    })
    checkCodec({ type: 'UInt128', values: [0n, 2n ** 128n - 1n], bytes: '00'.repeat(16) + 'ff'.repeat(16) })
    checkCodec({
      type: 'Int256',
      values: [-(2n ** 255n), 2n ** 255n - 1n],
      bytes: `${'00'.repeat(31)}80${'ff'.repeat(31)}7f`,
    })
    checkCodec({ type: 'UInt256', values: [0n, 2n ** 256n - 1n], bytes: '00'.repeat(32) + 'ff'.repeat(32) })
  })

  it('follows the int64 mapping: bigint, number (a Float64Array) or string', () => {
    checkCodec({
      type: 'Int128',
      values: [-(2n ** 127n)],
      decoded: ['-170141183460469231731687303715884105728'],
      mapping: { int64: 'string' },
    })
    const column = checkCodec({
      type: 'UInt256',
      values: [2n ** 64n, 1n],
      decoded: [2 ** 64, 1],
      mapping: { int64: 'number' },
    })
    expect(column.values()).toBeInstanceOf(Float64Array)
  })

  it('accepts numbers and decimal strings; rejects out-of-range values with the row', () => {
    expect(Array.from(decodeColumn('Int256', encodeColumn('Int256', [-5, '12', '+7']), 3).values())).toEqual([
      -5n,
      12n,
      7n,
    ])
    // Strict, as the server parses a parameter: no spaces, no hex, no exponent.
    for (const text of [' 12', '12 ', '', '0x10', '1e3'])
      expect(() => encodeColumn('Int256', [text])).toThrow(/row 0: .* is not a valid Int256/)
    expect(() => encodeColumn('UInt128', [-1n])).toThrow(/row 0: -1n is not a valid UInt128 \(out of range\)/)
    expect(() => encodeColumn('Int128', [2n ** 127n])).toThrow(/out of range/)
    expect(() => encodeColumn('Int256', [0.5])).toThrow(/not an integer/)
  })
})
