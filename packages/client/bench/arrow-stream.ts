// arrow() over HTTP as today (Native blocks converted by the client) next to the same query
// as `FORMAT ArrowStream` read by apache-arrow's `tableFromIPC`, on the same server in the
// same run, interleaved; then both tables compared: schema (names, types, nullability) and
// every value. Run with `CLICKHOUSE_URL=http://127.0.0.1:8123 pnpm bench` against a
// server that has ArrowStream (BENCH_RUNS=... repetitions, BENCH_CASES=ints,mixed,u64).
import { createHttpTransport } from '@clickwire/http'
import {
  type DataType,
  type Decimal,
  type Dictionary,
  type Field,
  type Table,
  Type,
  tableFromIPC,
} from 'apache-arrow'
import { createClient } from '../src/index.js'

const url = process.env.CLICKHOUSE_URL ?? 'http://127.0.0.1:8123'
const runs = Number(process.env.BENCH_RUNS ?? 5)

/** Server settings that bring ArrowStream closest to clickwire's own Arrow mapping. */
const arrowSettings = {
  output_format_arrow_string_as_string: 1,
  output_format_arrow_low_cardinality_as_dictionary: 1,
  output_format_arrow_use_64_bit_indexes_for_dictionary: 0,
  output_format_arrow_use_signed_indexes_for_dictionary: 1,
  output_format_arrow_fixed_string_as_fixed_byte_array: 1,
  output_format_arrow_compression_method: 'none',
}

const cases: Record<string, string> = {
  ints: `SELECT toInt8(number) AS i8, toInt16(number) AS i16, toInt32(number) AS i32, toInt64(number) AS i64,
    toUInt8(number) AS u8, toUInt16(number) AS u16, toUInt32(number) AS u32, number AS u64
    FROM system.numbers LIMIT 1000000`,
  mixed: `SELECT toUInt16(1990 + number % 35) AS Year, toUInt8(number % 12 + 1) AS Month,
    toDate('1990-01-01') + toIntervalDay(number % 12000) AS FlightDate,
    toDate32('1990-01-01') + toIntervalDay(number % 12000) AS FlightDate32,
    toLowCardinality(['AA', 'DL', 'UA', 'WN', 'B6', 'AS', 'NK'][number % 7 + 1]) AS Carrier,
    concat('N', toString(number % 4999), 'XY') AS TailNum,
    toInt32(number % 9999) AS FlightNum,
    if(number % 7 = 0, NULL, toInt32(number % 300) - 60) AS DepDelay,
    if(number % 5 = 0, NULL, concat('C', toString(number % 97))) AS CancellationCode,
    toLowCardinality(if(number % 11 = 0, NULL, concat('O', toString(number % 300)))) AS Origin,
    toFloat32((number % 1000) / 10) AS AirTime, toFloat64(number / 3) AS Distance,
    toDateTime('2020-01-01 00:00:00', 'UTC') + toIntervalSecond(number) AS DepTime,
    toDateTime64('2020-01-01 00:00:00', 3, 'UTC') + toIntervalMillisecond(number) AS ArrTime,
    toDecimal64((number % 100000) / 100, 2) AS Fare, toFixedString('ab', 2) AS Code
    FROM system.numbers LIMIT 1000000`,
  u64: 'SELECT number FROM system.numbers LIMIT 10000000',
  // Not timed by default: the other types' mapping differences (BENCH_CASES=types).
  types: `SELECT toBool(number % 2) AS b, toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0') AS uuid,
    toIPv4('10.0.0.1') AS ip4, toIPv6('2001:db8::1') AS ip6, toInt128(number) AS i128, toUInt256(number) AS u256,
    CAST(number % 2 + 1, 'Enum8(\\'a\\' = 1, \\'b\\' = 2)') AS e8, [number, number + 1] AS arr,
    tuple(number, toString(number)) AS tup, map(toString(number), number) AS m,
    toDecimal32(number / 100, 2) AS d32, toDecimal128(number / 100, 10) AS d128, toDecimal256(number, 5) AS d256,
    toDateTime64('2020-01-01 00:00:00', 6, 'UTC') AS dt64us, toDateTime64('2020-01-01 00:00:00', 2, 'UTC') AS dt64cs,
    toDateTime('2020-01-01 00:00:00') AS dtserver, toIntervalDay(number) AS iv, [toNullable(number), NULL] AS arrn,
    toLowCardinality(toFixedString(toString(number % 3), 1)) AS lcfs
    FROM system.numbers LIMIT 100000`,
}

const client = createClient(url)
const http = createHttpTransport({ url })

async function viaNative(sql: string): Promise<Table> {
  return (await client.query(sql)).arrow()
}

async function viaArrowStream(sql: string): Promise<Table> {
  const raw = await http.queryRaw(`${sql} FORMAT ArrowStream`, { settings: arrowSettings })
  return tableFromIPC(await raw.bytes())
}

