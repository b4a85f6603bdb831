import { createClient } from '@clickwire/client'
import type { ServerGeneration } from '@clickwire/testing'
import { ontimeTableSql } from './ontime-table.js'

/**
 * Why the tests of the schema below skip on 26.x: it is 18.16's schema, and its view names
 * the columns 18.16 flattens an `Array(Tuple)` into (`a_t.1`), which later servers keep whole.
 */
export const legacySchemaOnly =
  "the codegen schema is 18.16's: its view selects the columns 18.16 flattens Array(Tuple) into (a_t.1), which 26.x keeps whole"

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

/** Three rows with extremes, NULLs, empty arrays and aggregate states. */
export const allTypesRowsSql = `INSERT INTO ${typesDatabase}.all_types (i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, dec, dec32, dec64, dec128, s, fs, d, dt, dt_tz, uuid, e8, e16,
  n_i32, n_s, n_dec, n_d, n_dt, n_u64, n_uuid, n_e8, n_fs, n_f64, lc_s, lc_ns, lc_fs, lc_u32,
  a_u8, a_i64, a_u64, a_f32, a_s, a_n, a_a, a_dec, a_d, a_dt, a_lc, a_e, a_ns, t, t_named, t_nested, \`nested.k\`, \`nested.v\`, \`a_t.1\`, \`a_t.2\`,
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
  ['k1', 'k2'], [toUInt64(1), toUInt64(2)], [toInt8(1)], ['one'],
  arrayReduce('uniqState', [toUInt64(number)]), arrayReduce('sumState', [toInt64(number)]), arrayReduce('countState', [number]), arrayReduce('argMaxState', ['x'], [toDateTime('2017-01-01 00:00:00')]),
  'weird', toUInt8(number), 'quotes'
FROM system.numbers LIMIT 3`

/** Everything the tests read: both databases, from scratch. */
export const schemaSql: readonly string[] = [
  `DROP DATABASE IF EXISTS ${typesDatabase}`,
  `CREATE DATABASE ${typesDatabase}`,
  allTypesTableSql,
  allTypesRowsSql,
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
  statements: readonly string[] = schemaSql,
): Promise<void> {
  await using client = createClient(httpUrl)
  const settings =
    generation === 'legacy'
      ? { allow_experimental_low_cardinality_type: 1 }
      : { allow_suspicious_low_cardinality_types: 1 }
  for (const statement of statements) await client.command(statement, { settings })
}
