import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'

describe('QBit', () => {
  it('Float64: 64 bit planes of one byte per row, sign plane first (bytes from ClickHouse 26.7)', () => {
    // SELECT CAST(arrayJoin([[1.5, -2, 0], [0, 0, 1]]) AS QBit(Float64, 3))
    checkCodec({
      type: 'QBit(Float64, 3)',
      values: [
        [1.5, -2, 0],
        [0, 0, 1],
      ],
      bytes:
        '0200020001040104010401040104010401040104010401040100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
    })
  })

  it('BFloat16: 16 planes (bytes from ClickHouse 26.7)', () => {
    // SELECT CAST(arrayJoin([[1.5, -2], [0, 1]]) AS QBit(BFloat16, 2))
    checkCodec({
      type: 'QBit(BFloat16, 2)',
      values: [
        [1.5, -2],
        [0, 1],
      ],
      bytes: '0200020001020102010201020102010201020100000000000000000000000000',
    })
  })

  it('a mask of more than 8 elements is big-endian: element 8 is bit 0 of byte 0', () => {
    // From SELECT CAST([0, 0, 0, 0, 0, 0, 0, 0, -1] AS QBit(Float32, 9)): -1 is 0xBF800000.
    const bytes =
      '0100 0000 0100 0100 0100 0100 0100 0100 0100 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000'
    const vector = [0, 0, 0, 0, 0, 0, 0, 0, -1]
    expect(decodeColumn('QBit(Float32, 9)', fromHex(bytes), 1).get(0)).toEqual(vector)
    checkCodec({ type: 'QBit(Float32, 9)', values: [vector], bytes })
    checkCodec({ type: 'QBit(Float32, 70)', values: [Array.from({ length: 70 }, (_, i) => i - 35.5)] })
  })

  it('zero rows, and vectors of the wrong size or kind are refused', () => {
    expect(decodeColumn('QBit(Float32, 3)', new Uint8Array(0), 0).values()).toEqual([])
    expect(() => encodeColumn('QBit(Float32, 3)', [[1, 2]])).toThrow('an array of 3 numbers')
    expect(() => encodeColumn('QBit(Float32, 2)', [[1, 'x']])).toThrow('numbers')
    expect(() => encodeColumn('QBit(String, 2)', [[1, 2]])).toThrow('BFloat16, Float32 or Float64')
  })
})
