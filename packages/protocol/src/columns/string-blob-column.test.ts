// String's size-stream layout (revision 54492). The bytes marked "from ClickHouse" are what
// ClickHouse 26.9.2.1 wrote for `FORMAT Native` with client_protocol_version=54492 (the same
// NativeWriter, at the same revision, as its native protocol), after the column's name,
// type and custom-serialization byte.
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
import { ByteWriter } from '../io/byte-writer.js'
import { Revision } from '../packets/protocol-revision.js'
import { parseType } from '../types/type-parser.js'
import { codecFor } from './codec-registry.js'
import { StringBlobColumn, scanStringBlob } from './string-blob-column.js'
import { StringColumn, stringBlobRevision, stringsInBlob } from './string-column.js'

const revision = 54492
const at54492 = context({}, 'UTC', revision)
const u64 = (value: number) => hex(new Uint8Array(new BigUint64Array([BigInt(value)]).buffer))
const ascii = (text: string) => hex(new TextEncoder().encode(text))

describe('String at 54492: offsets, then one blob', () => {
  it('is the revision ClickHouse names, and only from it', () => {
    expect(stringBlobRevision).toBe(Revision.withStringWithSizeStreamSerialization)
    expect(stringsInBlob(54491)).toBe(false)
    expect(stringsInBlob(54492)).toBe(true)
    expect(stringsInBlob(0)).toBe(false)
  })

  it('writes cumulative UInt64 offsets, then the bytes (from ClickHouse)', () => {
    checkCodec({
      type: 'String',
      values: ['ab', 'c', ''],
      bytes: u64(2) + u64(3) + u64(3) + ascii('abc'),
      revision,
    })
  })

  it('writes non-ASCII, long values and raw bytes, and refuses lone surrogates with the row', () => {
    const long = 'é'.repeat(3000)
    const column = checkCodec({
      type: 'String',
      values: ['héllo', long, new Uint8Array([0xff, 0x00]), '∑😀'],
      decoded: ['héllo', long, '\ufffd\u0000', '∑😀'],
      revision,
    }) as StringBlobColumn
    expect(column.bytesOf(2)).toEqual(new Uint8Array([0xff, 0x00]))
    expect(() => encodeColumn('String', ['a', 'b\ud800'], at54492)).toThrow(/row 1: .*surrogate/)
    expect(() => encodeColumn('String', ['a', 5], at54492)).toThrow(/row 1: 5 is not a valid String/)
  })

  it('encodes from the middle of an input while the writer grows', () => {
    const kinds = ['', 'plain', 'é', 'x'.repeat(200), 'tail€', 'a'.repeat(127)]
    const values = Array.from({ length: 700 }, (_, row) => kinds[row % kinds.length]!)
    const codec = codecFor(parseType('String'), at54492)
    const writer = new ByteWriter(16)
    writer.u8(0x5a)
    codec.encodeFrom!(writer, values, 100, 500)
    const bytes = writer.copy()
    expect(bytes[0]).toBe(0x5a)
    const column = decodeColumn('String', bytes.subarray(1), 500, at54492)
    expect(Array.from(column.values())).toEqual(values.slice(100, 600))
  })

  it('hands Arrow the blob and the offsets themselves, no copy', () => {
    const bytes = encodeColumn('String', ['ab', '', 'cde'], at54492)
    const column = decodeColumn('String', bytes, 3, at54492) as StringBlobColumn
    expect(column).toBeInstanceOf(StringBlobColumn)
    const { data, offsets } = column.contiguous()
    expect(Array.from(offsets)).toEqual([0, 2, 2, 5])
    expect(new TextDecoder().decode(data)).toBe('abcde')
    expect(data.buffer).toBe(column.bytes.buffer)
    expect(data.byteOffset).toBe(column.bytes.byteOffset + 3 * 8)
  })

  it('refuses offsets that go back or past 2^31 (a broken or hostile stream)', () => {
    const back = fromHex(u64(4) + u64(2) + ascii('abcd'))
    expect(() => decodeColumn('String', back, 2, at54492)).toThrow(ProtocolError)
    const huge = fromHex(u64(2 ** 40) + ascii('ab'))
    expect(() => decodeColumn('String', huge, 1, at54492)).toThrow(/String offsets/)
  })

  it('reports short input at every cut, with the whole blob as the need', () => {
    const bytes = fromHex(u64(4) + u64(8) + ascii('aaaabbbb'))
    const reader = new ByteReader(bytes, 0, 20)
    codecFor(parseType('String'), at54492).decode(reader, 2)
    expect(reader.missing).toBe(24)
    const pairs = scanStringBlob(new ByteReader(bytes), 2)
    expect(Array.from(pairs)).toEqual([16, 20, 20, 24])
  })

  it('reads offsets at any alignment, in a Node Buffer too (its slice is a view, not a copy)', () => {
    const column = fromHex(u64(2) + u64(3) + ascii('abc'))
    for (let shift = 0; shift < 8; shift++) {
      const pool = Buffer.alloc(64 + shift + column.length)
      pool.set(column, 64 + shift)
      const reader = new ByteReader(pool.subarray(1), 63 + shift)
      const decoded = codecFor(parseType('String'), at54492).decode(reader, 2)
      expect(Array.from(decoded.values()), `shift ${shift}`).toEqual(['ab', 'c'])
    }
  })

  it('keeps the prefixed layout below 54492 and in HTTP bodies (revision 0)', () => {
    for (const below of [0, 54488, 54491]) {
      const bytes = encodeColumn('String', ['ab', 'c'], context({}, 'UTC', below))
      expect(hex(bytes)).toBe(`02${ascii('ab')}01${ascii('c')}`)
      expect(decodeColumn('String', bytes, 2, context({}, 'UTC', below))).toBeInstanceOf(StringColumn)
    }
  })
})

