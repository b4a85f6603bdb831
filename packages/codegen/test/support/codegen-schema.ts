import { createClient } from '@clickwire/client'
import type { ServerGeneration } from '@clickwire/testing'
import { ontimeTableSql } from './ontime-table.js'

/** The database with a column of every type ClickHouse 18.16 can store, views, and types clickwire cannot read. */
export const typesDatabase = 'codegen_types'
/** The ontime benchmark table (shared/reference/ontime-benchmark.rst), as a second database. */
export const perftestDatabase = 'codegen_perftest'

/**
 * Every type 18.16 can store in a table (Nothing and Interval* cannot be stored), as
 * plain, Nullable, LowCardinality, Array, Tuple and Nested columns, plus DEFAULT,
 * MATERIALIZED and ALIAS columns, comments, and names that are not identifiers. The
 * server flattens `Nested` and `Array(Tuple)` into one `Array` column per element.
 */
export const allTypesTableSql = `CREATE TABLE ${typesDatabase}.all_types (
  i8 Int8, i16 Int16, i32 Int32 COMMENT 'A plain Int32.', i64 Int64, u8 UInt8, u16 UInt16, u32 UInt32, u64 UInt64,
  f32 Float32, f64 Float64,
  dec Decimal(9, 2), dec32 Decimal32(3), dec64 Decimal64(6), dec128 Decimal128(20),
  s String, fs FixedString(4),
  d Date, dt DateTime, dt_tz DateTime('Asia/Tokyo'),
  uuid UUID,
  e8 Enum8('a' = 1, 'b' = -2, 'it''s' = 3), e16 Enum16('x' = 1000, 'y "quoted"' = -1000),
  n_i32 Nullable(Int32), n_s Nullable(String), n_dec Nullable(Decimal(18, 4)), n_d Nullable(Date), n_dt Nullable(DateTime),
  n_u64 Nullable(UInt64), n_uuid Nullable(UUID), n_e8 Nullable(Enum8('off' = 0, 'on' = 1)), n_fs Nullable(FixedString(2)), n_f64 Nullable(Float64),
  lc_s LowCardinality(String), lc_ns LowCardinality(Nullable(String)), lc_fs LowCardinality(FixedString(3)), lc_u32 LowCardinality(UInt32),
  a_u8 Array(UInt8), a_i64 Array(Int64), a_u64 Array(UInt64), a_f32 Array(Float32), a_s Array(String), a_n Array(Nullable(Int32)),
  a_a Array(Array(String)), a_dec Array(Decimal(9, 2)), a_d Array(Date), a_dt Array(DateTime), a_lc Array(LowCardinality(String)),
  a_e Array(Enum8('p' = 1, 'q' = 2)), a_ns Array(Nullable(String)),
  t Tuple(UInt8, String), t_named Tuple(id UInt64, label Nullable(String)), t_nested Tuple(Array(Int16), Tuple(Date, Decimal(9, 2))),
  nested Nested(k String, v UInt64),
  a_t Array(Tuple(Int8, String)),
  agg_uniq AggregateFunction(uniq, UInt64), agg_sum AggregateFunction(sum, Int64), agg_count AggregateFunction(count, UInt64), agg_argmax AggregateFunction(argMax, String, DateTime),
  with_default UInt32 DEFAULT 42 COMMENT 'Filled with 42 when an insert leaves it out.',
  with_default_expr String DEFAULT concat(s, '!'),
  mat Int64 MATERIALIZED i64 * 2 COMMENT 'Twice i64; computed on insert.',
  al String ALIAS upper(s),
  \`weird name\` String, \`123start\` UInt8, \`with "quotes"\` String COMMENT 'A "quoted" */ comment
on two lines.'
) ENGINE = MergeTree ORDER BY tuple()`

