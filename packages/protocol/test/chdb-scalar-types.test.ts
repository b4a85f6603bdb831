// Scalar types that 18.16 lacks (and the edges 18.16 prints wrongly), against chdb
// (ClickHouse 26.7 in-process): chdb's own Native bytes must decode to the expected
// values, and chdb must read the bytes we encode back to the same values and bytes.

import { chdbBytes, chdbReadNative, chdbReadNativeBytes } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import type { ColumnToWrite } from '../src/blocks/native-block-writer.js'
import { hex } from './support/codec-checks.js'
import {
  decodeNativeBody,
  encodeNativeBlock,
  nativeContext,
  tsvEscape,
  tsvRows,
} from './support/scalar-native.js'

const utc = nativeContext('UTC')

interface Case {
  /** Column type as chdb prints it. */
  type: string
  /** SQL expressions chdb evaluates, one per row. */
  sql: string[]
  /** Our JS inputs for the same rows. */
  inputs: unknown[]
  /** What decoding gives (default mapping); also chdb's TSV text when `text` is absent. */
  values: unknown[]
  /** chdb's TSV text per row when it differs from `values`. */
  text?: string[]
  /**
   * The Native format (revision 0) prints DateTime without its zone, as servers do for
   * clients older than 54337; such a column then reads on the server clock (UTC here).
   */
  revision0?: { type: string; values: string[] }
}

const i128 = 2n ** 127n
const i256 = 2n ** 255n

