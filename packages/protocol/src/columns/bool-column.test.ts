import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'

describe('Bool', () => {
  it('writes one byte, 1 or 0', () => {
    // chdb: SELECT arrayJoin([true, false])
    checkCodec({ type: 'Bool', values: [true, false], bytes: '01 00' })
  })

  it('accepts 0/1, bigints and the strings true/false/1/0', () => {
    checkCodec({
      type: 'Bool',
      values: [1, 0n, 'true', 'false', '1', '0'],
      decoded: [true, false, true, false, true, false],
    })
  })

  it('reads any nonzero byte as true, as ClickHouse prints it', () => {
    // chdb prints a Bool file holding 02 00 01 as true, false, true.
    expect(decodeColumn('Bool', fromHex('02 00 01'), 3).values()).toEqual([true, false, true])
  })

  it('rejects anything else with the row', () => {
    for (const bad of [2, 'yes', null, 0.5])
      expect(() => encodeColumn('Bool', [bad])).toThrow(/row 0: .* is not a valid Bool/)
  })
})
