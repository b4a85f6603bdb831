/**
 * The cases of modern-types.test.ts: one column type each, with the values as SQL
 * expressions, covering every type family ClickHouse 26.7 lists in system.data_type_families.
 */
export interface ModernCase {
  readonly name: string
  /** The column type, as in CREATE TABLE. */
  readonly type: string
  /** One SQL expression per row, cast to `type` (or to `cast`). */
  readonly values: readonly string[]
  /** The type the values are cast to when it differs from the column's (Nested). */
  readonly cast?: string
  /** False for types a table cannot store: then the values are selected, not stored. */
  readonly storable?: boolean
  /** SQL over the source `src` that returns 1 when the case exercises what it claims. */
  readonly proof?: string
  /** Settings for CREATE TABLE. */
  readonly createSettings?: Readonly<Record<string, string>>
}

const wide = {
  i128min: '-170141183460469231731687303715884105728',
  i128max: '170141183460469231731687303715884105727',
  u128max: '340282366920938463463374607431768211455',
  i256min: '-57896044618658097711785492504343953926634992332820282019728792003956564819968',
  i256max: '57896044618658097711785492504343953926634992332820282019728792003956564819967',
  u256max: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
}

const quoted = (values: readonly string[]) => values.map((value) => `'${value}'`)

export const modernCases: readonly ModernCase[] = [
  {
    name: 'JSON typed and dynamic paths',
    type: 'JSON(a UInt32, b.c String)',
    values: quoted([
      '{"a":1,"b":{"c":"x"},"d":5}',
      '{"a":4294967295,"e":[1,2],"f":{"g":1.5}}',
      '{}',
      '{"b":{"c":"","d":{"e":true}},"s":"ünï 🎉","big":18446744073709551615,"neg":-9223372036854775808}',
    ]),
  },
  {
    name: 'JSON past max_dynamic_paths into shared data',
    type: 'JSON(max_dynamic_paths=2)',
    values: quoted([
      '{"k1":1,"k2":"s","k3":[1,2],"k4":{"x":1.5},"k5":true,"k6":null}',
      '{"k6":7,"k7":"z","k8":{"y":[{"z":1}]},"k9":"2020-01-01"}',
      '{"k1":2}',
      '{}',
      '{"k10":[[1,2],[3]],"k11":-0.5,"k12":["a",null]}',
    ]),
    proof: 'SELECT countIf(length(JSONSharedDataPaths(v)) > 0) > 0 FROM src',
  },
  {
    name: 'JSON with Nullable typed paths',
    type: 'JSON(n Nullable(Int32), s Nullable(String), d Nullable(Decimal(10, 2)))',
    values: quoted(['{"n":null,"x":null}', '{"n":5,"s":"a","d":1.5}', '{"s":null,"d":-12345678.9}']),
  },
  {
    name: 'JSON with a Dynamic path past max_dynamic_types',
    type: 'JSON(max_dynamic_types=1)',
    values: quoted(['{"a":1}', '{"a":"s"}', '{"a":[1,2]}', '{"a":1.5}', '{"a":true}']),
    proof: 'SELECT countIf(isDynamicElementInSharedData(v.a)) > 0 FROM src',
  },
  {
    name: 'Array(JSON) with nested arrays of objects',
    type: 'Array(JSON)',
    // Each element is JSON text: CAST from Array(String) parses them.
    values: [`['{"a":1}', '{"b":[{"c":"x"},{"c":"y","d":[{"e":2}]}]}']`, 'emptyArrayString()', `['{}']`],
  },
  {
    name: 'JSON with a typed Array(JSON) path',
    type: 'JSON(arr Array(JSON(x UInt8)))',
    values: quoted(['{"arr":[{"x":1,"y":"a"},{"x":255}],"z":1}', '{"arr":[]}', '{}']),
  },
  {
    name: 'Dynamic of many types',
    type: 'Dynamic',
    values: [
      'toInt8(-1)',
      "'str'",
      'CAST([1, 2] AS Array(UInt16))',
      "toDate('2020-02-29')",
      'toDecimal64(1.5, 3)',
      'NULL',
      "CAST((1, 'a') AS Tuple(a UInt8, b String))",
      "map('k', toUInt64(18446744073709551615))",
      'true',
      'toFloat32(0.1)',
      "toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0')",
      "toIPv4('1.2.3.4')",
      `toInt256('${wide.i256min}')`,
      "toDateTime64('2020-01-01 00:00:00.123', 3, 'Asia/Kolkata')",
    ],
  },
  {
    name: 'Dynamic past max_types into the shared variant',
    type: 'Dynamic(max_types=2)',
    values: [
      'toInt8(-1)',
      "'str'",
      'CAST([1, 2] AS Array(UInt16))',
      "toDate('2020-02-29')",
      'toDecimal128(-1.25, 5)',
      'toUInt64(18446744073709551615)',
      'NULL',
      "CAST(map('a', [toNullable(1), NULL]) AS Map(String, Array(Nullable(Int8))))",
      "toTime64('-12:34:56.789', 3)",
    ],
    proof: 'SELECT countIf(isDynamicElementInSharedData(v)) > 0 FROM src',
  },
  {
    name: 'Array(Dynamic)',
    type: 'Array(Dynamic)',
    values: ["[toInt8(1)::Dynamic, 'a'::Dynamic, NULL::Dynamic]", 'CAST(emptyArrayInt8() AS Array(Dynamic))'],
  },
  {
    name: 'Variant',
    type: 'Variant(UInt64, String, Array(UInt8), Date)',
    values: [
      'toUInt64(18446744073709551615)',
      "'a'",
      'CAST([1, 2] AS Array(UInt8))',
      'NULL',
      "toDate('2020-01-01')",
    ],
  },
  { name: 'Time', type: 'Time', values: quoted(['00:00:00', '-12:34:56', '999:59:59', '-999:59:59']) },
  {
    name: 'Time64(3)',
    type: 'Time64(3)',
    values: quoted(['00:00:00.000', '-12:34:56.789', '999:59:59.999', '00:00:00.001']),
  },
  {
    name: 'Time64(6)',
    type: 'Time64(6)',
    values: quoted(['12:34:56.000001', '-0:00:00.5', '999:59:59.999999']),
  },
  {
    name: 'BFloat16',
    type: 'BFloat16',
    values: ['1.1', '-0.0', 'inf', '-inf', 'nan', '3.0e38', '1e-40', '-65504'],
  },
  {
    name: 'Float32 and Float64 specials',
    type: 'Tuple(Float32, Float64)',
    values: ['(0.1, 0.1)', '(inf, -inf)', '(nan, nan)', '(-0.0, 1e300)', '(1e-45, 5e-324)'],
  },
  { name: 'Decimal32', type: 'Decimal32(4)', values: ['-99999.9999', '0', '0.0001', '12345.5'] },
  {
    name: 'Decimal64',
    type: 'Decimal64(8)',
    // Quoted: a Float64 literal would round -9999999999.99999999 to -1e10, past P = 18.
    values: quoted(['-9999999999.99999999', '0', '1.5']),
  },
  {
    name: 'Decimal128',
    type: 'Decimal128(20)',
    values: quoted(['-999999999999999999.99999999999999999999', '0', '0.00000000000000000001']),
  },
  {
    name: 'Decimal256',
    type: 'Decimal256(40)',
    values: quoted([
      '-999999999999999999999999999999999999.9999999999999999999999999999999999999999',
      '0',
      '1.5',
    ]),
  },
  { name: 'Decimal(76, 0)', type: 'Decimal(76, 0)', values: quoted(['9'.repeat(76), `-${'9'.repeat(76)}`]) },
  {
    name: 'Date32',
    type: 'Date32',
    values: quoted(['1900-01-01', '1969-12-31', '1970-01-01', '2299-12-31']),
  },
  { name: 'Date', type: 'Date', values: quoted(['1970-01-01', '2149-06-06']) },
  {
    name: 'DateTime64 in Asia/Kolkata',
    type: "DateTime64(3, 'Asia/Kolkata')",
    values: quoted(['1900-01-01 00:00:00.000', '1969-12-31 23:59:59.999', '2299-12-31 23:59:59.999']),
  },
  {
    name: 'DateTime64 in America/St_Johns',
    type: "DateTime64(6, 'America/St_Johns')",
    values: quoted(['1900-01-01 00:00:00.000001', '1960-06-15 12:00:00.5', '2200-03-10 02:30:00.25']),
  },
  {
    name: 'DateTime64(9) in UTC',
    type: "DateTime64(9, 'UTC')",
    values: quoted(['1900-01-01 00:00:00.123456789', '1969-12-31 23:59:59.999999999', '2262-04-11 23:47:16']),
  },
  {
    name: 'DateTime64(0) far future',
    type: "DateTime64(0, 'Asia/Kolkata')",
    values: quoted(['2299-12-31 23:59:59', '1900-01-01 00:00:00']),
  },
  {
    name: 'DateTime with zones',
    type: "Tuple(DateTime('Asia/Kolkata'), DateTime('America/St_Johns'))",
    values: [
      "('1970-01-01 05:30:00', '2000-01-01 00:00:00')",
      "('2106-02-07 11:58:15', '1970-01-01 00:00:00')",
    ],
  },
  {
    name: 'Map(String, Array(Nullable(Int8)))',
    type: 'Map(String, Array(Nullable(Int8)))',
    values: ["map('a', [1, NULL, -128], 'b', [])", 'map()', "map('', [127])"],
  },
  {
    name: 'Map(UInt64, String)',
    type: 'Map(UInt64, String)',
    values: ["map(18446744073709551615, 'max', 10, 'ten', 2, 'two', 0, '')", 'map()'],
  },
  {
    name: 'Map(LowCardinality(String), Tuple(a UInt8, b Nullable(String)))',
    type: 'Map(LowCardinality(String), Tuple(a UInt8, b Nullable(String)))',
    values: ["map('x', (1, NULL), 'y', (2, 'b'))", 'map()'],
  },
  {
    name: 'LowCardinality(Nullable(String))',
    type: 'LowCardinality(Nullable(String))',
    values: ["'a'", 'NULL', "''", "'a'", "'ünï'"],
  },
  { name: 'Point', type: 'Point', values: ['(1.5, -2)', '(0, 0)'] },
  { name: 'Ring', type: 'Ring', values: ['[(0, 0), (1, 0), (1, 1)]', '[]'] },
  { name: 'LineString', type: 'LineString', values: ['[(0, 0), (2.5, 1)]', '[]'] },
  { name: 'MultiLineString', type: 'MultiLineString', values: ['[[(0, 0), (1, 1)], [(2, 2)]]', '[]'] },
  { name: 'Polygon', type: 'Polygon', values: ['[[(0, 0), (1, 0), (1, 1)], [(0.2, 0.2)]]', '[]'] },
  {
    name: 'MultiPolygon',
    type: 'MultiPolygon',
    values: ['[[[(0, 0), (1, 0), (1, 1)]], [[(5, 5)], []]]', '[]'],
  },
  {
    name: 'Geometry',
    type: 'Geometry',
    values: [
      'CAST((1, 2) AS Point)',
      'CAST([(0, 0), (1, 1)] AS Ring)',
      'CAST([(0, 0), (1, 1)] AS LineString)',
      'CAST([[(0, 0)], [(1, 1)]] AS MultiLineString)',
      'CAST([[(0, 0), (1, 0)]] AS Polygon)',
      'CAST([[[(0, 0)]]] AS MultiPolygon)',
      'NULL',
    ],
  },
  {
    name: 'Nested',
    type: 'Nested(a UInt8, b String)',
    cast: 'Array(Tuple(a UInt8, b String))',
    values: ["[(1, 'x'), (2, 'y')]", '[]'],
    createSettings: { flatten_nested: '0' },
  },
  {
    name: 'Int128 / UInt128 / Int256 / UInt256 extremes',
    type: 'Tuple(Int128, UInt128, Int256, UInt256)',
    values: [
      `('${wide.i128min}', '0', '${wide.i256min}', '0')`,
      `('${wide.i128max}', '${wide.u128max}', '${wide.i256max}', '${wide.u256max}')`,
      "('-1', '1', '-1', '1')",
    ],
  },
  {
    name: 'IPv4 / IPv6',
    type: 'Tuple(IPv4, IPv6)',
    values: [
      "('0.0.0.0', '::')",
      "('255.255.255.255', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')",
      "('1.2.3.4', '::ffff:1.2.3.4')",
      "('10.0.0.1', '2001:db8::1')",
    ],
  },
  {
    name: 'Enum8 / Enum16',
    type: "Tuple(Enum8('a' = -128, 'b' = 0, 'ü 🎉' = 127), Enum16('x' = -32768, 'y' = 32767))",
    values: ["('a', 'x')", "('ü 🎉', 'y')", "('b', 'y')"],
  },
  { name: 'Bool', type: 'Bool', values: ['true', 'false'] },
  {
    name: 'UUID',
    type: 'UUID',
    values: quoted([
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '61f0c404-5cb3-11e7-907b-a6006ad3dba0',
    ]),
  },
  { name: 'FixedString', type: 'FixedString(4)', values: quoted(['ab', 'abcd', '']) },
  {
    name: 'Nullable and Array of Nullable',
    type: 'Tuple(Nullable(Decimal256(10)), Array(Nullable(UUID)), Nullable(Int256))',
    values: [
      "(NULL, [NULL, '61f0c404-5cb3-11e7-907b-a6006ad3dba0'], NULL)",
      `('-1.5', [], '${wide.i256max}')`,
    ],
  },
  {
    name: 'named Tuple with wide types',
    type: 'Tuple(a Int256, b Array(Date32), c Nullable(String))',
    values: [`('${wide.i256min}', ['1900-01-01', '2299-12-31'], NULL)`, "(0, [], 'x')"],
  },
  {
    name: 'Int and UInt 8-64 extremes',
    type: 'Tuple(Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64)',
    values: [
      '(-128, -32768, -2147483648, -9223372036854775808, 0, 0, 0, 0)',
      '(127, 32767, 2147483647, 9223372036854775807, 255, 65535, 4294967295, 18446744073709551615)',
    ],
  },
  {
    name: 'String',
    type: 'String',
    values: ["''", "'ünïcødé 🎉\\ttab\\nline'", "'quote\\'s \"and\" \\\\'"],
  },
  {
    name: 'AggregateFunction',
    type: 'Tuple(AggregateFunction(uniq, UInt64), AggregateFunction(sum, UInt64), AggregateFunction(groupArray, String))',
    values: [
      "(arrayReduce('uniqState', [toUInt64(1), 2, 3]), arrayReduce('sumState', [toUInt64(5)]), arrayReduce('groupArrayState', ['a', 'bc']))",
      "(arrayReduce('uniqState', emptyArrayUInt64()), arrayReduce('sumState', emptyArrayUInt64()), arrayReduce('groupArrayState', emptyArrayString()))",
    ],
  },
  {
    name: 'SimpleAggregateFunction',
    type: 'Tuple(SimpleAggregateFunction(sum, UInt64), SimpleAggregateFunction(anyLast, Nullable(String)))',
    values: ["(18446744073709551615, 'x')", '(0, NULL)'],
  },
  {
    name: 'IntervalX',
    type: 'Tuple(IntervalNanosecond, IntervalMicrosecond, IntervalMillisecond, IntervalSecond, IntervalMinute, IntervalHour, IntervalDay, IntervalWeek, IntervalMonth, IntervalQuarter, IntervalYear)',
    values: [
      '(toIntervalNanosecond(1), toIntervalMicrosecond(-2), toIntervalMillisecond(3), toIntervalSecond(-9223372036854775808), toIntervalMinute(5), toIntervalHour(6), toIntervalDay(7), toIntervalWeek(8), toIntervalMonth(9), toIntervalQuarter(10), toIntervalYear(9223372036854775807))',
    ],
    storable: false,
  },
  {
    name: 'Nothing / Nullable(Nothing)',
    type: 'Tuple(Array(Nothing), Nullable(Nothing))',
    values: ['([], NULL)', '([], NULL)'],
    storable: false,
  },
  {
    name: 'QBit',
    type: 'Tuple(QBit(Float32, 3), QBit(Float64, 9), QBit(BFloat16, 2))',
    values: [
      '([1.5, 2.5, -1], [1, 2, 3, 4, 5, 6, 7, 8, -0.1], [1, -2])',
      '([0, inf, -0.0], [0, 0, 0, 0, 0, 0, 0, 0, 1e300], [0.5, 3.0e38])',
    ],
  },
]
