import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import type { FixedStringColumn } from './fixed-string-column.js'

describe('FixedString', () => {
  it('writes N bytes per value, padding with NULs, and reads all N bytes back (NULs kept)', () => {
    // chdb: a FixedString(4) file of 61000000 and e282ac00 reads as 'a\0\0\0' and '€\0'.
    checkCodec({
      type: 'FixedString(4)',
      values: ['a', '€', 'abcd', ''],
      decoded: ['a\0\0\0', '€\0', 'abcd', '\0\0\0\0'],
      bytes: '61000000 e282ac00 61626364 00000000',
    })
  })

  it('round-trips values with trailing NULs exactly, and raw bytes', () => {
    checkCodec({ type: 'FixedString(3)', values: ['a\0\0', '\0\0\0', 'x\0y'] })
    const column = decodeColumn(
      'FixedString(2)',
      encodeColumn('FixedString(2)', [fromHex('ff01')]),
      1,
    ) as FixedStringColumn
    expect(column.bytesOf(0)).toEqual(fromHex('ff01'))
    expect(column.get(0)).toBe('\ufffd\u0001')
  })

  it('encodes mixed values while the writer grows: ASCII, UTF-8, bytes, short and long padding', () => {
    const values = Array.from({ length: 600 }, (_, row) =>
      row % 4 === 0 ? 'ab' : row % 4 === 1 ? 'é€' : row % 4 === 2 ? fromHex('ff00') : '',
    )
    for (const size of [5, 100]) {
      const type = `FixedString(${size})`
      const bytes = encodeColumn(type, values)
      expect(bytes.length).toBe(600 * size)
      const column = decodeColumn(type, bytes, 600) as FixedStringColumn
      const pad = (prefix: Uint8Array) => {
        const out = new Uint8Array(size)
        out.set(prefix)
        return out
      }
      expect(column.bytesOf(0)).toEqual(pad(fromHex('6162')))
      expect(column.bytesOf(1)).toEqual(pad(fromHex('c3a9e282ac')))
      expect(column.bytesOf(2)).toEqual(pad(fromHex('ff00')))
      expect(column.bytesOf(599)).toEqual(pad(new Uint8Array(0)))
      expect(column.bytesOf(597)).toEqual(pad(fromHex('c3a9e282ac')))
    }
  })

  it('rejects values longer than N bytes (UTF-8) with the row', () => {
    expect(() => encodeColumn('FixedString(2)', ['ab', 'abc'])).toThrow(
      /row 1: "abc" is not a valid FixedString\(2\) \(3 bytes, longer than 2\)/,
    )
    expect(() => encodeColumn('FixedString(2)', ['é€'])).toThrow(/5 bytes, longer than 2/)
    expect(() => encodeColumn('FixedString(2)', [fromHex('010203')])).toThrow(/3 bytes/)
    expect(() => encodeColumn('FixedString(2)', [1])).toThrow(/expected a string or Uint8Array/)
    expect(() => encodeColumn('FixedString', ['a'])).toThrow(/missing length/)
  })
})
