import { describe, expect, it } from 'vitest'
import { context, decodeColumn, encodeColumn } from '../../test/support/codec-checks.js'
import { UsageError } from '../errors/usage-error.js'
import { ByteReader } from '../io/byte-reader.js'
import { typeToString } from '../types/type-node.js'
import { parseType } from '../types/type-parser.js'
import { codecFor, describeCodec } from './codec-registry.js'
import type { ColumnInput } from './column-codec.js'
import { type Column, type ColumnLayout, fixedRowWidth, storageOf } from './column-layout.js'

/** A layout as short text: `list(nullable(fixed(4, Int32)))`. */
function summary(layout: ColumnLayout): string {
  switch (layout.kind) {
    case 'fixed':
      return `fixed(${layout.width}, ${layout.array})`
    case 'fixed-bytes':
      return `fixed-bytes(${layout.width})`
    case 'bytes':
      return layout.prefixed ? 'bytes(prefixed)' : 'bytes(states)'
    case 'nullable':
      return `nullable(${summary(layout.inner)})`
    case 'list':
      return `list(${summary(layout.element)})`
    case 'struct':
      return `struct(${layout.fields.map((field) => (field.name === undefined ? '' : `${field.name}: `) + summary(field.layout)).join(', ')})`
    case 'map':
      return `map(${summary(layout.key)}, ${summary(layout.value)})`
    case 'dictionary':
      return `dictionary(${summary(layout.keys)}${layout.nullable ? ', nullable' : ''})`
    case 'union':
      return `union(${layout.alternatives.map(summary).join(', ')})`
    default:
      return layout.kind
  }
}

const point = 'struct(fixed(8, Float64), fixed(8, Float64))'

