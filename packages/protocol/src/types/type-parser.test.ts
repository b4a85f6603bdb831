import { describe, expect, it } from 'vitest'
import { TypeParseError } from '../errors/usage-error.js'
import { typeToString } from './type-node.js'
import { parseType } from './type-parser.js'

const roundTrips = [
  'UInt8',
  'Array(Nullable(LowCardinality(String)))',
  'Map(String, Array(UInt64))',
  'Tuple(a UInt8, `b c` String)',
  'Nested(id UInt32, name String)',
  "Enum8('a\\'b' = -1, 'c' = 2)",
  "DateTime('Europe/Moscow')",
  "DateTime64(9, 'UTC')",
  'Decimal(76, 10)',
  'FixedString(16)',
  'AggregateFunction(uniq, UInt64)',
  'AggregateFunction(quantiles(0.5, 0.9), Float64)',
  'AggregateFunction(1, sumMap, Array(UInt8), Array(UInt8))',
  'SimpleAggregateFunction(sum, UInt64)',
  'LowCardinality(Nullable(String))',
  "JSON(max_dynamic_paths=10, a.b UInt32, SKIP a.c, SKIP REGEXP 'x.*')",
  'Variant(String, UInt64, Array(UInt8))',
  'Dynamic',
  'Dynamic(max_types=3)',
  'Int128',
  'UInt256',
  'Bool',
  'Date32',
  'IPv4',
  'IPv6',
  'UUID',
  'Nothing',
  'Nullable(Nothing)',
  'IntervalSecond',
  'Point',
  'Ring',
  'Polygon',
  'MultiPolygon',
  'Time',
  'Time64(3)',
  'Tuple()',
  "Object('json')",
]

describe('parseType', () => {
  it.each(roundTrips)('parses and prints %s unchanged', (text) => {
    expect(typeToString(parseType(text))).toBe(text)
  })

  it('builds the tree of nested and named types', () => {
    expect(parseType('Tuple(a UInt8, `b c` Array(String))')).toEqual({
      name: 'Tuple',
      parenthesized: true,
      args: [
        { kind: 'type', name: 'a', type: { name: 'UInt8', args: [], parenthesized: false } },
        {
          kind: 'type',
          name: 'b c',
          type: {
            name: 'Array',
            parenthesized: true,
            args: [{ kind: 'type', type: { name: 'String', args: [], parenthesized: false } }],
          },
        },
      ],
    })
  })

  it('reads enum elements with escapes, negative values and implicit numbering', () => {
    expect(parseType("Enum8('a\\'b' = -1, 'tab\\there' = 2, 'q''q' = 3)").args).toEqual([
      { kind: 'enum', name: "a'b", value: -1 },
      { kind: 'enum', name: 'tab\there', value: 2 },
      { kind: 'enum', name: "q'q", value: 3 },
    ])
    expect(parseType("Enum('x', 'y')").args).toEqual([
      { kind: 'enum', name: 'x', value: 1 },
      { kind: 'enum', name: 'y', value: 2 },
    ])
  })

  it('reads aggregate functions with parameters and versions', () => {
    expect(parseType('AggregateFunction(1, quantiles(0.5, 0.9), UInt64)').args).toEqual([
      { kind: 'number', value: 1, text: '1' },
      {
        kind: 'function',
        name: 'quantiles',
        params: [
          { kind: 'number', value: 0.5, text: '0.5' },
          { kind: 'number', value: 0.9, text: '0.9' },
        ],
      },
      { kind: 'type', type: { name: 'UInt64', args: [], parenthesized: false } },
    ])
  })

  it('reads JSON settings, typed paths and skips', () => {
    expect(parseType("JSON(max_dynamic_paths = 10, a.b UInt32, SKIP a.c, SKIP REGEXP 'x.*')").args).toEqual([
      { kind: 'setting', name: 'max_dynamic_paths', value: { kind: 'number', value: 10, text: '10' } },
      { kind: 'type', name: 'a.b', type: { name: 'UInt32', args: [], parenthesized: false } },
      { kind: 'skip', path: 'a.c', regexp: false },
      { kind: 'skip', path: 'x.*', regexp: true },
    ])
  })

  it('tolerates whitespace', () => {
    expect(typeToString(parseType('  Map( String ,Array( UInt64 ) ) '))).toBe('Map(String, Array(UInt64))')
  })

  it.each([
    ['Array(UInt8', 11, "')' to close Array("],
    ['Array(UInt8))', 12, 'the end of the type name'],
    ['', 0, 'a name'],
    ['Array()x', 7, 'the end'],
    ["Enum8('a' = x)", 12, 'a number'],
    ["DateTime('UTC)", 14, "closing ' of the literal that starts at 9"],
    ['Tuple(a.b)', 9, 'a type after the name'],
    ['Map(String,)', 11, 'an argument of Map'],
    ['1UInt8', 0, 'a name'],
  ])('points at the position of a bad name: %s', (text, position, expected) => {
    let error: unknown
    try {
      parseType(text)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(TypeParseError)
    expect((error as TypeParseError).position).toBe(position)
    expect((error as TypeParseError).message).toContain(expected)
    expect((error as TypeParseError).message).toContain(`\n  ${text}\n${' '.repeat(position + 2)}^`)
  })
})
