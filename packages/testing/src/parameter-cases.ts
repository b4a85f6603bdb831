// Query parameter cases shared by the protocol and native tests: each value with its exact
// server-side parameter text and client-side substitution, checked by the unit tests and sent
// through ClickHouse 18.16 and chdb by the integration tests.

export interface ParameterCase {
  /** The declared type, as a user writes it in `{v:Type}`. */
  readonly type: string
  readonly value: unknown
  /** Expected server-side parameter text. */
  readonly text: string
  /** Expected client-side substitution. */
  readonly sql: string
  /**
   * What 18.16 prints for `SELECT <sql> AS v, toTypeName(v) FORMAT TSV` (value TAB type),
   * for types 18.16 has; verified by hand against the JS value.
   */
  readonly legacy?: string
}

export const parameterCases: readonly ParameterCase[] = [
  // Strings: quotes, backslashes, control characters, unicode, look-alikes of placeholders.
  {
    type: 'String',
    value: "it's a\tb\\c\n\0\x01\x7f😀",
    text: "it's a\\tb\\\\c\\n\\0\\x01\\x7F😀",
    sql: "'it\\'s a\\tb\\\\c\\n\\0\\x01\\x7F😀'",
    legacy: "it\\'s a\\tb\\\\c\\n\\0\u0001\u007f😀\tString",
  },
  { type: 'String', value: '', text: '', sql: "''", legacy: '\tString' },
  {
    type: 'String',
    value: '{v:String}',
    text: '{v:String}',
    sql: "'{v:String}'",
    legacy: '{v:String}\tString',
  },
  { type: 'String', value: '\\N', text: '\\\\N', sql: "'\\\\N'", legacy: '\\\\N\tString' },
  {
    type: 'String',
    value: new Uint8Array([0x41, 0xff, 0x00, 0x27, 0x5c]),
    text: "A\\xFF\\0'\\\\",
    sql: "'A\\xFF\\0\\'\\\\'",
    legacy: "A\ufffd\\0\\'\\\\\tString",
  },
  {
    type: 'Nullable(String)',
    value: null,
    text: '\\N',
    sql: 'CAST(NULL AS Nullable(String))',
    legacy: '\\N\tNullable(String)',
  },
  {
    type: 'Nullable(String)',
    value: 'NULL',
    text: 'NULL',
    sql: "CAST('NULL' AS Nullable(String))",
    legacy: 'NULL\tNullable(String)',
  },
  {
    type: 'FixedString(3)',
    value: 'ab',
    text: 'ab',
    sql: "CAST('ab' AS FixedString(3))",
    legacy: 'ab\\0\tFixedString(3)',
  },
  {
    type: 'LowCardinality(String)',
    value: 'x',
    text: 'x',
    sql: "CAST('x' AS LowCardinality(String))",
    legacy: 'x\tLowCardinality(String)',
  },
  {
    type: 'LowCardinality(Nullable(String))',
    value: null,
    text: '\\N',
    sql: 'CAST(NULL AS LowCardinality(Nullable(String)))',
    legacy: '\\N\tLowCardinality(Nullable(String))',
  },
  // Integers at their limits.
  { type: 'UInt8', value: 255, text: '255', sql: "CAST('255' AS UInt8)", legacy: '255\tUInt8' },
  { type: 'Int8', value: -128, text: '-128', sql: "CAST('-128' AS Int8)", legacy: '-128\tInt8' },
  { type: 'UInt8', value: false, text: '0', sql: "CAST('0' AS UInt8)", legacy: '0\tUInt8' },
  { type: 'UInt16', value: 65535, text: '65535', sql: "CAST('65535' AS UInt16)", legacy: '65535\tUInt16' },
  {
    type: 'Int32',
    value: -2147483648,
    text: '-2147483648',
    sql: "CAST('-2147483648' AS Int32)",
    legacy: '-2147483648\tInt32',
  },
  {
    type: 'UInt64',
    value: 18446744073709551615n,
    text: '18446744073709551615',
    sql: "CAST('18446744073709551615' AS UInt64)",
    legacy: '18446744073709551615\tUInt64',
  },
  {
    type: 'Int64',
    value: '-9223372036854775808',
    text: '-9223372036854775808',
    sql: "CAST('-9223372036854775808' AS Int64)",
    legacy: '-9223372036854775808\tInt64',
  },
  { type: 'INT', value: 5, text: '5', sql: "CAST('5' AS Int32)", legacy: '5\tInt32' },
  {
    type: 'Int128',
    value: -(2n ** 127n),
    text: '-170141183460469231731687303715884105728',
    sql: "CAST('-170141183460469231731687303715884105728' AS Int128)",
  },
  {
    type: 'UInt256',
    value: 2n ** 256n - 1n,
    text: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
    sql: "CAST('115792089237316195423570985008687907853269984665640564039457584007913129639935' AS UInt256)",
  },
  // Floats: literals for exactness, strings for what a literal cannot spell.
  { type: 'Float64', value: 0.1, text: '0.1', sql: 'CAST(0.1 AS Float64)', legacy: '0.1\tFloat64' },
  { type: 'Float64', value: -0, text: '-0', sql: "CAST('-0' AS Float64)", legacy: '-0\tFloat64' },
  { type: 'Float64', value: Number.NaN, text: 'nan', sql: "CAST('nan' AS Float64)", legacy: 'nan\tFloat64' },
  {
    type: 'Float64',
    value: -Infinity,
    text: '-inf',
    sql: "CAST('-inf' AS Float64)",
    legacy: '-inf\tFloat64',
  },
  {
    type: 'Float64',
    value: 5e-324,
    text: '5e-324',
    sql: 'CAST(1 * 2.2227587494850775e-162 * 2.2227587494850775e-162 AS Float64)',
    legacy: '5e-324\tFloat64',
  },
  {
    type: 'Float64',
    value: 1.7976931348623157e308,
    text: '1.7976931348623157e+308',
    sql: 'CAST(1.7976931348623157e+308 AS Float64)',
    legacy: '1.7976931348623157e308\tFloat64',
  },
  {
    type: 'Float64',
    value: 2 ** 60,
    text: '1.152921504606847e+18',
    sql: 'CAST(1.152921504606847e+18 AS Float64)',
    // 2^60 exactly; 18.16 prints the shortest round-trip text, as JS does.
    legacy: '1152921504606847000\tFloat64',
  },
  { type: 'Float32', value: 0.1, text: '0.1', sql: 'CAST(0.1 AS Float32)', legacy: '0.1\tFloat32' },
  {
    type: 'Float32',
    value: 16777217,
    text: '16777216',
    sql: 'CAST(16777216 AS Float32)',
    legacy: '16777216\tFloat32',
  },
  { type: 'Float32', value: '-inf', text: '-inf', sql: "CAST('-inf' AS Float32)", legacy: '-inf\tFloat32' },
  // Decimals: exact text, canonical form.
  {
    type: 'Decimal(10, 2)',
    value: '1.50',
    text: '1.5',
    sql: "CAST('1.5' AS Decimal(10, 2))",
    legacy: '1.50\tDecimal(10, 2)',
  },
  {
    type: 'Decimal(10, 2)',
    value: -0,
    text: '0',
    sql: "CAST('0' AS Decimal(10, 2))",
    legacy: '0.00\tDecimal(10, 2)',
  },
  {
    type: 'Decimal64(4)',
    value: 1e-4,
    text: '0.0001',
    sql: "CAST('0.0001' AS Decimal64(4))",
    legacy: '0.0001\tDecimal(18, 4)',
  },
  {
    type: 'Decimal(38, 0)',
    value: -(10n ** 38n - 1n),
    text: '-99999999999999999999999999999999999999',
    sql: "CAST('-99999999999999999999999999999999999999' AS Decimal(38, 0))",
    legacy: '-99999999999999999999999999999999999999\tDecimal(38, 0)',
  },
  {
    type: 'Decimal(76, 10)',
    value: '-123456789012345678901234567890123456789012345678901234567890123456.0123456789',
    text: '-123456789012345678901234567890123456789012345678901234567890123456.0123456789',
    sql: "CAST('-123456789012345678901234567890123456789012345678901234567890123456.0123456789' AS Decimal(76, 10))",
  },
  { type: 'Bool', value: true, text: 'true', sql: "CAST('true' AS Bool)" },
  // Dates and times.
  {
    type: 'Date',
    value: '2017-01-04',
    text: '2017-01-04',
    sql: "CAST('2017-01-04' AS Date)",
    legacy: '2017-01-04\tDate',
  },
  {
    type: 'Date',
    value: new Date('2017-01-04T23:59:59Z'),
    text: '2017-01-04',
    sql: "CAST('2017-01-04' AS Date)",
    legacy: '2017-01-04\tDate',
  },
  { type: 'Date32', value: '1900-01-01', text: '1900-01-01', sql: "CAST('1900-01-01' AS Date32)" },
  {
    type: "DateTime('Europe/Moscow')",
    value: '2017-01-01 10:20:30',
    text: '2017-01-01 10:20:30',
    sql: "toDateTime('2017-01-01 10:20:30', 'Europe/Moscow')",
    legacy: "2017-01-01 10:20:30\tDateTime(\\'Europe/Moscow\\')",
  },
  {
    type: "DateTime('Asia/Kolkata')",
    value: new Date('2017-01-01T00:00:00.999Z'),
    text: '1483228800',
    sql: "toDateTime('1483228800', 'Asia/Kolkata')",
    legacy: "2017-01-01 05:30:00\tDateTime(\\'Asia/Kolkata\\')",
  },
  {
    type: "DateTime('UTC')",
    value: 86400,
    text: '0000086400',
    sql: "toDateTime('0000086400', 'UTC')",
    legacy: "1970-01-02 00:00:00\tDateTime(\\'UTC\\')",
  },
  {
    type: "Nullable(DateTime('UTC'))",
    value: new Date(1e12),
    text: '1000000000',
    sql: "CAST(toDateTime('1000000000', 'UTC') AS Nullable(DateTime('UTC')))",
    legacy: "2001-09-09 01:46:40\tNullable(DateTime(\\'UTC\\'))",
  },
  {
    type: "DateTime64(3, 'UTC')",
    value: new Date('2017-01-01T00:00:00.123Z'),
    text: '1483228800.123',
    sql: "toDateTime64('2017-01-01 00:00:00.123', 3, 'UTC')",
  },
  {
    type: "DateTime64(3, 'Asia/Kolkata')",
    value: new Date(-86399500),
    text: '-0000086399.500',
    sql: "CAST(toDateTime64('1969-12-31 00:00:00.500', 3, 'UTC') AS DateTime64(3, 'Asia/Kolkata'))",
  },
  {
    // The server loses the sign of '-0.001', so the second before 1970 travels as UTC wall-clock text.
    type: "DateTime64(3, 'UTC')",
    value: new Date(-1),
    text: '1969-12-31 23:59:59.999',
    sql: "toDateTime64('1969-12-31 23:59:59.999', 3, 'UTC')",
  },
  {
    type: "DateTime64(6, 'Europe/Moscow')",
    value: '2017-01-01 10:20:30.123456',
    text: '2017-01-01 10:20:30.123456',
    sql: "toDateTime64('2017-01-01 10:20:30.123456', 6, 'Europe/Moscow')",
  },
  {
    type: "DateTime64(9, 'UTC')",
    value: new Date(1),
    text: '0000000000.001000000',
    sql: "toDateTime64('1970-01-01 00:00:00.001000000', 9, 'UTC')",
  },
  { type: 'Time', value: '-12:34:56', text: '-12:34:56', sql: "CAST('-12:34:56' AS Time)" },
  { type: 'Time64(3)', value: '100:02:03.5', text: '100:02:03.5', sql: "CAST('100:02:03.5' AS Time64(3))" },
  // Enums, UUID, IPs.
  {
    type: "Enum8('a\\'b' = -1, 'c' = 2)",
    value: "a'b",
    text: "a'b",
    sql: "CAST('a\\'b' AS Enum8('a\\'b' = -1, 'c' = 2))",
    legacy: "a\\'b\tEnum8(\\'a\\\\\\'b\\' = -1, \\'c\\' = 2)",
  },
  {
    type: "Enum16('x' = 1000)",
    value: 1000,
    text: 'x',
    sql: "CAST('x' AS Enum16('x' = 1000))",
    legacy: "x\tEnum16(\\'x\\' = 1000)",
  },
  {
    type: 'UUID',
    value: '61F0C404-5CB3-11E7-907B-A6006AD3DBA0',
    text: '61f0c404-5cb3-11e7-907b-a6006ad3dba0',
    sql: "CAST('61f0c404-5cb3-11e7-907b-a6006ad3dba0' AS UUID)",
    legacy: '61f0c404-5cb3-11e7-907b-a6006ad3dba0\tUUID',
  },
  { type: 'IPv4', value: 0x01020304, text: '1.2.3.4', sql: "CAST('1.2.3.4' AS IPv4)" },
  { type: 'IPv6', value: '2001:DB8::1', text: '2001:db8::1', sql: "CAST('2001:db8::1' AS IPv6)" },
  { type: 'IPv6', value: '1.2.3.4', text: '1.2.3.4', sql: "CAST('1.2.3.4' AS IPv6)" },
  // Composites.
  {
    type: 'Array(String)',
    value: ["it's", 'a\tb', ''],
    text: "['it\\'s','a\\tb','']",
    sql: "CAST(['it\\'s', 'a\\tb', ''] AS Array(String))",
    legacy: "['it\\'s','a\\tb','']\tArray(String)",
  },
  {
    type: 'Array(Nullable(UInt8))',
    value: [1, null],
    text: '[1,NULL]',
    sql: "CAST([CAST('1' AS Nullable(UInt8)), CAST(NULL AS Nullable(UInt8))] AS Array(Nullable(UInt8)))",
    legacy: '[1,NULL]\tArray(Nullable(UInt8))',
  },
  {
    type: 'Array(Array(Date))',
    value: [['2017-01-01'], []],
    text: "[['2017-01-01'],[]]",
    sql: "CAST([CAST(['2017-01-01'] AS Array(Date)), CAST([] AS Array(Date))] AS Array(Array(Date)))",
    legacy: "[['2017-01-01'],[]]\tArray(Array(Date))",
  },
  {
    type: 'Array(UInt64)',
    value: [1n, 2n],
    text: '[1,2]',
    sql: "CAST(['1', '2'] AS Array(UInt64))",
    legacy: '[1,2]\tArray(UInt64)',
  },
  {
    type: 'Array(Int64)',
    value: [-(2n ** 63n), 2n ** 63n - 1n, 0],
    text: '[-9223372036854775808,9223372036854775807,0]',
    sql: "CAST(['-9223372036854775808', '9223372036854775807', '0'] AS Array(Int64))",
    legacy: '[-9223372036854775808,9223372036854775807,0]\tArray(Int64)',
  },
  {
    type: 'Array(Decimal(10, 2))',
    value: ['1.5', -2, 0.01],
    text: '[1.5,-2,0.01]',
    sql: "CAST(['1.5', '-2', '0.01'] AS Array(Decimal(10, 2)))",
    legacy: '[1.50,-2.00,0.01]\tArray(Decimal(10, 2))',
  },
  {
    type: "Array(Enum8('a' = 1, 'b' = 2))",
    value: ['b', 1],
    text: "['b','a']",
    sql: "CAST(['b', 'a'] AS Array(Enum8('a' = 1, 'b' = 2)))",
    legacy: "['b','a']\tArray(Enum8(\\'a\\' = 1, \\'b\\' = 2))",
  },
  {
    type: 'Array(UUID)',
    value: ['00000000-0000-0000-0000-000000000001'],
    text: "['00000000-0000-0000-0000-000000000001']",
    sql: "CAST(['00000000-0000-0000-0000-000000000001'] AS Array(UUID))",
    legacy: "['00000000-0000-0000-0000-000000000001']\tArray(UUID)",
  },
  {
    type: 'Array(FixedString(2))',
    value: ['a', new Uint8Array([0xff, 0])],
    text: "['a','\\xFF\\0']",
    sql: "CAST(['a', '\\xFF\\0'] AS Array(FixedString(2)))",
    legacy: "['a\\0','\ufffd\\0']\tArray(FixedString(2))",
  },
  {
    type: 'Array(Float64)',
    value: new Float64Array([-0, Number.NaN, 0.5]),
    text: '[-0,nan,0.5]',
    sql: "CAST([CAST('-0' AS Float64), CAST('nan' AS Float64), CAST(0.5 AS Float64)] AS Array(Float64))",
    legacy: '[-0,nan,0.5]\tArray(Float64)',
  },
  {
    type: 'Array(LowCardinality(String))',
    value: ['a', 'a'],
    text: "['a','a']",
    sql: "CAST([CAST('a' AS LowCardinality(String)), CAST('a' AS LowCardinality(String))] AS Array(LowCardinality(String)))",
    legacy: "['a','a']\tArray(LowCardinality(String))",
  },
  {
    type: 'Array(Nothing)',
    value: [],
    text: '[]',
    sql: 'CAST([] AS Array(Nothing))',
    legacy: '[]\tArray(Nothing)',
  },
  {
    type: 'Nullable(Nothing)',
    value: undefined,
    text: '\\N',
    sql: 'CAST(NULL AS Nullable(Nothing))',
    legacy: '\\N\tNullable(Nothing)',
  },
  {
    type: 'Tuple(String, Nullable(UInt8))',
    value: ['x', null],
    text: "('x',NULL)",
    sql: "CAST(tuple('x', CAST(NULL AS Nullable(UInt8))) AS Tuple(String, Nullable(UInt8)))",
    legacy: "('x',NULL)\tTuple(String, Nullable(UInt8))",
  },
  {
    type: 'Tuple(UInt8)',
    value: [7],
    text: '(7)',
    sql: "CAST(tuple(CAST('7' AS UInt8)) AS Tuple(UInt8))",
    legacy: '(7)\tTuple(UInt8)',
  },
  {
    type: 'Tuple(a String, b Float64)',
    value: { a: 'x', b: 0.5 },
    text: "('x',0.5)",
    sql: "CAST(tuple('x', CAST(0.5 AS Float64)) AS Tuple(a String, b Float64))",
    legacy: "('x',0.5)\tTuple(a String, b Float64)",
  },
  {
    type: 'Map(String, Array(UInt8))',
    value: { k: [1], "it's": [] },
    text: "{'k':[1],'it\\'s':[]}",
    sql: "CAST(map('k', CAST(['1'] AS Array(UInt8)), 'it\\'s', CAST([] AS Array(UInt8))) AS Map(String, Array(UInt8)))",
  },
  {
    type: 'Map(UInt8, Nullable(String))',
    value: new Map<number, string | null>([
      [1, 'a'],
      [2, null],
    ]),
    text: "{1:'a',2:NULL}",
    sql: "CAST(map(CAST('1' AS UInt8), CAST('a' AS Nullable(String)), CAST('2' AS UInt8), CAST(NULL AS Nullable(String))) AS Map(UInt8, Nullable(String)))",
  },
  {
    type: 'Map(String, UInt8)',
    value: {},
    text: '{}',
    sql: 'CAST(map() AS Map(String, UInt8))',
  },
  {
    type: 'Nested(a UInt8, b String)',
    value: [[1, 'x'], { a: 2, b: 'y' }],
    text: "[(1,'x'),(2,'y')]",
    sql: "CAST([CAST(tuple(CAST('1' AS UInt8), 'x') AS Tuple(a UInt8, b String)), CAST(tuple(CAST('2' AS UInt8), 'y') AS Tuple(a UInt8, b String))] AS Nested(a UInt8, b String))",
  },
]
