import { describe, expect, it } from 'vitest'
import {
  checkCodec,
  context,
  decodeColumn,
  encodeColumn,
  fromHex,
  hex,
} from '../../test/support/codec-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { ByteReader } from '../io/byte-reader.js'
import { parseType } from '../types/type-parser.js'
import { codecFor } from './codec-registry.js'
import type { LowCardinalityColumn } from './low-cardinality-column.js'

const version = '0100000000000000'

describe('LowCardinality', () => {
  it('writes version 1, flags 0x600, the keys with the default first, rows and indexes (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin(['a','b','a',''])::LowCardinality(String)
    checkCodec({
      type: 'LowCardinality(String)',
      values: ['a', 'b', 'a', ''],
      bytes: `${version} 0006000000000000 0300000000000000 00 0161 0162 0400000000000000 01020100`,
    })
    // chdb: SELECT arrayJoin(['a',NULL,'','a'])::LowCardinality(Nullable(String)): key 0 is NULL,
    // key 1 the default, and the keys are plain String.
    checkCodec({
      type: 'LowCardinality(Nullable(String))',
      values: ['a', null, '', 'a'],
      bytes: `${version} 0006000000000000 0300000000000000 00 00 0161 0400000000000000 02000102`,
    })
  })

  it('composes prefixes inside Array (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin([['x','y'],[],['x']])::Array(LowCardinality(String))
    checkCodec({
      type: 'Array(LowCardinality(String))',
      values: [['x', 'y'], [], ['x']],
      bytes:
        `${version} 0200000000000000 0200000000000000 0300000000000000` +
        '0006000000000000 0300000000000000 00 0178 0179 0300000000000000 010201',
    })
    // Only empty arrays: ClickHouse writes no granule at all.
    checkCodec({
      type: 'Array(LowCardinality(String))',
      values: [[], []],
      bytes: `${version} 0000000000000000 0000000000000000`,
    })
  })

  it('widens the indexes past 256 and 65,536 keys', () => {
    const widths: [number, string][] = [
      [255, '00'],
      [256, '01'],
      [65_535, '01'],
      [70_000, '02'],
    ]
    for (const [distinct, width] of widths) {
      const values = Array.from({ length: distinct + 3 }, (_, i) => `v${i % distinct}`)
      const bytes = encodeColumn('LowCardinality(String)', values)
      expect(hex(bytes.subarray(8, 10))).toBe(`${width}06`)
      const column = decodeColumn('LowCardinality(String)', bytes, values.length) as LowCardinalityColumn
      expect(column.values()).toEqual(values)
      expect(column.get(distinct + 2)).toBe('v2')
    }
  })

  it('reads UInt64 indexes and numeric keys', () => {
    const bytes = fromHex(
      `${version} 0306000000000000 0200000000000000 00000000 07000000 0200000000000000 0100000000000000 0000000000000000`,
    )
    expect(decodeColumn('LowCardinality(UInt32)', bytes, 2).values()).toEqual([7, 0])
    checkCodec({ type: 'LowCardinality(Nullable(Float64))', values: [1.5, null, 0, 1.5] })
  })

  it('keeps a global dictionary for the next block of the stream, and adds additional keys to it', () => {
    const codec = codecFor(parseType('LowCardinality(Nullable(String))'), context())
    // Block 1: NeedGlobalDictionary | NeedUpdateDictionary, dictionary [NULL, '', 'a', 'b'].
    const first = fromHex(
      `${version} 0005000000000000 0400000000000000 00 00 0161 0162 0300000000000000 020300`,
    )
    // Block 2 reuses it (NeedGlobalDictionary without update) with one additional key 'c'
    // (indexes past the dictionary); additional keys are never NULL.
    const second = fromHex(`${version} 0003000000000000 0100000000000000 0163 0400000000000000 03040001`)
    const reader = new ByteReader(first)
    codec.decodePrefix(reader)
    expect(codec.decode(reader, 3).values()).toEqual(['a', 'b', null])
    // The first block's bytes may be reused by the stream before block 2 arrives.
    first.fill(0xee)
    const next = new ByteReader(second)
    codec.decodePrefix(next)
    const column = codec.decode(next, 4)
    expect(next.offset).toBe(second.length)
    expect(column.values()).toEqual(['b', 'c', null, ''])
    expect([0, 1, 2, 3].map((row) => column.get(row))).toEqual(['b', 'c', null, ''])
  })

  it('reads a column split into several granules', () => {
    const bytes = fromHex(
      `${version} 0002000000000000 0200000000000000 00 0161 0100000000000000 01` +
        '0002000000000000 0200000000000000 00 0162 0200000000000000 0100',
    )
    const column = decodeColumn('LowCardinality(String)', bytes, 3)
    expect(column.values()).toEqual(['a', 'b', ''])
    expect(column.get(1)).toBe('b')
  })

  it('rejects bad versions, flags and indexes', () => {
    const decode = (text: string, rows: number) => () =>
      decodeColumn('LowCardinality(String)', fromHex(text), rows)
    expect(decode('0200000000000000', 0)).toThrow(/key serialization version 2/)
    expect(decode(`${version} 0400000000000000`, 1)).toThrow(ProtocolError)
    expect(decode(`${version} 0002000000000000 0100000000000000 00 0100000000000000 01`, 1)).toThrow(
      /index 1 is past the dictionary of 1 keys/,
    )
    expect(decode(`${version} 0002000000000000 0100000000000000 00 0500000000000000 00`, 1)).toThrow(
      /5 rows where 1 remain/,
    )
  })

  it('rejects NULL without Nullable', () => {
    expect(() => encodeColumn('LowCardinality(String)', ['a', null])).toThrow(/row 1/)
  })
})

describe('LowCardinality of scalar types', () => {
  it('LowCardinality(FixedString(2)) starts its keys with the zero-filled default (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin(['ab', 'ab', 'cd'])::LowCardinality(FixedString(2))
    checkCodec({
      type: 'LowCardinality(FixedString(2))',
      values: ['ab', 'ab', 'cd'],
      bytes: `${version} 0006000000000000 0300000000000000 0000 6162 6364 0300000000000000 010102`,
    })
  })
})