describe('what every codec declares', () => {
  const table: ReadonlyArray<readonly [type: string, layout: string, insertShape: string, tsType: string]> = [
    ['Int8', 'fixed(1, Int8)', 'scalar', 'number'],
    ['UInt16', 'fixed(2, Uint16)', 'scalar', 'number'],
    ['Int32', 'fixed(4, Int32)', 'scalar', 'number'],
    ['Int64', 'fixed(8, BigInt64)', 'scalar', 'bigint'],
    ['UInt64', 'fixed(8, BigUint64)', 'scalar', 'bigint'],
    ['Float32', 'fixed(4, Float32)', 'scalar', 'number'],
    ['Float64', 'fixed(8, Float64)', 'scalar', 'number'],
    ['BFloat16', 'fixed(2, Uint16)', 'scalar', 'number'],
    ['Int128', 'fixed(16, BigUint64)', 'scalar', 'bigint'],
    ['UInt256', 'fixed(32, BigUint64)', 'scalar', 'bigint'],
    ['IntervalDay', 'fixed(8, BigInt64)', 'scalar', 'bigint'],
    ['Bool', 'boolean', 'scalar', 'boolean'],
    ['String', 'bytes(prefixed)', 'bytes', 'string'],
    ['FixedString(3)', 'fixed-bytes(3)', 'bytes', 'string'],
    ['Date', 'fixed(2, Uint16)', 'scalar', 'string'],
    ['Date32', 'fixed(4, Int32)', 'scalar', 'string'],
    ['DateTime', 'fixed(4, Uint32)', 'scalar', 'string'],
    ["DateTime64(6, 'UTC')", 'fixed(8, BigInt64)', 'scalar', 'string'],
    ['Time', 'fixed(4, Int32)', 'scalar', 'string'],
    ['Time64(3)', 'fixed(8, BigInt64)', 'scalar', 'string'],
    ['Decimal(9, 2)', 'fixed(4, Int32)', 'scalar', 'string'],
    ['Decimal(18, 2)', 'fixed(8, BigInt64)', 'scalar', 'string'],
    ['Decimal128(3)', 'fixed(16, BigUint64)', 'scalar', 'string'],
    ['Decimal(76, 10)', 'fixed(32, BigUint64)', 'scalar', 'string'],
    ['UUID', 'fixed-bytes(16)', 'scalar', 'string'],
    ['IPv4', 'fixed(4, Uint32)', 'scalar', 'string'],
    ['IPv6', 'fixed-bytes(16)', 'bytes', 'string'],
    ["Enum8('a' = 1)", 'fixed(1, Int8)', 'scalar', '"a"'],
    ["Enum('a' = 1, 'b' = 1000)", 'fixed(2, Int16)', 'scalar', '"a" | "b"'],
    ['Nothing', 'null', 'scalar', 'null'],
    ['AggregateFunction(count)', 'bytes(states)', 'bytes', 'Uint8Array'],
    ['SimpleAggregateFunction(sum, UInt64)', 'fixed(8, BigUint64)', 'scalar', 'bigint'],
    ['Nullable(String)', 'nullable(bytes(prefixed))', 'bytes', 'string | null'],
    ['LowCardinality(Nullable(String))', 'dictionary(bytes(prefixed), nullable)', 'bytes', 'string | null'],
    ['LowCardinality(UInt32)', 'dictionary(fixed(4, Uint32))', 'scalar', 'number'],
    ['Array(Nullable(Int32))', 'list(nullable(fixed(4, Int32)))', 'array', '(number | null)[]'],
    ['Map(String, UInt8)', 'map(bytes(prefixed), fixed(1, Uint8))', 'scalar', 'Map<string, number>'],
    [
      'Tuple(a UInt8, `b c` String)',
      'struct(a: fixed(1, Uint8), b c: bytes(prefixed))',
      'array',
      '{ a: number; "b c": string }',
    ],
    ['Tuple(UInt8, String)', 'struct(fixed(1, Uint8), bytes(prefixed))', 'array', '[number, string]'],
    ['Tuple()', 'struct()', 'array', '[]'],
    ['Nested(x UInt8)', 'list(struct(x: fixed(1, Uint8)))', 'array', '{ x: number }[]'],
    // Alternatives in discriminator (name) order; the TypeScript union in declared order.
    [
      'Variant(UInt64, String)',
      'union(bytes(prefixed), fixed(8, BigUint64))',
      'scalar',
      'bigint | string | null',
    ],
    ['Dynamic', 'values', 'scalar', 'unknown'],
    ['JSON(a UInt8)', 'values', 'scalar', 'Record<string, unknown>'],
    ['Point', point, 'array', '[number, number]'],
    ['Ring', `list(${point})`, 'array', '[number, number][]'],
    ['MultiPolygon', `list(list(list(${point})))`, 'array', '[number, number][][][]'],
    [
      'Geometry',
      `union(list(${point}), list(list(${point})), list(list(list(${point}))), ${point}, list(list(${point})), list(${point}))`,
      'scalar',
      '[number, number] | [number, number][] | [number, number][][] | [number, number][][][] | null',
    ],
    ['QBit(Float32, 8)', 'values', 'array', 'number[]'],
  ]
  it.each(table)('%s: %s, %s, %s', (type, layout, insertShape, tsType) => {
    const codec = codecFor(parseType(type), context())
    expect([summary(codec.layout), codec.insertShape, codec.tsType()]).toEqual([layout, insertShape, tsType])
  })

  it('names the type of every layout node', () => {
    const layout = codecFor(parseType('Array(Nullable(UInt8))'), context()).layout
    expect(
      layout.kind === 'list' && layout.element.kind === 'nullable' ? layout.element.inner : layout,
    ).toEqual({
      kind: 'fixed',
      type: parseType('UInt8'),
      width: 1,
      array: 'Uint8',
    })
    expect(
      typeToString(codecFor(parseType('SimpleAggregateFunction(max, Int8)'), context()).layout.type),
    ).toBe('Int8')
  })

  it('declares the TypeScript type under the codec mapping', () => {
    const tsType = (type: string, mapping: Parameters<typeof context>[0]) =>
      codecFor(parseType(type), context(mapping)).tsType()
    expect(tsType('Map(Int64, Array(Decimal(9, 2)))', { int64: 'string', decimal: 'number' })).toBe(
      'Map<string, number[]>',
    )
    expect(tsType('Tuple(d Date, t DateTime64(3), i IntervalHour)', { dates: 'date', int64: 'number' })).toBe(
      '{ d: Date; t: Date; i: number }',
    )
  })

  it('says why a part is unknown', () => {
    const unsupported: string[] = []
    const codec = describeCodec(parseType('Map(String, AggregateFunction(quantiles(0.5), UInt64))'))
    expect(codec.tsType(unsupported)).toBe('Map<string, unknown>')
    expect(unsupported).toHaveLength(1)
    expect(unsupported[0]).toMatch(
      /^the Native layout of AggregateFunction\(quantiles\(0\.5\), UInt64\) states/,
    )
  })
})

