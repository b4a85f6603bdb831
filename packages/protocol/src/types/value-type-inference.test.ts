import { describe, expect, it } from 'vitest'
import { decodeColumn, encodeColumn } from '../../test/support/codec-checks.js'
import { describeValue } from '../columns/column-codec.js'
import { typedValue } from '../columns/typed-value.js'
import { UsageError } from '../errors/usage-error.js'
import { parameterText } from '../params/server-parameters.js'
import { legacyParameterFeatures, modernParameterFeatures } from './server-type-features.js'
import { typeToString } from './type-node.js'
import { commonParameterType, inferDynamicType, inferParameterType } from './value-type-inference.js'

const modern = (value: unknown) => typeToString(inferParameterType(value))
const legacy = (value: unknown) => typeToString(inferParameterType(value, legacyParameterFeatures))

describe('inferParameterType', () => {
  const table: ReadonlyArray<readonly [value: unknown, modern: string, legacy: string]> = [
    [1, 'Int64', 'Int64'],
    [-(2 ** 53) + 1, 'Int64', 'Int64'],
    [2 ** 53, 'Float64', 'Float64'],
    [0.5, 'Float64', 'Float64'],
    [-0, 'Float64', 'Float64'],
    [Number.NaN, 'Float64', 'Float64'],
    [Number.NEGATIVE_INFINITY, 'Float64', 'Float64'],
    [-(2n ** 63n), 'Int64', 'Int64'],
    [2n ** 63n, 'UInt64', 'UInt64'],
    [2n ** 64n - 1n, 'UInt64', 'UInt64'],
    ['', 'String', 'String'],
    [new Uint8Array([1]), 'String', 'String'],
    [true, 'Bool', 'UInt8'],
    [new Date(1000), "DateTime64(3, 'UTC')", "DateTime('UTC')"],
    [null, 'Nullable(Nothing)', 'Nullable(Nothing)'],
    [undefined, 'Nullable(Nothing)', 'Nullable(Nothing)'],
    [[], 'Array(Nothing)', 'Array(Nothing)'],
    [[null], 'Array(Nullable(Nothing))', 'Array(Nullable(Nothing))'],
    [[1, 2.5, null], 'Array(Nullable(Float64))', 'Array(Nullable(Float64))'],
    [[1n, 2n ** 63n], 'Array(UInt64)', 'Array(UInt64)'],
    [[[], [1], [null]], 'Array(Array(Nullable(Int64)))', 'Array(Array(Nullable(Int64)))'],
    [['a', null, 'b'], 'Array(Nullable(String))', 'Array(Nullable(String))'],
    [[true, false], 'Array(Bool)', 'Array(UInt8)'],
    [new Int32Array(2), 'Array(Int32)', 'Array(Int32)'],
    [new BigUint64Array(1), 'Array(UInt64)', 'Array(UInt64)'],
    [new Float32Array(1), 'Array(Float32)', 'Array(Float32)'],
  ]
  for (const [value, expectedModern, expectedLegacy] of table) {
    it(`${String(value)} -> ${expectedModern} / ${expectedLegacy}`, () => {
      expect(modern(value)).toBe(expectedModern)
      expect(legacy(value)).toBe(expectedLegacy)
    })
  }

  it('infers Map(String, T) for objects and Map(K, V) for JS Maps on servers with Map', () => {
    expect(modern({ a: 1, b: null })).toBe('Map(String, Nullable(Int64))')
    expect(modern({})).toBe('Map(String, Nothing)')
    expect(modern(new Map([[1, ['x']]]))).toBe('Map(Int64, Array(String))')
    expect(modern(Object.create(null))).toBe('Map(String, Nothing)')
    expect(() => legacy({ a: 1 })).toThrow(/an object, and this server has no Map type/)
  })

  it('refuses what has no single ClickHouse type', () => {
    expect(() => modern(2n ** 64n)).toThrow(
      new UsageError(
        'cannot infer a ClickHouse type for the value: 18446744073709551616n is outside Int64 and UInt64; declare it with {name:Type}',
      ),
    )
    expect(() => modern([1, 'a'])).toThrow(/it mixes Int64 and String/)
    expect(() => modern([[1], null])).toThrow(
      /null next to a value of type Array\(Int64\), which cannot be Nullable/,
    )
    expect(() => modern(new Date(Number.NaN))).toThrow(/an invalid Date/)
    expect(() => modern(Symbol('s'))).toThrow(/has no ClickHouse counterpart/)
    expect(() => modern(new Set([1]))).toThrow(/a Set has no ClickHouse counterpart/)
    expect(() => modern(new Map([[null, 1]]))).toThrow(/a Map with a null key/)
  })

  it('refuses a Date with milliseconds when the server has no DateTime64', () => {
    expect(() => legacy(new Date(1500))).toThrow(
      /a Date with milliseconds, and this server has no DateTime64/,
    )
    expect(() => legacy([new Date(1000), new Date(1001)])).toThrow(
      /the value \[1\]: a Date with milliseconds/,
    )
  })

  it('infers types whose parameter text holds the value exactly', () => {
    const values: unknown[] = [[1, 2.5, null], [1n, 2n ** 63n], { k: [true] }, new Date(1234), -0]
    expect(values.map((value) => parameterText(inferParameterType(value), value))).toEqual([
      '[1,2.5,NULL]',
      '[1,9223372036854775808]',
      "{'k':[true]}",
      '0000000001.234',
      '-0',
    ])
    expect(modernParameterFeatures).toEqual({ bool: true, dateTime64: true, map: true })
  })
})