async function timed(run: () => Promise<Table>): Promise<number> {
  const started = performance.now()
  const table = await run()
  if (table.numRows === 0) throw new Error('empty result')
  return performance.now() - started
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Nested values (lists, structs, maps) as plain JS, so that equal contents compare equal. */
function plain(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value
  if ('toArray' in value && typeof value.toArray === 'function')
    return Array.from(value as unknown as Iterable<unknown>, plain)
  if ('toJSON' in value && typeof value.toJSON === 'function')
    return Object.entries(value.toJSON() as object).map(([key, item]) => [key, plain(item)])
  return value
}

const text = (value: unknown) =>
  JSON.stringify(plain(value), (_key, item: unknown) =>
    typeof item === 'bigint'
      ? `${item}n`
      : ArrayBuffer.isView(item)
        ? `${item.constructor.name}[${item}]`
        : item === undefined
          ? 'undefined'
          : item,
  )

function same(a: unknown, b: unknown): boolean {
  return Object.is(a, b) || text(a) === text(b)
}

/** A type with everything String(type) leaves out: index types, decimal widths, child fields. */
function signature(type: DataType): string {
  switch (type.typeId) {
    case Type.Decimal:
      return `${type}/${(type as Decimal).bitWidth}`
    case Type.Dictionary: {
      const dictionary = type as Dictionary
      return `Dictionary<${signature(dictionary.indices)}, ${signature(dictionary.dictionary)}>`
    }
    case Type.List:
    case Type.Struct:
    case Type.Map:
    case Type.Union:
      return `${Type[type.typeId]}<${(type.children as Field[])
        .map((field) => `${field.name}${field.nullable ? '?' : ''}: ${signature(field.type)}`)
        .join(', ')}>`
    default:
      return String(type)
  }
}

const shown = (value: unknown) => text(value)?.slice(0, 100)

/** Every difference between the two tables: schema, batch layout, values (first row of each column). */
function differences(ours: Table, theirs: Table): string[] {
  const found: string[] = []
  if (ours.numRows !== theirs.numRows) found.push(`rows: ${ours.numRows} vs ${theirs.numRows}`)
  found.push(`batches: ${ours.batches.length} vs ${theirs.batches.length}`)
  if (ours.schema.metadata.size > 0 || theirs.schema.metadata.size > 0)
    found.push(`schema metadata: ${[...ours.schema.metadata]} vs ${[...theirs.schema.metadata]}`)
  ours.schema.fields.forEach((field, index) => {
    const other = theirs.schema.fields[index]
    if (!other) {
      found.push(`${field.name}: missing in ArrowStream`)
      return
    }
    if (field.name !== other.name) found.push(`field ${index}: name ${field.name} vs ${other.name}`)
    if (signature(field.type) !== signature(other.type))
      found.push(`${field.name}: type ${signature(field.type)} vs ${signature(other.type)}`)
    if (field.metadata.size > 0 || other.metadata.size > 0)
      found.push(`${field.name}: metadata ${[...field.metadata]} vs ${[...other.metadata]}`)
    if (field.nullable !== other.nullable)
      found.push(`${field.name}: nullable ${field.nullable} vs ${other.nullable}`)
    const a = ours.getChildAt(index)!
    const b = theirs.getChildAt(index)!
    let count = 0
    let first = -1
    for (let row = 0; row < ours.numRows; row++) {
      if (!same(a.get(row), b.get(row))) {
        count++
        if (first < 0) first = row
      }
    }
    // Dictionaries: the keys of each batch (apache-arrow's get() hides them behind the values).
    if (field.type.typeId === Type.Dictionary) {
      const keys = (table: Table) =>
        table.batches.map((batch) => JSON.stringify(batch.getChildAt(index)!.data[0]!.dictionary?.toArray()))
      const mine = keys(ours)
      const server = keys(theirs)
      const unequal = mine.filter((text, batch) => text !== server[batch]).length
      if (unequal > 0)
        found.push(
          `${field.name}: dictionary keys differ in ${unequal} batches, first: ${mine.find((text, batch) => text !== server[batch])?.slice(0, 80)} vs ${server[mine.findIndex((text, batch) => text !== server[batch])]?.slice(0, 80)}`,
        )
    }
    if (a.nullCount !== b.nullCount) found.push(`${field.name}: nullCount ${a.nullCount} vs ${b.nullCount}`)
    if (count > 0)
      found.push(
        `${field.name}: ${count} values differ, first row ${first}: ${shown(a.get(first))} vs ${shown(b.get(first))}`,
      )
  })
  return found
}

const info = await client.serverInfo()
console.log(`server ${info.version} at ${url}, ${runs} interleaved runs, medians in ms`)
const chosen = (process.env.BENCH_CASES ?? 'ints,mixed,u64').split(',')
for (const name of chosen) {
  const sql = cases[name]!
  await timed(() => viaNative(sql))
  await timed(() => viaArrowStream(sql))
  const native: number[] = []
  const stream: number[] = []
  for (let run = 0; run < runs; run++) {
    native.push(await timed(() => viaNative(sql)))
    stream.push(await timed(() => viaArrowStream(sql)))
  }
  const a = median(native)
  const b = median(stream)
  console.log(
    `${name}: Native->Arrow ${a.toFixed(0)} ms [${native.map((t) => t.toFixed(0)).join(' ')}], ` +
      `ArrowStream ${b.toFixed(0)} ms [${stream.map((t) => t.toFixed(0)).join(' ')}], ` +
      `ArrowStream/Native ${(b / a).toFixed(2)}`,
  )
  const diff = differences(await viaNative(sql), await viaArrowStream(sql))
  for (const line of diff) console.log(`  ${line}`)
}
await client.close()
await http.close()
