import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'

describe('Enum8 / Enum16 / Enum', () => {
  it('writes the Int8 value of each name, at both ends, with quotes, backslashes and unicode in names', () => {
    // chdb: CAST('a''b' AS Enum8('a''b' = -128, 'c\\d' = 127, 'é' = 0)) is 0x80.
    checkCodec({
      type: "Enum8('a\\'b' = -128, 'c\\\\d' = 127, 'é' = 0)",
      values: ["a'b", 'c\\d', 'é'],
      bytes: '80 7f 00',
    })
  })

  it('writes Enum16 values at both ends', () => {
    checkCodec({ type: "Enum16('x' = -32768, 'y' = 32767)", values: ['x', 'y'], bytes: '0080 ff7f' })
  })

  it('sizes plain Enum from its values, as ClickHouse does', () => {
    // chdb: CAST('y' AS Enum('x' = 1, 'y' = 1000)) is Enum16 (e803); with 'y' = 2 it is Enum8 (02).
    checkCodec({ type: "Enum('x' = 1, 'y' = 1000)", values: ['y'], bytes: 'e803' })
    checkCodec({ type: "Enum('x' = 1, 'y' = 2)", values: ['y'], bytes: '02' })
    checkCodec({ type: "Enum('x', 'y')", values: ['x', 'y'], bytes: '01 02' })
  })

  it('accepts numbers that are element values', () => {
    checkCodec({ type: "Enum8('a' = 1, 'b' = 2)", values: [2, 1n], decoded: ['b', 'a'], bytes: '02 01' })
  })

  it('rejects unknown names and values with the row, and bad definitions', () => {
    expect(() => encodeColumn("Enum8('a' = 1)", ['a', 'b'])).toThrow(
      /row 1: "b" is not a valid Enum8\('a' = 1\) \(not an element/,
    )
    expect(() => encodeColumn("Enum8('a' = 1)", [2])).toThrow(/row 0: 2 is not a valid/)
    expect(() => encodeColumn("Enum8('a' = 128)", ['a'])).toThrow(/value 128 does not fit Int8/)
    expect(() => encodeColumn("Enum8('a' = 1, 'a' = 2)", ['a'])).toThrow(/duplicate names/)
    expect(() => encodeColumn("Enum8('a' = 1, 'b' = 1)", ['a'])).toThrow(/duplicate values/)
  })

  it("reads the placeholder 0 that 18.16 writes under NULLs as '' when 0 is no element", () => {
    // 18.16: SELECT CAST(NULL AS Nullable(Enum8('a' = 1))) is null map 01, then value 00.
    expect(decodeColumn("Enum8('a' = 1)", fromHex('00 01'), 2).values()).toEqual(['', 'a'])
    expect(decodeColumn("Enum16('a' = -5, 'b' = -1)", fromHex('0000 fbff'), 2).values()).toEqual(['', 'a'])
    expect(() => encodeColumn("Enum8('a' = 1)", [0])).toThrow(/not an element/)
  })

  it('treats a stored value that names no element as malformed input', () => {
    expect(() => decodeColumn("Enum8('a' = 1)", fromHex('01 05'), 2)).toThrow(ProtocolError)
    expect(() => decodeColumn("Enum8('a' = 1)", fromHex('01 05'), 2)).toThrow(
      /value 5 in row 1 is not an element/,
    )
  })
})