describe('commonParameterType', () => {
  it('is the element type of the values taken as one array', () => {
    expect(typeToString(commonParameterType([1, 2.5, null]))).toBe('Nullable(Float64)')
    expect(typeToString(commonParameterType([true, false], legacyParameterFeatures))).toBe('UInt8')
    expect(typeToString(commonParameterType([]))).toBe('Nothing')
    expect(() => commonParameterType(['a', 1])).toThrow(
      new UsageError(
        'cannot infer a ClickHouse type for the value: it mixes String and Int64; declare it with {name:Type}',
      ),
    )
  })
})

describe('inferDynamicType', () => {
  const table: ReadonlyArray<readonly [value: unknown, type: string | undefined]> = [
    [null, undefined],
    [undefined, undefined],
    [true, 'Bool'],
    [1, 'Int64'],
    [2 ** 53, 'Float64'],
    [-0, 'Float64'],
    [0.5, 'Float64'],
    [2n ** 63n, 'UInt64'],
    [-(2n ** 63n) - 1n, 'Int128'],
    [2n ** 64n, 'Int128'],
    [2n ** 127n, 'UInt128'],
    ['s', 'String'],
    [new Uint8Array([1]), 'String'],
    [new Date(1000), 'DateTime64(3)'],
    [new Int32Array(2), 'Array(Int32)'],
    [new Float32Array(1), 'Array(Float32)'],
    [[], 'Array(Nothing)'],
    [[null], 'Array(Nullable(Nothing))'],
    [[1, 2.5, null], 'Array(Nullable(Float64))'],
    [[1n, 2n ** 63n], 'Array(UInt64)'],
    [[[], [1], [null]], 'Array(Array(Nullable(Int64)))'],
    [new Map([['a', [1]]]), 'Map(String, Array(Int64))'],
    [new Map(), 'Map(Nothing, Nothing)'],
    [{ a: 1 }, 'JSON'],
    [Object.create(null), 'JSON'],
    [[{ a: 1 }, {}], 'Array(JSON)'],
    [typedValue('INT', 1), 'Int32'],
    [[typedValue('LowCardinality(String)', 'a'), null], 'Array(LowCardinality(Nullable(String)))'],
    [[typedValue('Variant(String, UInt8)', 'a'), null], 'Array(Variant(String, UInt8))'],
  ]
  table.forEach(([value, expected], index) => {
    it(`#${index} ${describeValue(value)} -> ${expected}`, () => {
      expect(inferDynamicType(value)).toBe(expected)
    })
  })

  it('infers types whose codecs write the values, which read back the same', () => {
    const values = [
      1,
      2 ** 53,
      -0,
      2n ** 64n,
      's',
      [1n, 2n ** 63n],
      [[], [1]],
      new Map([['k', 'v']]),
      { a: 'b' },
    ]
    const column = decodeColumn('Dynamic', encodeColumn('Dynamic', values), values.length)
    expect(column.values()).toEqual([
      1n,
      2 ** 53,
      -0,
      2n ** 64n,
      's',
      [1n, 2n ** 63n],
      [[], [1n]],
      new Map([['k', 'v']]),
      { a: 'b' },
    ])
    expect(Object.is(column.get(2), -0)).toBe(true)
  })

  it('says which row and how to declare the type', () => {
    expect(() => inferDynamicType([1, 'a'], 3)).toThrow(
      new UsageError('row 3: elements of types Int64 and String in one array; wrap it with typedValue()'),
    )
    expect(() => inferDynamicType([[1], null])).toThrow(
      new UsageError(
        'row 0: null next to a value of type Array(Int64), which cannot be Nullable; wrap it with typedValue()',
      ),
    )
    expect(() => inferDynamicType(new Set([1]))).toThrow(
      new UsageError('row 0: a Set has no ClickHouse counterpart; wrap it with typedValue()'),
    )
    expect(() => inferDynamicType(new Map([[null, 1]]))).toThrow(
      new UsageError('row 0: a Map with a null key; wrap it with typedValue()'),
    )
  })

  it('is the parameter type wherever both have one, but for bigints past UInt64, Dates, objects and empty Maps', () => {
    const same: unknown[] = [true, 1, 2 ** 53, -0, 'x', new Uint8Array(1), [1, null], new Int16Array(1)]
    for (const value of same) expect(inferDynamicType(value)).toBe(typeToString(inferParameterType(value)))
    expect(typeToString(inferParameterType(new Date(0)))).toBe("DateTime64(3, 'UTC')")
    expect(typeToString(inferParameterType({ a: 1 }))).toBe('Map(String, Int64)')
    expect(typeToString(inferParameterType(new Map()))).toBe('Map(String, Nothing)')
    expect(() => inferParameterType(typedValue('UInt8', 1))).toThrow(
      /the value: a TypedValue has no ClickHouse counterpart; declare it with \{name:Type\}/,
    )
  })
})