/**
 * Three rows with extremes, NULLs, empty arrays and aggregate states. 18.16 flattens
 * `a_t Array(Tuple(Int8, String))` into `a_t.1` and `a_t.2`, so its rows name those; 26.x
 * keeps the column whole (only `Nested` is flattened, by `flatten_nested = 1`, the default)
 * and takes one array of tuples.
 */
export const allTypesRowsSql = allTypesRows('legacy')

function allTypesRows(generation: ServerGeneration): string {
  const arrayOfTuplesColumns = generation === 'legacy' ? '`a_t.1`, `a_t.2`' : 'a_t'
  const arrayOfTuplesValues = generation === 'legacy' ? "[toInt8(1)], ['one']" : "[(toInt8(1), 'one')]"
  return `INSERT INTO ${typesDatabase}.all_types (i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, dec, dec32, dec64, dec128, s, fs, d, dt, dt_tz, uuid, e8, e16,
  n_i32, n_s, n_dec, n_d, n_dt, n_u64, n_uuid, n_e8, n_fs, n_f64, lc_s, lc_ns, lc_fs, lc_u32,
  a_u8, a_i64, a_u64, a_f32, a_s, a_n, a_a, a_dec, a_d, a_dt, a_lc, a_e, a_ns, t, t_named, t_nested, \`nested.k\`, \`nested.v\`, ${arrayOfTuplesColumns},
  agg_uniq, agg_sum, agg_count, agg_argmax, \`weird name\`, \`123start\`, \`with "quotes"\`)
SELECT
  toInt8(number * 50 - 128), toInt16(-number), toInt32(number * 1000), toInt64(-9223372036854775808 + number), toUInt8(255 - number), toUInt16(number), toUInt32(4294967295 - number), toUInt64(18446744073709551615 - number),
  toFloat32(number / 4), toFloat64(-number / 3),
  toDecimal32(number - 1.25, 2), toDecimal32(number * 1.5, 3), toDecimal64(-123456.789012, 6), toDecimal128(number, 20),
  concat('row ', toString(number), ' ✓'), toFixedString(substring('abcd', 1, number + 1), 4),
  toDate('2017-01-01') + number, toDateTime('2017-01-04 10:20:30') + number, toDateTime('2017-01-04 10:20:30', 'Asia/Tokyo'),
  toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'), ['a', 'b', 'it''s'][number + 1], ['x', 'y "quoted"', 'x'][number + 1],
  if(number = 1, NULL, toInt32(number) - 5), if(number = 0, NULL, 'nullable'), if(number = 2, NULL, toDecimal64(number + 0.5, 4)),
  if(number = 1, NULL, toDate('2020-02-29')), if(number = 1, NULL, toDateTime('2020-02-29 23:59:59')),
  if(number = 0, NULL, toUInt64(number) * 1000000000000), if(number = 1, NULL, toUUID('00000000-0000-0000-0000-000000000001')),
  if(number = 2, NULL, ['off', 'on'][number % 2 + 1]), if(number = 0, NULL, toFixedString('ab', 2)), if(number = 1, NULL, 1.5),
  toString(number % 2), if(number = 1, NULL, 'lc'), toFixedString('xyz', 3), toUInt32(number * 7),
  range(number), [toInt64(number), -1], [toUInt64(number)], [toFloat32(0.5)], splitByChar(',', 'a,b,c'), [1, NULL, toInt32(number)],
  [['x'], [], ['y', 'z']], [toDecimal32(1.5, 2)], [toDate('2017-01-01')], [toDateTime('2017-01-01 00:00:00')], ['lc1', 'lc2'],
  ['p', 'q'], ['s', NULL],
  (toUInt8(number), 'tuple'), (toUInt64(number), if(number = 0, NULL, 'label')), ([toInt16(1), toInt16(-1)], (toDate('2017-01-01'), toDecimal32(2.5, 2))),
  ['k1', 'k2'], [toUInt64(1), toUInt64(2)], ${arrayOfTuplesValues},
  arrayReduce('uniqState', [toUInt64(number)]), arrayReduce('sumState', [toInt64(number)]), arrayReduce('countState', [number]), arrayReduce('argMaxState', ['x'], [toDateTime('2017-01-01 00:00:00')]),
  'weird', toUInt8(number), 'quotes'
FROM system.numbers LIMIT 3`
}

