import { describe, expect, it } from 'vitest'
import { context, decodeColumn, encodeColumn } from '../../test/support/codec-checks.js'
import { hasCodec } from '../columns/codec-registry.js'
import { compositeCodecs } from '../columns/composite-codecs.js'
import { scalarCodecs } from '../columns/scalar-codecs.js'
import { isSupportedType, mapType, tsTypeOf, typeFamilies, typeFamily } from './type-mapping.js'
import { parseType } from './type-parser.js'
import { defaultValueMapping, type ValueMapping } from './value-mapping.js'

function ts(type: string, mapping: Partial<ValueMapping> = {}): string {
  return tsTypeOf(parseType(type), { ...defaultValueMapping, ...mapping })
}

describe('type mapping', () => {
  it('maps small integers and floats to number', () => {
    for (const type of [
      'Int8',
      'Int16',
      'Int32',
      'UInt8',
      'UInt16',
      'UInt32',
      'Float32',
      'Float64',
      'BFloat16',
    ])
      expect([type, ts(type)]).toEqual([type, 'number'])
  })

  it.each(['bigint', 'number', 'string'] as const)(
    'maps 64-bit and wider integers and intervals per int64: %s',
    (int64) => {
      const types = ['Int64', 'UInt64', 'Int128', 'UInt128', 'Int256', 'UInt256']
      const intervals = [
        'Nanosecond',
        'Microsecond',
        'Millisecond',
        'Second',
        'Minute',
        'Hour',
        'Day',
        'Week',
        'Month',
        'Quarter',
        'Year',
      ]
      for (const type of [...types, ...intervals.map((unit) => `Interval${unit}`)])
        expect([type, ts(type, { int64 })]).toEqual([type, int64])
    },
  )

  it.each([
    ['string', 'string'],
    ['date', 'Date'],
  ] as const)('maps dates per dates: %s', (dates, expected) => {
    for (const type of [
      'Date',
      'Date32',
      'DateTime',
      "DateTime('Europe/Moscow')",
      'DateTime32',
      'DateTime64(3)',
      "DateTime64(9, 'UTC')",
    ])
      expect([type, ts(type, { dates })]).toEqual([type, expected])
    expect(ts('Time', { dates })).toBe('string')
    expect(ts('Time64(3)', { dates })).toBe('string')
  })

  it.each(['string', 'number'] as const)('maps decimals per decimal: %s', (decimal) => {
    for (const type of [
      'Decimal(9, 2)',
      'Decimal32(2)',
      'Decimal64(4)',
      'Decimal128(10)',
      'Decimal256(20)',
      'Decimal(76, 10)',
    ])
      expect([type, ts(type, { decimal })]).toEqual([type, decimal])
  })

  it('maps the other scalars', () => {
    expect(ts('Bool')).toBe('boolean')
    expect(ts('String')).toBe('string')
    expect(ts('FixedString(16)')).toBe('string')
    expect(ts('UUID')).toBe('string')
    expect(ts('IPv4')).toBe('string')
    expect(ts('IPv6')).toBe('string')
    expect(ts('Nothing')).toBe('null')
    expect(ts('AggregateFunction(uniq, UInt64)')).toBe('Uint8Array')
    expect(ts('SimpleAggregateFunction(sum, UInt64)', { int64: 'string' })).toBe('string')
  })

  it('maps enums to unions of their names, escaped as TypeScript string literals', () => {
    expect(ts("Enum8('a' = 1, 'b' = 2)")).toBe('"a" | "b"')
    expect(ts("Enum16('it\\'s' = 1, 'back\\\\slash' = 2, 'say \"hi\"' = 3, 'é | ü' = 4, 'tab\\t' = 5)")).toBe(
      '"it\'s" | "back\\\\slash" | "say \\"hi\\"" | "é | ü" | "tab\\t"',
    )
    expect(ts("Enum('x', 'y')")).toBe('"x" | "y"')
    expect(ts("Array(Enum8('a' = 1, 'b' = 2))")).toBe('("a" | "b")[]')
  })

  it('maps composites', () => {
    expect(ts('Nullable(String)')).toBe('string | null')
    expect(ts('Nullable(Nothing)')).toBe('null')
    expect(ts('Array(UInt8)')).toBe('number[]')
    expect(ts('Array(Nullable(Int64))')).toBe('(bigint | null)[]')
    expect(ts('Array(Array(String))')).toBe('string[][]')
    expect(ts('Map(String, Array(UInt64))', { int64: 'number' })).toBe('Map<string, number[]>')
    expect(ts('Tuple(UInt8, String)')).toBe('[number, string]')
    expect(ts('Tuple()')).toBe('[]')
    expect(ts('Tuple(a UInt8, `b c` Nullable(String), class Date)', { dates: 'date' })).toBe(
      '{ a: number; "b c": string | null; class: Date }',
    )
    expect(ts('Nested(id UInt32, name String)')).toBe('{ id: number; name: string }[]')
    expect(ts('LowCardinality(Nullable(String))')).toBe('string | null')
    expect(ts('Variant(String, UInt64, Array(UInt8))')).toBe('string | bigint | number[] | null')
    expect(ts('Variant(String, FixedString(2))')).toBe('string | null')
    expect(ts('Array(Variant(String, UInt8))')).toBe('(string | number | null)[]')
    expect(ts('Dynamic')).toBe('unknown')
    expect(ts('JSON')).toBe('Record<string, unknown>')
    expect(ts('JSON(a.b UInt32, max_dynamic_paths = 10)')).toBe('Record<string, unknown>')
    // Object('json') has a table entry but no codec reads it, so it is not promised.
    expect(ts("Object('json')")).toBe('unknown')
  })

  it('maps geo types to nested [x, y] tuples', () => {
    expect(ts('Point')).toBe('[number, number]')
    expect(ts('Ring')).toBe('[number, number][]')
    expect(ts('LineString')).toBe('[number, number][]')
    expect(ts('Polygon')).toBe('[number, number][][]')
    expect(ts('MultiLineString')).toBe('[number, number][][]')
    expect(ts('MultiPolygon')).toBe('[number, number][][][]')
  })

  it('resolves aliases', () => {
    expect(ts('BIGINT', { int64: 'string' })).toBe('string')
    expect(ts('TEXT')).toBe('string')
    expect(ts('BOOLEAN')).toBe('boolean')
    expect(ts('TIMESTAMP', { dates: 'date' })).toBe('Date')
    expect(typeFamily('INET6')?.name).toBe('IPv6')
  })

  it('reports unsupported types and maps them to unknown', () => {
    const unknown = mapType(parseType('Array(Foo(1))'), defaultValueMapping)
    expect(unknown.tsType).toBe('unknown[]')
    expect(unknown.unsupported).toEqual(['ClickHouse type Foo(1) is not supported by clickwire'])
    const aggregate = mapType(parseType('AggregateFunction(quantiles(0.5), UInt64)'), defaultValueMapping)
    expect(aggregate.tsType).toBe('unknown')
    expect(aggregate.unsupported[0]).toMatch(/quantiles.*finalizeAggregation/)
    expect(isSupportedType(parseType('Map(String, Nullable(Decimal(9, 2)))'))).toBe(true)
    expect(isSupportedType(parseType('Tuple(a BFloat16)'))).toBe(true)
    expect(isSupportedType(parseType('Tuple(a Foo)'))).toBe(false)
  })

  it('lists the canonical families, every one with a codec and a table entry', () => {
    for (const name of [
      'Int8',
      'UInt256',
      'IntervalQuarter',
      'DateTime64',
      'Time64',
      'Decimal256',
      'IPv6',
      'Enum',
    ])
      expect(typeFamilies).toContain(name)
    for (const name of [
      'Nullable',
      'Array',
      'Map',
      'Tuple',
      'Nested',
      'LowCardinality',
      'Variant',
      'Dynamic',
      'JSON',
    ])
      expect(typeFamilies).toContain(name)
    expect(typeFamilies).toContain('MultiPolygon')
    expect(new Set(typeFamilies).size).toBe(typeFamilies.length)
    expect(typeFamilies.filter((name) => !hasCodec(name) || typeFamily(name)?.name !== name)).toEqual([])
  })

  it('has an entry for every family with a codec, so no decodable type maps to unknown', () => {
    const registered = [...scalarCodecs, ...compositeCodecs].map(({ name }) => name)
    expect(registered.filter((name) => typeFamily(name) === undefined)).toEqual([])
  })

  it('agrees with what the decoders return, for every scalar family and every mapping option', () => {
    const samples: [string, unknown[]][] = [
      ['Int8', [-1]],
      ['UInt32', [7]],
      ['Float64', [0.5]],
      ['Int64', [-1n]],
      ['UInt64', [1n]],
      ['Int128', [2n]],
      ['UInt256', [3n]],
      ['IntervalDay', [4n]],
      ['Bool', [true]],
      ['String', ['s']],
      ['FixedString(2)', ['ab']],
      ['Date', ['2020-01-01']],
      ['Date32', ['1950-01-01']],
      ["DateTime('UTC')", ['2020-01-01 00:00:00']],
      ['DateTime64(3)', ['2020-01-01 00:00:00.123']],
      ['Time', ['01:00:00']],
      ['Time64(3)', ['01:00:00.5']],
      ['Decimal(9, 2)', ['1.50']],
      ['Decimal256(5)', ['-1.5']],
      ['UUID', ['61f0c404-5cb3-11e7-907b-a6006ad3dba0']],
      ['IPv4', ['1.2.3.4']],
      ['IPv6', ['::1']],
      ["Enum8('a' = 1, 'b' = 2)", ['b']],
      ['Nothing', [null]],
      ['AggregateFunction(count)', [new Uint8Array([3])]],
      ['SimpleAggregateFunction(max, UInt64)', [5n]],
    ]
    const conforms = (value: unknown, tsType: string): boolean =>
      tsType.split(' | ').some((member) => {
        if (member.startsWith('"')) return value === JSON.parse(member)
        if (member === 'null') return value === null
        if (member === 'Date') return value instanceof Date
        if (member === 'Uint8Array') return value instanceof Uint8Array
        return typeof value === member
      })
    for (const int64 of ['bigint', 'number', 'string'] as const)
      for (const dates of ['string', 'date'] as const)
        for (const decimal of ['string', 'number'] as const) {
          const mapping = { int64, dates, decimal }
          for (const [type, values] of samples) {
            const column = decodeColumn(type, encodeColumn(type, values), values.length, context(mapping))
            const tsType = ts(type, mapping)
            expect([type, mapping, column.get(0), conforms(column.get(0), tsType)]).toEqual([
              type,
              mapping,
              column.get(0),
              true,
            ])
          }
        }
  })
})