describe('describeCodec', () => {
  it('stands in for types clickwire cannot read, keeping the rest', () => {
    const unsupported: string[] = []
    const codec = describeCodec(parseType('Tuple(a Foo(1), b QBit, c String)'))
    expect(codec.tsType(unsupported)).toBe('{ a: unknown; b: unknown; c: string }')
    expect(unsupported).toEqual([
      'ClickHouse type Foo(1) is not supported by clickwire',
      'ClickHouse type QBit is not supported by clickwire: QBit needs BFloat16, Float32 or Float64 and a dimension: QBit',
    ])
    expect(summary(codec.layout)).toBe('struct(a: values, b: values, c: bytes(prefixed))')
    expect(codec.insertShape).toBe('array')
    const standIn = describeCodec(parseType('Foo'))
    expect(() => standIn.decode(new ByteReader(), 0)).toThrow(
      new UsageError('ClickHouse type Foo is not supported by clickwire'),
    )
  })

  it('describes under the mapping it is given', () => {
    expect(
      describeCodec(parseType('Nullable(DateTime)'), {
        int64: 'bigint',
        dates: 'date',
        decimal: 'string',
      }).tsType(),
    ).toBe('Date | null')
  })
})

/** The decoded column of `values`. */
function decoded(type: string, values: ColumnInput): Column {
  return decodeColumn(type, encodeColumn(type, values), values.length)
}

