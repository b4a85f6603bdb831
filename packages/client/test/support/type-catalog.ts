/**
 * Every column type ClickHouse 18.16 can store, with three rows of edge values as SQL
 * literals and the values rows() must give for them under the default value mapping
 * (int64 bigint, dates string, decimal string). Shared by the result and Arrow tests.
 */
export interface CatalogColumn {
  readonly name: string
  /** The type as the server prints it. */
  readonly type: string
  /** One SQL literal per row (INSERT ... VALUES). */
  readonly literals: readonly [string, string, string]
  /** What rows() gives per row. */
  readonly values: readonly [unknown, unknown, unknown]
}

export const catalog: readonly CatalogColumn[] = [
  { name: 'i8', type: 'Int8', literals: ['-128', '0', '127'], values: [-128, 0, 127] },
  { name: 'i16', type: 'Int16', literals: ['-32768', '1', '32767'], values: [-32768, 1, 32767] },
  {
    name: 'i32',
    type: 'Int32',
    literals: ['-2147483648', '2', '2147483647'],
    values: [-2147483648, 2, 2147483647],
  },
  {
    name: 'i64',
    type: 'Int64',
    literals: ['-9223372036854775808', '3', '9223372036854775807'],
    values: [-9223372036854775808n, 3n, 9223372036854775807n],
  },
  { name: 'u8', type: 'UInt8', literals: ['0', '1', '255'], values: [0, 1, 255] },
  { name: 'u16', type: 'UInt16', literals: ['0', '2', '65535'], values: [0, 2, 65535] },
  { name: 'u32', type: 'UInt32', literals: ['0', '3', '4294967295'], values: [0, 3, 4294967295] },
  {
    name: 'u64',
    type: 'UInt64',
    literals: ['0', '4', '18446744073709551615'],
    values: [0n, 4n, 18446744073709551615n],
  },
  { name: 'f32', type: 'Float32', literals: ['-1.5', '0', '3.25'], values: [-1.5, 0, 3.25] },
  { name: 'f64', type: 'Float64', literals: ['-2.5', '0.1', '1e300'], values: [-2.5, 0.1, 1e300] },
  {
    name: 'd32',
    type: 'Decimal(9, 2)',
    literals: ['-1234567.89', '0', '1.5'],
    values: ['-1234567.89', '0.00', '1.50'],
  },
  {
    name: 'd64',
    type: 'Decimal(18, 4)',
    literals: ['-12.5', '0', '99999999999999.9999'],
    values: ['-12.5000', '0.0000', '99999999999999.9999'],
  },
  {
    name: 'd128',
    type: 'Decimal(38, 10)',
    literals: ['-1.0000000001', '0', '1234567890123456789012345678.0123456789'],
    values: ['-1.0000000001', '0.0000000000', '1234567890123456789012345678.0123456789'],
  },
  {
    name: 's',
    type: 'String',
    literals: ["''", "'hello'", "'ünïcødé 🎉\\ttab'"],
    values: ['', 'hello', 'ünïcødé 🎉\ttab'],
  },
  {
    name: 'fs',
    type: 'FixedString(4)',
    literals: ["'ab'", "'abcd'", "''"],
    values: ['ab\0\0', 'abcd', '\0\0\0\0'],
  },
  {
    name: 'd',
    type: 'Date',
    literals: ["'1970-01-01'", "'2020-02-29'", "'2105-12-31'"],
    values: ['1970-01-01', '2020-02-29', '2105-12-31'],
  },
  {
    name: 'dt',
    type: 'DateTime',
    literals: ["'1970-01-01 00:00:00'", "'2020-02-29 12:34:56'", "'2038-01-19 03:14:08'"],
    values: ['1970-01-01 00:00:00', '2020-02-29 12:34:56', '2038-01-19 03:14:08'],
  },
  {
    name: 'dtz',
    type: "DateTime('Asia/Tokyo')",
    literals: ["'2020-01-01 09:00:00'", "'1970-01-01 09:00:00'", "'2038-01-19 12:14:08'"],
    values: ['2020-01-01 09:00:00', '1970-01-01 09:00:00', '2038-01-19 12:14:08'],
  },
  {
    name: 'uuid',
    type: 'UUID',
    literals: [
      "'00000000-0000-0000-0000-000000000000'",
      "'01234567-89ab-cdef-0123-456789abcdef'",
      "'ffffffff-ffff-ffff-ffff-ffffffffffff'",
    ],
    values: [
      '00000000-0000-0000-0000-000000000000',
      '01234567-89ab-cdef-0123-456789abcdef',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
    ],
  },
  {
    name: 'e8',
    type: "Enum8('a' = -128, 'b' = 0, 'c' = 127)",
    literals: ["'a'", "'b'", "'c'"],
    values: ['a', 'b', 'c'],
  },
  {
    name: 'e16',
    type: "Enum16('x' = -32768, 'y' = 1000)",
    literals: ["'y'", "'x'", "'y'"],
    values: ['y', 'x', 'y'],
  },
  { name: 'ni', type: 'Nullable(Int32)', literals: ['NULL', '0', '-7'], values: [null, 0, -7] },
  { name: 'nu64', type: 'Nullable(UInt64)', literals: ['5', 'NULL', '0'], values: [5n, null, 0n] },
  { name: 'ns', type: 'Nullable(String)', literals: ['NULL', "''", "'x'"], values: [null, '', 'x'] },
  {
    name: 'nd',
    type: 'Nullable(Decimal(9, 2))',
    literals: ['NULL', '1.25', '-3'],
    values: [null, '1.25', '-3.00'],
  },
  {
    name: 'ndate',
    type: 'Nullable(Date)',
    literals: ["'2000-01-01'", 'NULL', "'1999-12-31'"],
    values: ['2000-01-01', null, '1999-12-31'],
  },
  {
    name: 'ndt',
    type: 'Nullable(DateTime)',
    literals: ['NULL', "'2000-01-01 00:00:01'", "'2001-02-03 04:05:06'"],
    values: [null, '2000-01-01 00:00:01', '2001-02-03 04:05:06'],
  },
  {
    name: 'ndtz',
    type: "Nullable(DateTime('Asia/Tokyo'))",
    literals: ["'2000-01-01 09:00:00'", 'NULL', "'2001-02-03 04:05:06'"],
    values: ['2000-01-01 09:00:00', null, '2001-02-03 04:05:06'],
  },
  { name: 'nf', type: 'Nullable(Float64)', literals: ['1.5', 'NULL', '-0.25'], values: [1.5, null, -0.25] },
  {
    name: 'nuuid',
    type: 'Nullable(UUID)',
    literals: ['NULL', "'01234567-89ab-cdef-0123-456789abcdef'", 'NULL'],
    values: [null, '01234567-89ab-cdef-0123-456789abcdef', null],
  },
  {
    name: 'nfs',
    type: 'Nullable(FixedString(2))',
    literals: ["'ab'", 'NULL', "'c'"],
    values: ['ab', null, 'c\0'],
  },
  {
    name: 'ne',
    type: "Nullable(Enum8('on' = 1, 'off' = 2))",
    literals: ['NULL', "'on'", "'off'"],
    values: [null, 'on', 'off'],
  },
  { name: 'a8', type: 'Array(UInt8)', literals: ['[]', '[1]', '[1, 2, 3]'], values: [[], [1], [1, 2, 3]] },
  {
    name: 'ai64',
    type: 'Array(Int64)',
    literals: ['[-1]', '[]', '[9223372036854775807, 0]'],
    values: [[-1n], [], [9223372036854775807n, 0n]],
  },
  {
    name: 'as',
    type: 'Array(String)',
    literals: ["['a', '']", '[]', "['b']"],
    values: [['a', ''], [], ['b']],
  },
  {
    name: 'aan',
    type: 'Array(Array(Nullable(String)))',
    literals: ["[[NULL, 'x'], []]", '[]', "[['y']]"],
    values: [[[null, 'x'], []], [], [['y']]],
  },
  {
    name: 'an',
    type: 'Array(Nullable(UInt64))',
    literals: ['[NULL, 1]', '[]', '[18446744073709551615]'],
    values: [[null, 1n], [], [18446744073709551615n]],
  },
  {
    name: 'ad',
    type: 'Array(Decimal(18, 2))',
    literals: ['[1.5]', '[]', '[-2, 0.01]'],
    values: [['1.50'], [], ['-2.00', '0.01']],
  },
  {
    name: 'adt',
    type: "Array(DateTime('Asia/Tokyo'))",
    literals: ["['2020-01-01 09:00:00']", '[]', "['1970-01-01 09:00:00', '2000-01-01 00:00:00']"],
    values: [['2020-01-01 09:00:00'], [], ['1970-01-01 09:00:00', '2000-01-01 00:00:00']],
  },
  {
    name: 'adate',
    type: 'Array(Date)',
    literals: ["['2020-01-01']", '[]', "['1970-01-02']"],
    values: [['2020-01-01'], [], ['1970-01-02']],
  },
  {
    name: 'ae',
    type: "Array(Enum8('p' = 1, 'q' = 2))",
    literals: ["['p', 'q']", '[]', "['q']"],
    values: [['p', 'q'], [], ['q']],
  },
  {
    name: 't',
    type: 'Tuple(UInt8, String, Array(Int16))',
    literals: ["(1, 'a', [1])", "(0, '', [])", "(255, 'z', [-1, 2])"],
    values: [
      [1, 'a', [1]],
      [0, '', []],
      [255, 'z', [-1, 2]],
    ],
  },
  {
    name: 'tn',
    type: 'Tuple(Nullable(String), Decimal(9, 3))',
    literals: ['(NULL, 1)', "('s', -0.5)", "('', 0)"],
    values: [
      [null, '1.000'],
      ['s', '-0.500'],
      ['', '0.000'],
    ],
  },
  { name: 'lc', type: 'LowCardinality(String)', literals: ["'x'", "'y'", "'x'"], values: ['x', 'y', 'x'] },
  {
    name: 'lcn',
    type: 'LowCardinality(Nullable(String))',
    literals: ['NULL', "'p'", "'p'"],
    values: [null, 'p', 'p'],
  },
  {
    name: 'lcfs',
    type: 'LowCardinality(FixedString(2))',
    literals: ["'ab'", "'ab'", "'cd'"],
    values: ['ab', 'ab', 'cd'],
  },
  {
    name: 'alc',
    type: 'Array(LowCardinality(String))',
    // No empty array: 18.16 writes a stray LowCardinality granule for a block whose arrays
    // are all empty, which no reader (its own clickhouse-client included) can read.
    literals: ["['m', 'n']", "['o']", "['m']"],
    values: [['m', 'n'], ['o'], ['m']],
  },
  {
    name: 'n.a',
    type: 'Array(UInt8)',
    literals: ['[1, 2]', '[]', '[3]'],
    values: [[1, 2], [], [3]],
  },
  {
    name: 'n.b',
    type: 'Array(String)',
    literals: ["['x', 'y']", '[]', "['z']"],
    values: [['x', 'y'], [], ['z']],
  },
]

/** The column definitions for CREATE TABLE (the two `n.*` columns are one Nested column). */
export function catalogDefinitions(): string {
  const plain = catalog.filter((column) => !column.name.startsWith('n.'))
  return [...plain.map((column) => `\`${column.name}\` ${column.type}`), 'n Nested(a UInt8, b String)'].join(
    ', ',
  )
}

/** One `(...)` tuple per row for `INSERT ... VALUES`, in the table's column order (Nested last). */
export function catalogValues(): string[] {
  return [0, 1, 2].map((row) => `(${catalog.map((column) => column.literals[row]).join(', ')})`)
}

/** The expected rows (objects) under the default value mapping. */
export function catalogRows(): Record<string, unknown>[] {
  return [0, 1, 2].map((row) =>
    Object.fromEntries(catalog.map((column) => [column.name, column.values[row]])),
  )
}