/**
 * The tables and views every generation has, after `all_types` and its rows: a view, a
 * materialized view, tables with DEFAULT / MATERIALIZED columns, aggregate states clickwire
 * cannot read, and the ontime database.
 */
const commonSchemaSql: readonly string[] = [
  `CREATE VIEW ${typesDatabase}.all_types_view AS
     SELECT i32, u64, s, n_s, lc_ns, dt, dec, a_n, t_named FROM ${typesDatabase}.all_types`,
  `CREATE MATERIALIZED VIEW ${typesDatabase}.strings_mv ENGINE = Memory
     AS SELECT s, length(s) AS len FROM ${typesDatabase}.all_types`,
  `CREATE TABLE ${typesDatabase}.events (
     id UInt64,
     name String,
     created DateTime DEFAULT toDateTime('2017-01-04 00:00:00'),
     tags Array(String),
     score Nullable(Float64),
     total Int64 MATERIALIZED toInt64(id) * 10
   ) ENGINE = MergeTree ORDER BY id`,
  `INSERT INTO ${typesDatabase}.events (id, name, created, tags, score)
   VALUES (1, 'first', toDateTime('2017-01-04 10:00:00'), ['a', 'b'], NULL), (2, 'second', toDateTime('2018-05-06 07:08:09'), [], 2.5)`,
  // Written only by the Kysely test, so the other tests can count rows exactly.
  `CREATE TABLE ${typesDatabase}.kysely_inserts (
     id UInt64,
     name String,
     created DateTime DEFAULT toDateTime('2017-01-04 00:00:00'),
     tags Array(String),
     score Nullable(Float64),
     total Int64 MATERIALIZED toInt64(id) * 10
   ) ENGINE = MergeTree ORDER BY id`,
  `CREATE TABLE ${typesDatabase}.unsupported_types (
     id UInt32,
     quantile_state AggregateFunction(quantiles(0.5, 0.9), Float64) COMMENT 'clickwire cannot delimit these states',
     uniq_array_state AggregateFunction(groupUniqArray, String)
   ) ENGINE = Memory`,
  `DROP DATABASE IF EXISTS ${perftestDatabase}`,
  `CREATE DATABASE ${perftestDatabase}`,
  ontimeTableSql(perftestDatabase),
  `INSERT INTO ${perftestDatabase}.ontime (Year, Quarter, Month, DayofMonth, DayOfWeek, FlightDate, UniqueCarrier, Carrier, Origin, Dest, DepDelay, ArrDelay, Distance)
   VALUES (2017, 1, 1, 4, 3, '2017-01-04', 'AA', 'AA', 'JFK', 'LAX', 12, 5, 2475),
          (2017, 1, 1, 5, 4, '2017-01-05', 'DL', 'DL', 'ATL', 'SEA', -3, -10, 2182),
          (2016, 4, 12, 31, 6, '2016-12-31', 'UA', 'UA', 'ORD', 'SFO', 45, 51, 1846)`,
]

/** Everything the tests read on 18.16: both databases, from scratch. */
export const schemaSql: readonly string[] = [
  `DROP DATABASE IF EXISTS ${typesDatabase}`,
  `CREATE DATABASE ${typesDatabase}`,
  allTypesTableSql,
  allTypesRowsSql,
  ...commonSchemaSql,
]

/**
 * The types only later servers have, one column each (several for the families whose
 * parameters change the values: DateTime64 precision and zone, Map keys, JSON paths), in a
 * table 18.16 does not get. `items` is one `Nested` column because the table is created with
 * `flatten_nested = 0` (see modernSchemaSql); `raw` is EPHEMERAL (22.2+).
 */