const cases: Record<string, Case> = {
  bool: {
    type: 'Bool',
    sql: ['true', 'false'],
    inputs: [true, 0],
    values: [true, false],
    text: ['true', 'false'],
  },
  d32: {
    type: 'Date32',
    sql: ["toDate32('1900-01-01')", "toDate32('2299-12-31')"],
    inputs: ['1900-01-01', new Date(Date.UTC(2299, 11, 31))],
    values: ['1900-01-01', '2299-12-31'],
  },
  dt64: {
    type: "DateTime64(9, 'UTC')",
    sql: [
      "toDateTime64('1900-01-01 00:00:00', 9, 'UTC')",
      "toDateTime64('2262-04-11 23:47:16.854775807', 9, 'UTC')",
    ],
    inputs: ['1900-01-01 00:00:00', 9223372036854775807n],
    values: ['1900-01-01 00:00:00.000000000', '2262-04-11 23:47:16.854775807'],
  },
  dt64ny: {
    type: "DateTime64(3, 'America/New_York')",
    sql: [
      "toDateTime64('2021-03-14 01:59:59.999', 3, 'America/New_York')",
      "toDateTime64('2021-11-07 01:30:00.5', 3, 'America/New_York')",
    ],
    inputs: [new Date('2021-03-14T06:59:59.999Z'), '2021-11-07 01:30:00.5'],
    values: ['2021-03-14 01:59:59.999', '2021-11-07 01:30:00.500'],
  },
  dt64msk: {
    type: "DateTime64(0, 'Europe/Moscow')",
    sql: [
      "toDateTime64('1900-01-01 00:00:00', 0, 'Europe/Moscow')",
      "toDateTime64('2299-12-31 23:59:59', 0, 'Europe/Moscow')",
    ],
    inputs: ['1900-01-01 00:00:00', '2299-12-31 23:59:59'],
    values: ['1900-01-01 00:00:00', '2299-12-31 23:59:59'],
  },
  time: {
    type: 'Time',
    sql: ['toTime(-3599999)', "toTime('12:34:56')"],
    inputs: ['-999:59:59', 45296],
    values: ['-999:59:59', '12:34:56'],
  },
  time64: {
    type: 'Time64(6)',
    sql: ["toTime64('999:59:59.999999', 6)", 'toTime64(-0.5, 6)'],
    inputs: ['999:59:59.999999', -0.5],
    values: ['999:59:59.999999', '-00:00:00.500000'],
  },
  i128: {
    type: 'Int128',
    sql: [`toInt128('${-i128}')`, `toInt128('${i128 - 1n}')`],
    inputs: [-i128, String(i128 - 1n)],
    values: [-i128, i128 - 1n],
  },
  u128: {
    type: 'UInt128',
    sql: ['toUInt128(0)', `toUInt128('${2n * i128 - 1n}')`],
    inputs: [0, 2n * i128 - 1n],
    values: [0n, 2n * i128 - 1n],
  },
  i256: {
    type: 'Int256',
    sql: [`toInt256('${-i256}')`, `toInt256('${i256 - 1n}')`],
    inputs: [-i256, i256 - 1n],
    values: [-i256, i256 - 1n],
  },
  u256: {
    type: 'UInt256',
    sql: ['toUInt256(0)', `toUInt256('${2n * i256 - 1n}')`],
    inputs: [0n, 2n * i256 - 1n],
    values: [0n, 2n * i256 - 1n],
  },
  ip4: {
    type: 'IPv4',
    sql: ["toIPv4('0.0.0.0')", "toIPv4('255.255.255.255')"],
    inputs: ['0.0.0.0', 0xffffffff],
    values: ['0.0.0.0', '255.255.255.255'],
  },
  ip6: {
    type: 'IPv6',
    sql: ["toIPv6('::ffff:1.2.3.4')", "toIPv6('2001:db8:0:0:1:0:0:1')"],
    inputs: ['1.2.3.4', '2001:0db8::1:0:0:1'],
    values: ['::ffff:1.2.3.4', '2001:db8::1:0:0:1'],
  },
  d256: {
    type: 'Decimal(76, 10)',
    sql: [`toDecimal256('-${'9'.repeat(66)}.${'9'.repeat(10)}', 10)`, "toDecimal256('0.0000000001', 10)"],
    inputs: [`-${'9'.repeat(66)}.${'9'.repeat(10)}`, 1e-10],
    values: [`-${'9'.repeat(66)}.${'9'.repeat(10)}`, '0.0000000001'],
  },
  e: {
    type: "Enum8('x' = 1, 'y' = 2)",
    sql: ["CAST('y' AS Enum('x' = 1, 'y' = 2))", "CAST('x' AS Enum('x' = 1, 'y' = 2))"],
    inputs: ['y', 1],
    values: ['y', 'x'],
  },
  ns: {
    type: 'IntervalNanosecond',
    sql: ['toIntervalNanosecond(-1)', 'toIntervalNanosecond(9223372036854775807)'],
    inputs: [-1, 9223372036854775807n],
    values: [-1n, 9223372036854775807n],
  },
  q: {
    type: 'IntervalQuarter',
    sql: ['toIntervalQuarter(5)', 'toIntervalQuarter(-5)'],
    inputs: [5n, '-5'],
    values: [5n, -5n],
  },
  ms: {
    type: 'IntervalMillisecond',
    sql: ['toIntervalMillisecond(1)', 'toIntervalMillisecond(2)'],
    inputs: [1, 2],
    values: [1n, 2n],
  },
  // The range edges 18.16 prints wrongly (0000-00-00, wrapped, old offset at midnight changes).
  d: {
    type: 'Date',
    sql: ['toDate(0)', 'toDate(65535)'],
    inputs: ['1970-01-01', 65535],
    values: ['1970-01-01', '2149-06-06'],
  },
  dtny: {
    type: "DateTime('America/New_York')",
    sql: ["toDateTime(0, 'America/New_York')", "toDateTime(4294967295, 'America/New_York')"],
    inputs: [0, new Date(4294967295000)],
    values: ['1969-12-31 19:00:00', '2106-02-07 01:28:15'],
    revision0: { type: 'DateTime', values: ['1970-01-01 00:00:00', '2106-02-07 06:28:15'] },
  },
  dtmsk: {
    type: "DateTime('Europe/Moscow')",
    sql: ["toDateTime(354920400, 'Europe/Moscow')", "toDateTime('1981-04-01 00:30:00', 'Europe/Moscow')"],
    inputs: [354920400, '1981-04-01 00:30:00'],
    // 26.7 reads 00:30 in the skipped hour with the new offset (+4), like New York's gaps.
    values: ['1981-04-01 01:00:00', '1981-03-31 23:30:00'],
    revision0: { type: 'DateTime', values: ['1981-03-31 21:00:00', '1981-03-31 20:30:00'] },
  },
}

const names = Object.keys(cases)

function selectOf(row: number): string {
  return names.map((name) => `${cases[name]!.sql[row]} AS ${name}`).join(', ')
}