describe('the storage a decoded column hands out', () => {
  it('is the typed array of fixed-width types, and the bytes of booleans', () => {
    expect(decoded('Int32', [1, -2]).storage()).toEqual({ kind: 'fixed', data: new Int32Array([1, -2]) })
    expect(decoded('Date', ['1970-01-03']).storage()).toEqual({ kind: 'fixed', data: new Uint16Array([2]) })
    expect(decoded('Decimal(9, 2)', ['1.25']).storage()).toEqual({
      kind: 'fixed',
      data: new Int32Array([125]),
    })
    expect(decoded('UInt128', [2n ** 64n + 3n]).storage()).toEqual({
      kind: 'fixed',
      data: new BigUint64Array([3n, 1n]),
    })
    expect(decoded("Enum8('a' = -1)", ['a']).storage()).toEqual({ kind: 'fixed', data: new Int8Array([-1]) })
    expect(decoded('Bool', [true, false]).storage()).toEqual({
      kind: 'boolean',
      data: new Uint8Array([1, 0]),
    })
    expect(decoded('Nothing', [null]).storage()).toEqual({ kind: 'null' })
  })

  it('is the bytes of fixed-size values, and bytes with offsets of the others', () => {
    expect(decoded('FixedString(2)', ['ab', 'c']).storage()).toEqual({
      kind: 'fixed-bytes',
      data: new Uint8Array([97, 98, 99, 0]),
    })
    expect(
      storageOf(decoded('UUID', ['00000000-0000-0000-0000-000000000001']), 'fixed-bytes')?.data,
    ).toHaveLength(16)
    expect(storageOf(decoded('String', ['a', '', 'bcd']), 'bytes')?.contiguous()).toEqual({
      data: new Uint8Array([97, 98, 99, 100]),
      offsets: new Int32Array([0, 1, 1, 4]),
    })
    const states = decoded('AggregateFunction(count)', [new Uint8Array([3]), new Uint8Array([0x80, 0x01])])
    expect(storageOf(states, 'bytes')?.contiguous()).toEqual({
      data: new Uint8Array([3, 0x80, 0x01]),
      offsets: new Int32Array([0, 1, 3]),
    })
    expect(storageOf(decoded('AggregateFunction(count)', []), 'bytes')?.contiguous()).toEqual({
      data: new Uint8Array(0),
      offsets: new Int32Array([0]),
    })
  })

  it('is the parts of composites, as columns', () => {
    const nullable = storageOf(decoded('Nullable(UInt8)', [1, null]), 'nullable')!
    expect([nullable.nulls, nullable.inner.storage()]).toEqual([
      new Uint8Array([0, 1]),
      { kind: 'fixed', data: new Uint8Array([1, 0]) },
    ])
    const list = storageOf(decoded('Array(UInt8)', [[1], [2, 3]]), 'list')!
    expect([list.offsets, list.inner.values()]).toEqual([
      new Int32Array([0, 1, 3]),
      new Uint8Array([1, 2, 3]),
    ])
    const struct = storageOf(decoded('Tuple(UInt8, String)', [[1, 'a']]), 'struct')!
    expect(struct.fields.map((field) => field.values())).toEqual([new Uint8Array([1]), ['a']])
    const map = storageOf(decoded('Map(String, UInt8)', [new Map([['k', 1]]), new Map()]), 'map')!
    expect([map.offsets, map.keys.values(), map.values.values()]).toEqual([
      new Int32Array([0, 1, 1]),
      ['k'],
      new Uint8Array([1]),
    ])
    const dictionary = storageOf(decoded('LowCardinality(String)', ['a', 'a', 'b']), 'dictionary')!
    expect(
      dictionary.granules.map((granule) => [granule.start, granule.indexes, granule.additional?.values()]),
    ).toEqual([[0, new Uint8Array([1, 1, 2]), ['', 'a', 'b']]])
    const union = storageOf(decoded('Variant(String, UInt8)', ['a', 1, null]), 'union')!
    expect([
      union.discriminators,
      union.positions,
      union.alternatives.map((column) => column.values()),
    ]).toEqual([new Uint8Array([0, 1, 255]), new Int32Array([0, 0, 0]), [['a'], new Uint8Array([1])]])
  })

  it('is undefined from storageOf for another kind', () => {
    expect(storageOf(decoded('Int8', [1]), 'bytes')).toBeUndefined()
  })
})

describe('fixedRowWidth', () => {
  it('is the bytes per row of every type whose rows are all alike (what sparse and replicated columns read)', () => {
    const widths: ReadonlyArray<readonly [string, number | undefined]> = [
      ['Int8', 1],
      ['UInt8', 1],
      ['Bool', 1],
      ["Enum8('a' = 1)", 1],
      ['Int16', 2],
      ['UInt16', 2],
      ['Date', 2],
      ["Enum16('a' = 1)", 2],
      ['BFloat16', 2],
      ['Int32', 4],
      ['UInt32', 4],
      ['Float32', 4],
      ['Date32', 4],
      ['DateTime', 4],
      ['DateTime32', 4],
      ['IPv4', 4],
      ['Decimal32(2)', 4],
      ['Time', 4],
      ['Int64', 8],
      ['UInt64', 8],
      ['Float64', 8],
      ['DateTime64(3)', 8],
      ['Decimal64(2)', 8],
      ['Time64(3)', 8],
      ['IntervalHour', 8],
      ['Int128', 16],
      ['UInt128', 16],
      ['UUID', 16],
      ['IPv6', 16],
      ['Decimal128(2)', 16],
      ['Decimal(20, 2)', 16],
      ['Int256', 32],
      ['UInt256', 32],
      ['Decimal256(2)', 32],
      ['FixedString(5)', 5],
      ['SimpleAggregateFunction(sum, UInt64)', 8],
      ['String', undefined],
      ['Nothing', undefined],
      ['Nullable(Int8)', undefined],
      ['Array(UInt8)', undefined],
      ['LowCardinality(String)', undefined],
      ['Tuple(UInt8)', undefined],
    ]
    expect(
      widths.map(([type]) => [type, fixedRowWidth(codecFor(parseType(type), context()).layout)]),
    ).toEqual(widths)
  })
})
