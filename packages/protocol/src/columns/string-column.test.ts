import { describe, expect, it } from 'vitest'
import { checkCodec, context, decodeColumn, encodeColumn } from '../../test/support/codec-checks.js'
import { ByteReader } from '../io/byte-reader.js'
import { ByteWriter } from '../io/byte-writer.js'
import { parseType } from '../types/type-parser.js'
import { codecFor } from './codec-registry.js'
import { type StringColumn, scanStrings } from './string-column.js'

describe('String', () => {
  it('writes a VarUInt length and the bytes per value', () => {
    checkCodec({ type: 'String', values: ['', 'a', 'héllo'], bytes: '00 0161 06 68c3a96c6c6f' })
  })

  it('encodes mixed values in order while the writer grows, after bytes already written', () => {
    const kinds = ['', 'plain', 'é', 'x'.repeat(200), new Uint8Array([0xff, 0]), 'tail€', 'a'.repeat(127)]
    const values = Array.from({ length: 700 }, (_, row) => kinds[row % kinds.length]!)
    const writer = new ByteWriter(16)
    writer.u8(0x5a)
    codecFor(parseType('String'), context()).encode(writer, values, values.length)
    const bytes = writer.copy()
    expect(bytes[0]).toBe(0x5a)
    const column = decodeColumn('String', bytes.subarray(1), values.length) as StringColumn
    const expected = values.map((value) => (typeof value === 'string' ? value : '\ufffd\u0000'))
    expect(Array.from(column.values())).toEqual(expected)
  })

  it('keeps NUL, tab, newline and long values intact', () => {
    const long = 'x'.repeat(1 << 20)
    checkCodec({ type: 'String', values: ['a\0b', '\t\n', long, '∑😀'] })
  })

  it('round-trips raw bytes, and decodes invalid UTF-8 with U+FFFD', () => {
    const invalid = new Uint8Array([0x61, 0xff, 0x62])
    const bytes = encodeColumn('String', [invalid])
    const column = decodeColumn('String', bytes, 1) as StringColumn
    expect(column.bytesOf(0)).toEqual(invalid)
    expect(column.get(0)).toBe('a\ufffdb')
  })

  it('gives Arrow-style contiguous data and offsets', () => {
    const column = decodeColumn('String', encodeColumn('String', ['ab', '', 'cde']), 3) as StringColumn
    const { data, offsets } = column.contiguous()
    expect(Array.from(offsets)).toEqual([0, 2, 2, 5])
    expect(new TextDecoder().decode(data)).toBe('abcde')
  })

  it('reports the exact need and a whole-column estimate when short', () => {
    const bytes = encodeColumn('String', ['aaaa', 'bbbb', 'cccc', 'dddd'])
    const reader = new ByteReader(bytes, 0, 7)
    scanStrings(reader, 4)
    expect(reader.missing).toBe(10)
    expect(reader.expected).toBe(20)
  })

  it('rejects non-string values with the row', () => {
    expect(() => encodeColumn('String', ['a', 5])).toThrow(/row 1: 5 is not a valid String/)
  })
})