export const modernTypesTableSql = `CREATE TABLE ${typesDatabase}.modern_types (
  d32 Date32, dt64 DateTime64(3), dt64_tz DateTime64(6, 'Asia/Tokyo'), dt64_ns DateTime64(9, 'UTC'),
  i128 Int128, u128 UInt128, i256 Int256, u256 UInt256, dec256 Decimal256(30), n_i256 Nullable(Int256),
  m Map(String, UInt64), m_lc Map(LowCardinality(String), Array(Nullable(Int32))), m_d Map(Date, Decimal(18, 2)),
  flag Bool, ip4 IPv4, ip6 IPv6, n_ip4 Nullable(IPv4),
  v Variant(String, UInt64, Array(UInt8)) COMMENT 'The server lists the alternatives sorted by name.',
  dyn Dynamic, j JSON, j_typed JSON(a.b UInt32, SKIP c),
  tm Time, tm64 Time64(3), bf BFloat16, lc_n LowCardinality(Nullable(String)), lc_ni LowCardinality(Nullable(UInt64)),
  pt Point, ring Ring, ls LineString, mls MultiLineString, poly Polygon, mpoly MultiPolygon, geo Geometry,
  qb QBit(Float32, 3),
  items Nested(sku String, qty UInt32),
  sagg SimpleAggregateFunction(sum, UInt64),
  a_d32 Array(Date32), t_wide Tuple(a Int256, b Map(String, Bool)),
  raw String EPHEMERAL COMMENT 'Only given on insert.',
  raw_length UInt64 DEFAULT length(raw)
) ENGINE = MergeTree ORDER BY tuple()`

/** Three rows of extremes, NULLs, empty maps and every Variant / Dynamic / Geometry shape. */
export const modernTypesRowsSql = `INSERT INTO ${typesDatabase}.modern_types (d32, dt64, dt64_tz, dt64_ns, i128, u128, i256, u256, dec256, n_i256,
  m, m_lc, m_d, flag, ip4, ip6, n_ip4, v, dyn, j, j_typed, tm, tm64, bf, lc_n, lc_ni, pt, ring, ls, mls, poly, mpoly, geo, qb,
  items, sagg, a_d32, t_wide, raw)
SELECT
  toDate32('1900-01-01') + number * 100000, toDateTime64('2017-01-04 10:20:30.123', 3) + number,
  toDateTime64('2017-01-04 10:20:30.123456', 6, 'Asia/Tokyo'), toDateTime64('2262-04-11 23:47:16.854775807', 9, 'UTC') - number,
  toInt128('-170141183460469231731687303715884105728') + number, toUInt128('340282366920938463463374607431768211455') - number,
  toInt256('-57896044618658097711785492504343953926634992332820282019728792003956564819968') + number,
  toUInt256('115792089237316195423570985008687907853269984665640564039457584007913129639935') - number,
  toDecimal256('-1234567890123456789012345678901234567890.123456789012345678901234567891', 30), if(number = 1, NULL, toInt256(number) - 1),
  map('a', number, 'b', 18446744073709551615), map(toLowCardinality('k'), [toInt32(number), NULL]),
  if(number = 0, map(), map(toDate('2020-02-29'), toDecimal64(number + 0.25, 2))),
  number % 2 = 0, toIPv4('192.168.0.1'), toIPv6(concat('2001:db8::', toString(number))), if(number = 1, NULL, toIPv4('10.0.0.1')),
  multiIf(number = 0, 'text'::Variant(String, UInt64, Array(UInt8)), number = 1, 42::UInt64::Variant(String, UInt64, Array(UInt8)), NULL),
  multiIf(number = 0, 1::Dynamic, number = 1, 'two'::Dynamic, [1.5, 2.5]::Array(Float64)::Dynamic),
  '{"a": {"b": 1}, "s": "x"}', '{"a": {"b": 7}, "c": "skipped", "d": [1, 2]}',
  toTime('12:34:56'), toTime64('23:59:59.999', 3), toBFloat16(number + 0.5), if(number = 1, NULL, 'lc'), if(number = 2, NULL, number),
  (1.5, -2), [(0, 0), (1, 0), (1, 1)], [(0, 0), (2.5, 1)], [[(0, 0), (1, 1)], [(2, 2)]],
  [[(0, 0), (1, 0), (1, 1)], [(0.2, 0.2)]], [[[(0, 0), (1, 0), (1, 1)]], [[(5, 5), (6, 5), (6, 6)]]],
  multiIf(number = 0, CAST((1, 2) AS Point)::Geometry, number = 1, CAST([[(0, 0), (1, 0)]] AS Polygon)::Geometry, NULL),
  [1.5, -2, number],
  [('sku-1', 2), ('sku-2', 0)], number * 10, [toDate32('2299-12-31')], (toInt256(-1), map('yes', true)), repeat('r', number)
FROM system.numbers LIMIT 3`

