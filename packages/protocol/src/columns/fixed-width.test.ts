import { describe, expect, it } from 'vitest'
import { checkCodec, context, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import { BufferPool } from '../io/buffer-pool.js'
import { ByteReader } from '../io/byte-reader.js'
import { parseType } from '../types/type-parser.js'
import type { Int32Column } from './int32-column.gen.js'
import { type UInt64Column, uint64Codec } from './uint64-column.gen.js'

describe('fixed-width numbers', () => {
  it.each([
    ['Int8', [-128, 0, 127], '80 00 7f'],
    ['UInt8', [0, 255], '00 ff'],
    ['Int16', [-32768, 32767], '0080 ff7f'],
    ['UInt16', [0, 65535], '0000 ffff'],
    ['Int32', [-2147483648, 2147483647], '00000080 ffffff7f'],
    ['UInt32', [0, 4294967295], '00000000 ffffffff'],
    ['Int64', [-(2n ** 63n), 2n ** 63n - 1n], '0000000000000080 ffffffffffffff7f'],
    ['UInt64', [0n, 2n ** 64n - 1n], '0000000000000000 ffffffffffffffff'],
    ['Float32', [1.5, Number.NEGATIVE_INFINITY], '0000c03f 000080ff'],
    ['Float64', [-0.5, Number.POSITIVE_INFINITY], '000000000000e0bf 000000000000f07f'],
  ])('%s: exact bytes at the limits', (type, values, bytes) => {
    checkCodec({ type, values, bytes })
  })

  it('keeps NaN', () => {
    const column = decodeColumn('Float64', encodeColumn('Float64', [Number.NaN]), 1)
    expect(column.get(0)).toBeNaN()
  })

  it('decodes aligned input as a view and unaligned input as one copy', () => {
    const aligned = new Uint8Array(16)
    aligned.set(fromHex('0100000002000000'), 8)
    const view = decodeColumn('Int32', aligned.subarray(8), 2) as Int32Column
    expect(view.data.buffer).toBe(aligned.buffer)
    expect(Array.from(view.data)).toEqual([1, 2])
    const unaligned = new Uint8Array(17)
    unaligned.set(fromHex('0100000002000000'), 9)
    const copy = decodeColumn('Int32', unaligned.subarray(9), 2) as Int32Column
    expect(copy.data.buffer).not.toBe(unaligned.buffer)
    expect(Array.from(copy.data)).toEqual([1, 2])
  })

  it("copies unaligned input into the reader's scratch memory when it has some", () => {
    const pool = new BufferPool()
    pool.tag = 1
    const unaligned = new Uint8Array(17)
    unaligned.set(fromHex('0100000002000000'), 9)
    const reader = new ByteReader(unaligned, 9)
    reader.scratch = pool.scratch
    const column = uint64Codec(parseType('UInt64'), context()).decode(reader, 1) as UInt64Column
    expect(column.data[0]).toBe(0x2_0000_0001n)
    expect(pool.retiredCount).toBe(1)
    // Once block 1 is released, the same memory serves the next copy.
    pool.release(1)
    const again = uint64Codec(parseType('UInt64'), context()).decode(
      reader.reset(unaligned, 9),
      1,
    ) as UInt64Column
    expect(again.data.buffer).toBe(column.data.buffer)
  })

  it('maps 64-bit integers to bigint, number or string', () => {
    const bytes = encodeColumn('UInt64', [1n, 2n ** 64n - 1n])
    expect(Array.from(decodeColumn('UInt64', bytes, 2).values())).toEqual([1n, 2n ** 64n - 1n])
    const asNumber = decodeColumn('UInt64', bytes, 2, {
      revision: 0,
      timezone: 'UTC',
      mapping: { int64: 'number', dates: 'string', decimal: 'string' },
    }) as UInt64Column
    expect(asNumber.values()).toEqual(new Float64Array([1, 2 ** 64]))
    const asString = decodeColumn('UInt64', bytes, 2, {
      revision: 0,
      timezone: 'UTC',
      mapping: { int64: 'string', dates: 'string', decimal: 'string' },
    })
    expect(asString.get(1)).toBe('18446744073709551615')
  })

  it('says a fraction is not an integer, and a whole number beyond the type out of range', () => {
    for (const type of ['UInt8', 'Int8', 'UInt16', 'Int16', 'UInt32', 'Int32']) {
      expect(() => encodeColumn(type, [1, 1.5])).toThrow(`row 1: 1.5 is not a valid ${type} (not an integer)`)
    }
    expect(() => encodeColumn('UInt8', [-0.5])).toThrow('row 0: -0.5 is not a valid UInt8 (not an integer)')
    expect(() => encodeColumn('UInt8', [Number.NaN])).toThrow(
      'row 0: NaN is not a valid UInt8 (not a finite number)',
    )
    expect(() => encodeColumn('Int32', [Number.POSITIVE_INFINITY])).toThrow(
      'row 0: Infinity is not a valid Int32 (not a finite number)',
    )
    expect(() => encodeColumn('UInt8', [-1])).toThrow('row 0: -1 is not a valid UInt8 (out of range)')
  })

  it('accepts numbers, bigints, numeric strings and booleans, and rejects the rest', () => {
    expect(Array.from(decodeColumn('Int64', encodeColumn('Int64', [5, '-7', true]), 3).values())).toEqual([
      5n,
      -7n,
      1n,
    ])
    expect(Array.from(decodeColumn('UInt8', encodeColumn('UInt8', [5n, '7']), 2).values())).toEqual([5, 7])
    expect(() => encodeColumn('UInt8', [256])).toThrow(/row 0: 256 is not a valid UInt8 \(out of range\)/)
    expect(() => encodeColumn('Int32', [1.5])).toThrow(/not a valid Int32/)
    expect(() => encodeColumn('UInt64', [-1n])).toThrow(/out of range/)
    expect(() => encodeColumn('Int64', [0.5])).toThrow(/not an integer/)
    expect(() => encodeColumn('Float32', ['abc'])).toThrow(/"abc" is not a valid Float32/)
    expect(Array.from(decodeColumn('Float64', encodeColumn('Float64', ['inf', '-1e3']), 2).values())).toEqual(
      [Number.POSITIVE_INFINITY, -1000],
    )
  })

  it('parses numeric strings strictly, as the server parses a parameter', () => {
    expect(Array.from(decodeColumn('UInt32', encodeColumn('UInt32', ['12', '+3']), 2).values())).toEqual([
      12, 3,
    ])
    for (const text of [' 12', '12 ', '', '0x10', '1e3', '1_000'])
      expect(() => encodeColumn('UInt32', [text])).toThrow(/row 0: .* is not a valid UInt32/)
    for (const text of [' 1.5', '1.5 ', '0x10', '', '1e', '.'])
      expect(() => encodeColumn('Float64', [text])).toThrow(/row 0: .* is not a valid Float64/)
    expect(
      Array.from(decodeColumn('Float64', encodeColumn('Float64', ['1.5', '-.5', '1e3', '2.']), 4).values()),
    ).toEqual([1.5, -0.5, 1000, 2])
  })

  it('refuses a finite value that the float type would store as an infinity', () => {
    expect(() => encodeColumn('Float64', [10n ** 400n])).toThrow(
      /row 0: .* is not a valid Float64 \(out of range\)/,
    )
    expect(() => encodeColumn('Float64', ['1e400'])).toThrow(/not a valid Float64 \(out of range\)/)
    expect(() => encodeColumn('Float32', [10n ** 39n])).toThrow(/not a valid Float32 \(out of range\)/)
    expect(() => encodeColumn('Float32', ['-1e39'])).toThrow(/not a valid Float32 \(out of range\)/)
    expect(
      Array.from(decodeColumn('Float64', encodeColumn('Float64', [2n ** 60n, 'inf', '-inf']), 3).values()),
    ).toEqual([2 ** 60, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
  })

  it('refuses a JS number that Float32 would make an infinity, from an array or a Float64Array', () => {
    for (const input of [[1, 1e39], Float64Array.of(1, -1e39), [1, -Number.MAX_VALUE]])
      expect(() => encodeColumn('Float32', input)).toThrow(
        /^row 1: .* is not a valid Float32 \(out of range\)$/,
      )
    // Up to half a unit past the largest Float32 a number rounds to that largest value, as
    // the server's parser rounds '3.4028235e38'; at the half unit it would be an infinity.
    const largest = 3.4028234663852886e38
    const written = [largest, 3.4028235e38, -3.4028235e38, 3.4028235677973362e38, '3.4028235e38']
    expect(Array.from(decodeColumn('Float32', encodeColumn('Float32', written), 5).values())).toEqual([
      largest,
      largest,
      -largest,
      largest,
      largest,
    ])
    expect(() => encodeColumn('Float32', [3.4028235677973366e38])).toThrow(/out of range/)
    expect(() => encodeColumn('Float32', ['3.4028235677973366e38'])).toThrow(/out of range/)
    const special = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e-50]
    expect(Array.from(decodeColumn('Float32', encodeColumn('Float32', special), 4).values())).toEqual([
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      0,
    ])
    // Float64 takes every JS number as it is.
    expect(Array.from(decodeColumn('Float64', encodeColumn('Float64', [1e39, -1e300]), 2).values())).toEqual([
      1e39, -1e300,
    ])
  })

  it('writes a matching typed array as raw bytes', () => {
    expect(encodeColumn('UInt16', new Uint16Array([1, 0x0203]))).toEqual(fromHex('0100 0302'))
  })
})