describe('types that hold Strings, at 54492 (bytes from ClickHouse)', () => {
  it('Array(String): the array offsets, then the strings in the blob layout', () => {
    checkCodec({
      type: 'Array(String)',
      values: [['x', 'yz']],
      bytes: u64(2) + u64(1) + u64(3) + ascii('xyz'),
      revision,
    })
  })

  it('Nullable(String): the null map, then the blob layout', () => {
    checkCodec({ type: 'Nullable(String)', values: ['q'], bytes: `00${u64(1)}${ascii('q')}`, revision })
  })

  it('Map(String, String): offsets, the keys, then the values, each in the blob layout', () => {
    checkCodec({
      type: 'Map(String, String)',
      values: [new Map([['k', 'v']])],
      bytes: u64(1) + u64(1) + ascii('k') + u64(1) + ascii('v'),
      revision,
    })
  })

  it('Tuple(String, UInt8) and FixedString: the String element in the blob layout, FixedString as before', () => {
    checkCodec({
      type: 'Tuple(String, UInt8)',
      values: [['p', 1]],
      bytes: `${u64(1)}${ascii('p')}01`,
      revision,
    })
    checkCodec({ type: 'FixedString(2)', values: ['ab'], bytes: ascii('ab'), revision })
  })

  it('LowCardinality(String): the dictionary keeps VarUInt-prefixed keys', () => {
    checkCodec({
      type: 'LowCardinality(String)',
      values: ['aa', 'bb', 'aa'],
      bytes: `${u64(1)}${u64(0x600)}${u64(3)}00${'02' + ascii('aa')}${'02' + ascii('bb')}${u64(3)}010201`,
      revision,
    })
  })

  it('Variant(String, UInt8): the String alternative in the blob layout', () => {
    checkCodec({
      type: 'Variant(String, UInt8)',
      values: ['hi'],
      bytes: `${u64(0)}00${u64(2)}${ascii('hi')}`,
      revision,
    })
  })

  it('Dynamic: a String member and the shared variant in the blob layout', () => {
    // Dynamic: V2, one type (String), compact mode 0, discriminator 1, then the String.
    const member = fromHex(`${u64(2)}01${'06' + ascii('String')}${u64(0)}01${u64(2)}${ascii('hi')}`)
    expect(decodeColumn('Dynamic', member, 1, at54492).get(0)).toBe('hi')
    // Dynamic(max_types=1): UInt64 as a variant, 'str' in the shared variant (binary type 0x15 +
    // prefixed String); discriminator 0 is the shared variant.
    const shared = fromHex(
      `${u64(2)}01${'06' + ascii('UInt64')}${u64(0)}0001${u64(5)}15${'03' + ascii('str')}${u64(7)}`,
    )
    const column = decodeColumn('Dynamic(max_types=1)', shared, 2, at54492)
    expect(Array.from(column.values())).toEqual(['str', 7n])
  })

  it('JSON: String paths in the blob layout; the shared data and JSON as text keep prefixed strings', () => {
    // JSON(max_dynamic_paths=1) of {"a":"1","b":"two"} and {"a":"3","e":"f"}: path a is a
    // Dynamic of String, b and e are in the shared data (path, binary type + RowBinary value).
    const bytes = fromHex(
      `${u64(2)}01${'01' + ascii('a')}${u64(2)}01${'06' + ascii('String')}${u64(0)}0101` +
        `${u64(1)}${u64(2)}${ascii('13')}` +
        `${u64(1)}${u64(2)}${'01' + ascii('b')}${'01' + ascii('e')}${'05' + '15' + '03' + ascii('two')}${'03' + '15' + '01' + ascii('f')}`,
    )
    const column = decodeColumn('JSON(max_dynamic_paths=1)', bytes, 2, at54492)
    expect(Array.from(column.values())).toEqual([
      { a: '1', b: 'two' },
      { a: '3', e: 'f' },
    ])
    // output_format_native_write_json_as_string=1: version 1, then VarUInt-prefixed text.
    const text = fromHex(`${u64(1)}07${ascii('{"a":1}')}`)
    expect(decodeColumn('JSON', text, 1, at54492).get(0)).toEqual({ a: 1 })
  })
})