/** A statement and the query settings it needs beyond those createSchema gives every statement. */
export interface SchemaStatement {
  readonly sql: string
  readonly settings: Readonly<Record<string, string | number>>
}

/**
 * Everything the tests read on 26.x, the same tables and views as on 18.16 where 26.x
 * accepts them: `all_types` has the same columns, except that `a_t Array(Tuple(Int8, String))`
 * stays one column (18.16 flattens it into `a_t.1` and `a_t.2`); `nested` is flattened on both
 * (26.x's `flatten_nested = 1`). Then `modern_types` (created with `flatten_nested = 0`, so its
 * `Nested` column stays one), a view of it, and a Merge table over events (Merge refuses
 * inserts, so it is read-only like a view). The materialized view's storage table is
 * `.inner_id.<uuid>` (the Atomic database), not 18.16's `.inner.strings_mv`.
 */
export const modernSchemaSql: readonly (string | SchemaStatement)[] = [
  `DROP DATABASE IF EXISTS ${typesDatabase}`,
  `CREATE DATABASE ${typesDatabase}`,
  allTypesTableSql,
  allTypesRows('modern'),
  ...commonSchemaSql,
  { sql: modernTypesTableSql, settings: { flatten_nested: 0 } },
  modernTypesRowsSql,
  `CREATE VIEW ${typesDatabase}.modern_types_view AS
     SELECT i256, dt64_tz, m, v, dyn, j, tm64, items, geo FROM ${typesDatabase}.modern_types`,
  `CREATE TABLE ${typesDatabase}.events_merge AS ${typesDatabase}.events
     ENGINE = Merge(${typesDatabase}, '^events$')`,
]

/** The schema of a generation. */
export function schemaSqlOf(generation: ServerGeneration): readonly (string | SchemaStatement)[] {
  return generation === 'legacy' ? schemaSql : modernSchemaSql
}

/**
 * Runs the schema statements (global setup runs them once per run; tests only read, or
 * write in databases of their own). LowCardinality needs a setting on 18.16 that later
 * servers no longer have (they refuse it as UNKNOWN_SETTING); they want another one for
 * LowCardinality of numbers (SUSPICIOUS_TYPE_FOR_LOW_CARDINALITY without it). Over HTTP: the native
 * transport refuses `INSERT ... VALUES` on 18.16 (which expects the client to send the
 * rows as blocks), see the report of issue 8.
 */
export async function createSchema(
  httpUrl: string,
  generation: ServerGeneration,
  statements: readonly (string | SchemaStatement)[] = schemaSqlOf(generation),
): Promise<void> {
  await using client = createClient(httpUrl)
  const settings =
    generation === 'legacy'
      ? { allow_experimental_low_cardinality_type: 1 }
      : { allow_suspicious_low_cardinality_types: 1 }
  for (const statement of statements) {
    if (typeof statement === 'string') await client.command(statement, { settings })
    else await client.command(statement.sql, { settings: { ...settings, ...statement.settings } })
  }
}