describe('scalar types against chdb (ClickHouse 26.7)', () => {
  it("decodes chdb's own Native bytes to the expected values", async () => {
    const bytes = await chdbBytes(
      `SELECT * FROM (SELECT 0 AS row, ${selectOf(0)} UNION ALL SELECT 1 AS row, ${selectOf(1)}) ORDER BY row`,
    )
    const body = decodeNativeBody(utc, bytes)
    expect(body.names).toEqual(['row', ...names])
    for (const [index, name] of names.entries()) {
      const { type, values } = cases[name]!.revision0 ?? cases[name]!
      expect([name, body.types[index + 1], body.columns[index + 1]]).toEqual([name, type, values])
    }
  })

  it('encodes bytes chdb reads back to the same values, and re-encodes identically', async () => {
    const columns: ColumnToWrite[] = names.map((name) => ({
      name,
      type: cases[name]!.type,
      values: cases[name]!.inputs,
    }))
    const body = encodeNativeBlock(utc, columns, 2)
    expect(decodeNativeBody(utc, body).columns).toEqual(names.map((name) => cases[name]!.values))
    const printed = tsvRows(await chdbReadNative(body))
    for (const [index, name] of names.entries()) {
      const { values, text } = cases[name]!
      const expected = (text ?? values.map(String)).map(tsvEscape)
      expect([name, printed.map((row) => row[index])]).toEqual([name, expected])
    }
  })

  it('gets our exact bytes back when chdb re-encodes what it read', async () => {
    const columns: ColumnToWrite[] = names.map((name) => ({
      name,
      type: cases[name]!.type,
      values: cases[name]!.inputs,
    }))
    const body = encodeNativeBlock(utc, columns, 2)
    // chdb writes DateTime('zone') as DateTime at revision 0; the data bytes are the same.
    const instants = decodeNativeBody(nativeContext('UTC', { dates: 'date' }), body)
    const asPrinted = columns.map((column, index) =>
      cases[column.name]!.revision0
        ? { ...column, type: 'DateTime', values: instants.columns[index]! }
        : column,
    )
    expect(hex(await chdbReadNativeBytes(body, '*', 'Native'))).toBe(
      hex(encodeNativeBlock(utc, asPrinted, 2)),
    )
  })

  it('reads and writes SimpleAggregateFunction as its value type', async () => {
    // A SELECT drops the wrapper from a CAST, so the column comes from a file chdb reads.
    const type = 'SimpleAggregateFunction(max, DateTime64(3))'
    const ours = encodeNativeBlock(utc, [{ name: 'saf', type, values: ['2020-01-01 00:00:00.5', 0] }], 2)
    expect(await chdbReadNative(ours, 'saf, toTypeName(saf)')).toBe(
      `2020-01-01 00:00:00.500\t${type}\n1970-01-01 00:00:00.000\t${type}\n`,
    )
    const theirs = decodeNativeBody(utc, await chdbReadNativeBytes(ours, '*', 'Native'))
    expect([theirs.types, theirs.columns]).toEqual([
      [type],
      [['2020-01-01 00:00:00.500', '1970-01-01 00:00:00.000']],
    ])
  })

  it('decodes with every mapping option', async () => {
    const bytes = await chdbBytes(
      "SELECT toInt128(-5) AS a, toDate32('1950-06-01') AS b, toDateTime64('2021-01-01 00:00:00.123456', 6, 'UTC') AS c, toDecimal256('-1.25', 2) AS d, toIntervalWeek(3) AS e",
    )
    const numbers = decodeNativeBody(
      nativeContext('UTC', { int64: 'number', dates: 'date', decimal: 'number' }),
      bytes,
    )
    expect(numbers.columns).toEqual([
      [-5],
      [new Date('1950-06-01T00:00:00Z')],
      [new Date('2021-01-01T00:00:00.123Z')],
      [-1.25],
      [3],
    ])
    const strings = decodeNativeBody(nativeContext('UTC', { int64: 'string' }), bytes)
    expect(strings.columns).toEqual([
      ['-5'],
      ['1950-06-01'],
      ['2021-01-01 00:00:00.123456'],
      ['-1.25'],
      ['3'],
    ])
  })

  it('reads aggregate states 26.7 writes for Nullable arguments, and chdb merges ours', async () => {
    const select =
      'SELECT k, minState(x) AS mn, sumState(x) AS s, uniqState(x) AS u, countState(x) AS c, groupArrayState(x) AS g, ' +
      'argMaxState(x, number) AS am FROM (SELECT number, number % 3 AS k, if(number % 4 = 1, NULL, toUInt8(number)) AS x ' +
      'FROM numbers(20)) GROUP BY k ORDER BY k'
    const states = decodeNativeBody(utc, await chdbBytes(select))
    expect(states.types).toEqual([
      'UInt8',
      'AggregateFunction(min, Nullable(UInt8))',
      'AggregateFunction(sum, Nullable(UInt8))',
      'AggregateFunction(uniq, Nullable(UInt8))',
      'AggregateFunction(count, Nullable(UInt8))',
      'AggregateFunction(groupArray, Nullable(UInt8))',
      'AggregateFunction(argMax, Nullable(UInt8), UInt64)',
    ])
    const body = encodeNativeBlock(
      utc,
      states.names.map((name, index) => ({
        name,
        type: states.types[index]!,
        values: states.columns[index]!,
      })),
      3,
    )
    const merged = await chdbReadNative(
      body,
      'k, finalizeAggregation(mn), finalizeAggregation(s), finalizeAggregation(u), finalizeAggregation(c), finalizeAggregation(g), finalizeAggregation(am)',
    )
    const direct = new TextDecoder().decode(await chdbBytes(select.replace(/State\(/g, '('), 'TSV'))
    expect(merged).toBe(direct)
  })
})
