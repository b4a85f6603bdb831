import { describe, expect, it } from 'vitest'
import { checkCodec, context, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { ByteReader } from '../io/byte-reader.js'
import { parseType } from '../types/type-parser.js'
import type { ArrayTypeColumn } from './array-column.js'
import { codecFor } from './codec-registry.js'

describe('Array', () => {
  it('writes UInt64 cumulative offsets, then the flattened elements (bytes from ClickHouse)', () => {
    // chdb: SELECT [[1,NULL],[]]::Array(Array(Nullable(UInt8)))
    checkCodec({
      type: 'Array(Array(Nullable(UInt8)))',
      values: [[[1, null], []]],
      bytes: '0200000000000000 0200000000000000 0200000000000000 0001 0100',
    })
    // chdb: SELECT ['a',NULL,'']::Array(Nullable(String)) FROM numbers(2)
    checkCodec({
      type: 'Array(Nullable(String))',
      values: [
        ['a', null, ''],
        ['a', null, ''],
      ],
      bytes: '0300000000000000 0600000000000000 000100000100 0161 00 00 0161 00 00',
    })
  })

  it('gives JS arrays per row, sliced from one decoded inner column', () => {
    const column = checkCodec({ type: 'Array(UInt32)', values: [[1, 2], [], [3]] }) as ArrayTypeColumn
    expect(Array.from(column.bounds)).toEqual([0, 2, 2, 3])
    expect(column.inner.values()).toBeInstanceOf(Uint32Array)
    expect(Array.isArray(column.get(0))).toBe(true)
    expect(column.values()).toBe(column.values())
    checkCodec({ type: 'Array(UInt64)', values: [[1n, 2n ** 64n - 1n]] })
    checkCodec({ type: 'Array(Array(Array(String)))', values: [[[['a'], []], [['b', 'c']]], []] })
  })

  it('accepts typed arrays and array-likes as rows', () => {
    const bytes = encodeColumn('Array(Int16)', [new Int16Array([1, -1]), { length: 1, 0: 5 }])
    expect(decodeColumn('Array(Int16)', bytes, 2).values()).toEqual([[1, -1], [5]])
  })

  it('rejects rows that are not arrays, and offsets that go backwards', () => {
    expect(() => encodeColumn('Array(UInt8)', ['ab'])).toThrow(/row 0: expected an array for Array/)
    const bytes = fromHex('0200000000000000 0100000000000000 0000')
    const codec = codecFor(parseType('Array(UInt8)'), context())
    expect(() => codec.decode(new ByteReader(bytes), 2)).toThrow(ProtocolError)
  })

  it('reports a huge element count as missing input without allocating for it', () => {
    const reader = new ByteReader(fromHex('ffffff7f00000000'))
    codecFor(parseType('Array(UInt64)'), context()).decode(reader, 1)
    expect(reader.missing).toBe(8 + 0x7fffffff)
  })
})

describe('Array of scalar types', () => {
  it('Array(DateTime64(3, UTC)) (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin([['2017-01-04 10:20:30.123'], []])::Array(DateTime64(3, 'UTC'))
    checkCodec({
      type: "Array(DateTime64(3, 'UTC'))",
      values: [['2017-01-04 10:20:30.123'], []],
      bytes: '0100000000000000 0100000000000000 2b8efe6859010000',
    })
  })
})
