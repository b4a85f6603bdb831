import { describe, expect, it } from 'vitest'
import { checkCodec, context, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { ByteReader } from '../io/byte-reader.js'
import { parseType } from '../types/type-parser.js'
import { codecFor } from './codec-registry.js'
import { typedValue } from './typed-value.js'

describe('Dynamic', () => {
  it('V1: types in the prefix, then a Variant of them plus SharedVariant (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin([42::Int64::Dynamic, 'a'::String, 1.5::Float64, NULL,
    //   [1,NULL]::Array(Nullable(Int64))::Dynamic, map('k',1::Int64)::Dynamic, toLowCardinality('lc')::Dynamic])
    checkCodec({
      type: 'Dynamic',
      values: [
        42,
        'a',
        1.5,
        null,
        [1, null],
        new Map([['k', 1]]),
        typedValue('LowCardinality(String)', 'lc'),
      ],
      decoded: [42n, 'a', 1.5, null, [1n, null], new Map([['k', 1n]]), 'lc'],
      bytes:
        '0100000000000000 06 06 16 4172726179284e756c6c61626c6528496e7436342929 07 466c6f61743634 05 496e743634' +
        '16 4c6f7743617264696e616c69747928537472696e6729 12 4d617028537472696e672c20496e74363429 06 537472696e67' +
        '0000000000000000 0100000000000000' +
        '020601ff000403' +
        '0200000000000000 0001 01000000000000000000000000000000' +
        '000000000000f83f 2a00000000000000' +
        '0006000000000000 0200000000000000 00 026c63 0100000000000000 01' +
        '0100000000000000 016b 0100000000000000 0161',
    })
  })

  it('reads values kept in the shared variant (binary type + RowBinary value)', () => {
    // chdb: SELECT arrayJoin([1::Int64::Dynamic(max_types=1), 'x'::Dynamic(max_types=1), NULL])
    const bytes = fromHex(
      '0100000000000000 01 01 05496e743634 0000000000000000 0001ff 0100000000000000 03 150178',
    )
    const column = decodeColumn('Dynamic(max_types=1)', bytes, 3)
    expect(column.values()).toEqual([1n, 'x', null])
    expect(column.get(1)).toBe('x')
  })

  it('reads the V2 and FLATTENED layouts', () => {
    const v2 = fromHex('0200000000000000 01 06537472696e67 0000000000000000 ff01 0178')
    expect(decodeColumn('Dynamic', v2, 2).values()).toEqual([null, 'x'])
    // chdb: same rows as above with output_format_native_use_flattened_dynamic_and_json_serialization=1
    const flat = fromHex(
      '0300000000000000 02 0c41727261792855496e743829 06537472696e67 01010200 0200000000000000 0102 0131 0178',
    )
    const column = decodeColumn('Dynamic', flat, 4)
    expect(column.values()).toEqual(['1', 'x', null, [1, 2]])
    expect(column.get(3)).toEqual([1, 2])
  })

  it('decodes shared-variant values of composite types', () => {
    // Array(Nullable(Int64)) [1, 2] as binary type 1e 23 0a, then RowBinary.
    const value = '1e230a 02 00 0100000000000000 00 0200000000000000'
    const bytes = fromHex(`0100000000000000 00 00 0000000000000000 00 16 ${value}`)
    expect(decodeColumn('Dynamic', bytes, 1).values()).toEqual([[1n, 2n]])
  })

  it('round-trips inferred types and reports truncation', () => {
    checkCodec({
      type: 'Dynamic',
      values: [
        's',
        1,
        2.5,
        3n,
        2n ** 64n - 1n,
        [['a']],
        null,
        typedValue('UInt8', 7),
        new Uint8Array([0x61]),
      ],
      decoded: ['s', 1n, 2.5, 3n, 2n ** 64n - 1n, [['a']], null, 7, 'a'],
    })
  })

  it('rejects unknown versions and values it cannot type', () => {
    expect(() => decodeColumn('Dynamic', fromHex('0500000000000000'), 0)).toThrow(/version 5/)
    expect(() => encodeColumn('Dynamic', [[1, 'a']])).toThrow(/elements of types Int64 and String/)
    const codec = codecFor(parseType('Dynamic'), context())
    expect(() => codec.decode(new ByteReader(new Uint8Array(0)), 1)).toThrow(ProtocolError)
  })
})

describe('Dynamic of scalar types', () => {
  it('writes booleans as Bool and Dates as DateTime64(3) (bytes from ClickHouse)', () => {
    // chdb: SELECT arrayJoin([true::Dynamic, '2017-01-04 10:20:30.123'::DateTime64(3)::Dynamic])
    checkCodec({
      type: 'Dynamic',
      values: [true, new Date(Date.UTC(2017, 0, 4, 10, 20, 30, 123))],
      decoded: [true, '2017-01-04 10:20:30.123'],
      bytes:
        '0100000000000000 02 02 04426f6f6c 0d4461746554696d6536342833290000000000000000 0001 01 2b8efe6859010000',
    })
  })
})
