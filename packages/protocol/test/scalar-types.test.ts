// Scalar types against the live ClickHouse 18.16 server: blocks encoded by
// NativeBlockWriter are inserted over HTTP, read back as the server's own Native bytes,
// decoded by NativeBlockReader, and checked against the C++ client's TSV output.
import { clickhouseClient } from '@clickwire/testing'
import type {} from '@clickwire/testing/global-setup'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { ColumnToWrite } from '../src/blocks/native-block-writer.js'
import {
  decodeNativeBody,
  encodeNativeBlock,
  httpQuery,
  nativeContext,
  scalarTableName,
  tsvEscape,
  tsvRows,
} from './support/scalar-native.js'

const server = inject('clickhouse')
const tables: string[] = []
let timezone = ''

beforeAll(async () => {
  timezone = new TextDecoder().decode(await httpQuery(server, 'SELECT timezone()')).trim()
})

afterAll(async () => {
  for (const table of tables) await httpQuery(server, `DROP TABLE IF EXISTS ${table}`)
})

async function createTable(structure: string): Promise<string> {
  const table = scalarTableName('clickwire_scalar')
  tables.push(table)
  await httpQuery(server, `CREATE TABLE ${table} (${structure}) ENGINE = Memory`)
  return table
}

async function insertNative(table: string, columns: ColumnToWrite[], rows: number): Promise<void> {
  await httpQuery(
    server,
    `INSERT INTO ${table} FORMAT Native`,
    encodeNativeBlock(nativeContext(timezone), columns, rows),
  )
}

async function selectNative(sql: string) {
  return httpQuery(server, `${sql} FORMAT Native`)
}

const moscowSeconds = [
  0, 354920399, 354920400, 370724399, 370724400, 669675600, 686005200, 701820000, 1301180399, 1301180400,
  1414274399, 1414274400,
]
const newYorkSeconds = [
  1615705199, 1615705200, 1636261199, 1636263000, 1636266600, 1636268400, 0, 4294967295, 172800, 1e9, 1.5e9,
  2e9,
]

const enum8 = "Enum8('a\\'b' = -128, 'c\\\\d' = 127, 'é' = 0, 'x\\ty' = 1)"
const enum16 = "Enum16('min' = -32768, 'max' = 32767, 'zero' = 0)"

/** Twelve rows of every scalar type 18.16 has, written as natural JS inputs. */
const rows = 12
const inputs: Record<string, { type: string; values: unknown[]; decoded?: unknown[] }> = {
  fs: {
    type: 'FixedString(4)',
    values: ['a', 'abcd', '', '€', 'a\0b', '\0\0\0\0', 'x', 'yy', 'zzz', 'é', 'AB', 'tab\t'],
    decoded: [
      'a\0\0\0',
      'abcd',
      '\0\0\0\0',
      '€\0',
      'a\0b\0',
      '\0\0\0\0',
      'x\0\0\0',
      'yy\0\0',
      'zzz\0',
      'é\0\0',
      'AB\0\0',
      'tab\t',
    ],
  },
  d: {
    type: 'Date',
    values: [
      '1970-01-01',
      '2149-06-06',
      '2020-02-29',
      '2000-01-01',
      '1999-12-31',
      '2038-01-19',
      '2100-02-28',
      '2100-03-01',
      '1972-02-29',
      '2021-03-14',
      '2021-11-07',
      '2024-12-31',
    ],
  },
  dt: {
    type: 'DateTime',
    values: newYorkSeconds,
  },
  msk: { type: "DateTime('Europe/Moscow')", values: moscowSeconds },
  ny: { type: "DateTime('America/New_York')", values: newYorkSeconds },
  d9: {
    type: 'Decimal(9, 2)',
    values: [
      '9999999.99',
      '-9999999.99',
      '0',
      '-12.5',
      '0.01',
      '1.1',
      3,
      -0.5,
      12345n,
      '1e2',
      '-0.01',
      '7.00',
    ],
  },
  d18: {
    type: 'Decimal(18, 4)',
    values: [
      '99999999999999.9999',
      '-99999999999999.9999',
      '0.0001',
      '9007199254740.9993',
      '-9007199254740.9993',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
    ],
  },
  d38: {
    type: 'Decimal(38, 10)',
    values: [
      `${'9'.repeat(28)}.${'9'.repeat(10)}`,
      `-${'9'.repeat(28)}.${'9'.repeat(10)}`,
      '-0.0000000001',
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
    ],
  },
  d32: { type: 'Decimal32(3)', values: ['999999.999', '-999999.999', '0.5', 1, 2, 3, 4, 5, 6, 7, 8, 9] },
  u: {
    type: 'UUID',
    values: [
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '61f0c404-5cb3-11e7-907b-a6006ad3dba0',
      '01234567-89ab-cdef-0123-456789abcdef',
      'FEDCBA98-7654-3210-FEDC-BA9876543210',
      '00000000-0000-0000-0000-000000000001',
      '10000000-0000-0000-0000-000000000000',
      '00000000-0000-0001-0000-000000000000',
      '00000000-0000-0000-8000-000000000000',
      '12345678-1234-1234-1234-123456789012',
      'abcdefab-cdef-abcd-efab-cdefabcdefab',
      '0f0f0f0f-0f0f-0f0f-0f0f-0f0f0f0f0f0f',
    ],
  },
  e8: { type: enum8, values: ["a'b", 'c\\d', 'é', 'x\ty', "a'b", 'c\\d', 'é', 'x\ty', -128, 127, 0, 1] },
  e16: {
    type: enum16,
    values: ['min', 'max', 'zero', 'min', 'max', 'zero', 'min', 'max', 'zero', -32768, 32767, 0],
  },
}

const names = Object.keys(inputs)

/**
 * Rows whose text 18.16 prints differently from its own stored value: it prints the zero
 * Date/DateTime as 0000-00-00 (00:00:00), wraps values past 2105, and garbles local times
 * before 1970-01-01; and at Moscow's midnight change of 1981-04-01 it still prints the old
 * offset (00:00 instead of 01:00 MSD). clickwire prints them as newer servers do (checked
 * with chdb); the Native round trip still covers these rows exactly.
 */
const quirkRows: Record<string, number[]> = { d: [0, 1], dt: [6, 7], ny: [6, 7], msk: [0, 2] }

function expectedTexts(): Record<string, unknown[]> {
  return {
    fs: inputs.fs!.decoded!,
    d: inputs.d!.values,
    dt: [], // filled from the server zone below
    msk: [
      '1970-01-01 03:00:00',
      '1981-03-31 23:59:59',
      '1981-04-01 01:00:00',
      '1981-09-30 22:59:59',
      '1981-09-30 23:00:00',
      '1991-03-23 00:00:00',
      '1991-09-28 00:00:00',
      '1992-03-29 01:00:00',
      '2011-03-27 01:59:59',
      '2011-03-27 03:00:00',
      '2014-10-26 01:59:59',
      '2014-10-26 01:00:00',
    ],
    ny: [
      '2021-03-14 01:59:59',
      '2021-03-14 03:00:00',
      '2021-11-07 00:59:59',
      '2021-11-07 01:30:00',
      '2021-11-07 01:30:00',
      '2021-11-07 02:00:00',
      '1969-12-31 19:00:00',
      '2106-02-07 01:28:15',
      '1970-01-02 19:00:00',
      '2001-09-08 21:46:40',
      '2017-07-13 22:40:00',
      '2033-05-17 23:33:20',
    ],
    d9: [
      '9999999.99',
      '-9999999.99',
      '0.00',
      '-12.50',
      '0.01',
      '1.10',
      '3.00',
      '-0.50',
      '12345.00',
      '100.00',
      '-0.01',
      '7.00',
    ],
    d18: [
      '99999999999999.9999',
      '-99999999999999.9999',
      '0.0001',
      '9007199254740.9993',
      '-9007199254740.9993',
      '1.0000',
      '2.0000',
      '3.0000',
      '4.0000',
      '5.0000',
      '6.0000',
      '7.0000',
    ],
    d38: (inputs.d38!.values as string[]).map((v, i) => (i < 3 ? v : `${v}.0000000000`)),
    d32: [
      '999999.999',
      '-999999.999',
      '0.500',
      '1.000',
      '2.000',
      '3.000',
      '4.000',
      '5.000',
      '6.000',
      '7.000',
      '8.000',
      '9.000',
    ],
    u: (inputs.u!.values as string[]).map((v) => v.toLowerCase()),
    e8: ["a'b", 'c\\d', 'é', 'x\ty', "a'b", 'c\\d', 'é', 'x\ty', "a'b", 'c\\d', 'é', 'x\ty'],
    e16: ['min', 'max', 'zero', 'min', 'max', 'zero', 'min', 'max', 'zero', 'min', 'max', 'zero'],
  }
}

describe('scalar types on ClickHouse 18.16', () => {
  let table = ''
  let expected: Record<string, unknown[]> = {}

  beforeAll(async () => {
    table = await createTable(`id UInt32, ${names.map((name) => `${name} ${inputs[name]!.type}`).join(', ')}`)
    const columns: ColumnToWrite[] = [
      { name: 'id', type: 'UInt32', values: Array.from({ length: rows }, (_, i) => i) },
      ...names.map((name) => ({ name, type: inputs[name]!.type, values: inputs[name]!.values })),
    ]
    await insertNative(table, columns, rows)
    expected = expectedTexts()
    // The server clock (UTC for the harness) prints the New York instants as UTC text.
    const utc = await clickhouseClient(
      server,
      `SELECT toString(toDateTime(x, '${timezone}')) FROM (SELECT arrayJoin([${newYorkSeconds.join(',')}]) AS x)`,
    )
    expected.dt = utc.trim().split('\n')
  })

  it('reads back exactly what was written, in the server’s own Native bytes', async () => {
    const bytes = await selectNative(`SELECT * FROM ${table} ORDER BY id`)
    const body = decodeNativeBody(nativeContext(timezone), bytes)
    expect(body.names).toEqual(['id', ...names])
    // At revision 0 (the Native format over HTTP) 18.16 leaves the zone out of DateTime
    // types, so those columns read on the server clock; the instants are unchanged.
    expect(body.types.slice(1)).toEqual([
      'FixedString(4)',
      'Date',
      'DateTime',
      'DateTime',
      'DateTime',
      'Decimal(9, 2)',
      'Decimal(18, 4)',
      'Decimal(38, 10)',
      'Decimal(9, 3)',
      'UUID',
      "Enum8('a\\'b' = -128, 'é' = 0, 'x\\ty' = 1, 'c\\\\d' = 127)",
      "Enum16('min' = -32768, 'zero' = 0, 'max' = 32767)",
    ])
    const dateTimes = new Set(['dt', 'msk', 'ny'])
    for (const [index, name] of names.entries()) {
      if (!dateTimes.has(name)) expect([name, body.columns[index + 1]]).toEqual([name, expected[name]])
    }
    const instants = decodeNativeBody(nativeContext(timezone, { dates: 'date' }), bytes)
    expect(instants.columns[3]).toEqual(newYorkSeconds.map((s) => new Date(s * 1000)))
    expect(instants.columns[4]).toEqual(moscowSeconds.map((s) => new Date(s * 1000)))
    expect(instants.columns[5]).toEqual(newYorkSeconds.map((s) => new Date(s * 1000)))
    expect(timezone).toMatch(/^(Etc\/)?UTC$/)
    const utcText = (s: number) => new Date(s * 1000).toISOString().slice(0, 19).replace('T', ' ')
    expect(body.columns[3]).toEqual(newYorkSeconds.map(utcText))
    expect(body.columns[4]).toEqual(moscowSeconds.map(utcText))
  })

  it('agrees with the C++ client’s TSV text', async () => {
    const text = await clickhouseClient(
      server,
      `SELECT ${names.join(', ')} FROM ${table} ORDER BY id FORMAT TSV`,
    )
    const printed = tsvRows(text)
    expect(printed.length).toBe(rows)
    for (const [index, name] of names.entries()) {
      const skip = new Set(quirkRows[name] ?? [])
      const column = printed.map((row) => row[index]).filter((_, row) => !skip.has(row))
      const ours = expected[name]!.filter((_, row) => !skip.has(row)).map((value) => tsvEscape(String(value)))
      expect([name, column]).toEqual([name, ours])
    }
    // The quirks themselves, so a change in them is noticed.
    expect(printed[0]![1]).toBe('0000-00-00')
    expect(printed[6]![2]).toBe('0000-00-00 00:00:00')
  })

  it('decodes with every mapping option', async () => {
    const bytes = await selectNative(`SELECT id, d, ny, d9, d18, d38 FROM ${table} ORDER BY id`)
    const asDates = decodeNativeBody(nativeContext(timezone, { dates: 'date', decimal: 'number' }), bytes)
    expect(asDates.columns[1]).toEqual(
      (inputs.d!.values as string[]).map((day) => new Date(`${day}T00:00:00Z`)),
    )
    expect(asDates.columns[2]).toEqual(newYorkSeconds.map((s) => new Date(s * 1000)))
    expect(asDates.columns[3]).toEqual(expected.d9!.map(Number))
    expect(asDates.columns[4]).toEqual(expected.d18!.map(Number))
    expect(asDates.columns[5]).toEqual(expected.d38!.map(Number))
    const ids = decodeNativeBody(
      nativeContext(timezone, { int64: 'string' }),
      await selectNative(`SELECT toUInt64(id) FROM ${table} ORDER BY id`),
    )
    expect(ids.columns[0]).toEqual(Array.from({ length: rows }, (_, i) => String(i)))
  })

  it('reads times skipped or repeated by DST, and Moscow text, to the instants the server parses', async () => {
    const texts = [
      '2021-03-14 01:59:59',
      '2021-03-14 02:00:00',
      '2021-03-14 02:30:00',
      '2021-03-14 03:00:00',
      '2021-11-07 00:59:59',
      '2021-11-07 01:00:00',
      '2021-11-07 01:30:00',
      '2021-11-07 01:59:59',
      '2021-11-07 02:00:00',
      '1981-04-01 00:30:00',
      '1981-09-30 23:30:00',
      '2011-03-27 02:30:00',
      '2014-10-26 01:30:00',
    ]
    const target = await createTable(
      `s String, ny DateTime('America/New_York'), msk DateTime('Europe/Moscow')`,
    )
    await insertNative(
      target,
      [
        { name: 's', type: 'String', values: texts },
        { name: 'ny', type: "DateTime('America/New_York')", values: texts },
        { name: 'msk', type: "DateTime('Europe/Moscow')", values: texts },
      ],
      texts.length,
    )
    const text = await clickhouseClient(
      server,
      `SELECT toUInt32(ny) = toUInt32(toDateTime(s, 'America/New_York')), toUInt32(msk) = toUInt32(toDateTime(s, 'Europe/Moscow')), toUInt32(ny), toUInt32(msk) FROM ${target} FORMAT TSV`,
    )
    // 18.16 reads the gap of Moscow's midnight change (1981-04-01 00:30) with the old
    // offset; 26.7 and clickwire use the new one (see chdb-scalar-types.test.ts).
    // So on 26.7 every instant agrees with the server's own parse.
    const moscowGap = server.generation === 'modern' ? -1 : texts.indexOf('1981-04-01 00:30:00')
    expect(tsvRows(text).map((row) => row.slice(0, 2))).toEqual(
      texts.map((_, row) => (row === moscowGap ? ['1', '0'] : ['1', '1'])),
    )
  })

  it('round-trips aggregate function states and merges them to the same results', async () => {
    const functions: [string, string, string][] = [
      ['c', 'AggregateFunction(count, UInt64)', 'count(number)'],
      ['s', 'AggregateFunction(sum, UInt64)', 'sum(number)'],
      ['sd', 'AggregateFunction(sum, Decimal(9, 2))', 'sum(toDecimal32(number, 2))'],
      ['a', 'AggregateFunction(avg, Float64)', 'avg(toFloat64(number))'],
      ['mn', 'AggregateFunction(min, String)', 'min(toString(number))'],
      ['mx', 'AggregateFunction(max, DateTime)', 'max(toDateTime(number))'],
      ['an', 'AggregateFunction(any, Decimal(9, 2))', 'any(toDecimal32(number, 2))'],
      ['al', 'AggregateFunction(anyLast, UUID)', "anyLast(toUUID('01234567-89ab-cdef-0123-456789abcdef'))"],
      ['u', 'AggregateFunction(uniq, String)', 'uniq(toString(number))'],
      ['ue', 'AggregateFunction(uniqExact, String)', 'uniqExact(toString(number))'],
      ['uen', 'AggregateFunction(uniqExact, UInt32)', 'uniqExact(toUInt32(number))'],
      ['g', 'AggregateFunction(groupArray, String)', 'groupArray(toString(number))'],
      ['gn', 'AggregateFunction(groupArray, UInt16)', 'groupArray(toUInt16(number))'],
      ['gd', 'AggregateFunction(groupArray, Decimal(9, 1))', 'groupArray(toDecimal32(number, 1))'],
      ['am', 'AggregateFunction(argMin, String, UInt64)', 'argMin(toString(number), number)'],
      [
        'ax',
        'AggregateFunction(argMax, Decimal(18, 4), Date)',
        'argMax(toDecimal64(number, 4), toDate(number))',
      ],
      ['si', 'AggregateFunction(sumIf, UInt64, UInt8)', 'sumIf(number, number % 2 = 0)'],
    ]
    const source = `FROM (SELECT number, number % 5 AS k FROM system.numbers LIMIT 300) GROUP BY k ORDER BY k`
    const state = (f: string) => f.replace(/^(\w+)\(/, '$1State(')
    const states = decodeNativeBody(
      nativeContext(timezone),
      await selectNative(
        `SELECT k, ${functions.map(([name, , f]) => `${state(f)} AS ${name}`).join(', ')} ${source}`,
      ),
    )
    expect(states.types.slice(1)).toEqual(functions.map(([, type]) => type))
    const target = await createTable(
      `k UInt8, ${functions.map(([name, type]) => `${name} ${type}`).join(', ')}`,
    )
    await insertNative(
      target,
      [
        { name: 'k', type: 'UInt8', values: states.columns[0]! },
        ...functions.map(([name, type], index) => ({ name, type, values: states.columns[index + 1]! })),
      ],
      5,
    )
    const back = decodeNativeBody(
      nativeContext(timezone),
      await selectNative(`SELECT * FROM ${target} ORDER BY k`),
    )
    // Hash-set states (uniq, uniqExact) come back in the server's new iteration order;
    // the merged results below cover them. All other states come back byte for byte.
    const hashed = new Set(['u', 'ue', 'uen'])
    for (const [index, [name]] of functions.entries()) {
      if (!hashed.has(name))
        expect([name, back.columns[index + 1]]).toEqual([name, states.columns[index + 1]])
      else
        expect(back.columns[index + 1]!.map((state) => (state as Uint8Array).length)).toEqual(
          states.columns[index + 1]!.map((state) => (state as Uint8Array).length),
        )
    }
    const merged = await clickhouseClient(
      server,
      `SELECT k, ${functions.map(([name, , f]) => `${f.replace(/^(\w+)\(.*$/s, '$1')}Merge(${name})`).join(', ')} FROM ${target} GROUP BY k ORDER BY k FORMAT TSV`,
    )
    const direct = await clickhouseClient(
      server,
      `SELECT k, ${functions.map(([, , f]) => f).join(', ')} ${source} FORMAT TSV`,
    )
    expect(merged).toBe(direct)
    expect(tsvRows(merged).length).toBe(5)
  })

  it('reads Interval, Nothing and Nullable(Enum) values the server selects', async () => {
    const body = decodeNativeBody(
      nativeContext(timezone),
      await selectNative(
        'SELECT toIntervalSecond(-5) AS a, toIntervalMinute(1) AS b, toIntervalHour(2) AS c, toIntervalDay(3) AS d, ' +
          'toIntervalWeek(4) AS e, toIntervalMonth(5) AS f, toIntervalYear(-6) AS g, NULL AS n, ' +
          "CAST(NULL AS Nullable(Enum8('a' = 1))) AS ne",
      ),
    )
    expect(body.types).toEqual([
      'IntervalSecond',
      'IntervalMinute',
      'IntervalHour',
      'IntervalDay',
      'IntervalWeek',
      'IntervalMonth',
      'IntervalYear',
      'Nullable(Nothing)',
      "Nullable(Enum8('a' = 1))",
    ])
    // 18.16 writes 0, no element, under the NULL of a Nullable(Enum).
    expect(body.columns).toEqual([[-5n], [1n], [2n], [3n], [4n], [5n], [-6n], [null], [null]])
  })

  it('rejects values outside the types before sending anything', () => {
    const context = nativeContext('UTC')
    expect(() =>
      encodeNativeBlock(context, [{ name: 'd', type: 'Date', values: ['1969-12-31'] }], 1),
    ).toThrow(/column \[0\] "d" Date: row 0: "1969-12-31" is not a valid Date \(out of range/)
    expect(() =>
      encodeNativeBlock(context, [{ name: 'x', type: 'Decimal(9, 2)', values: ['1.234'] }], 1),
    ).toThrow(/more than 2 digits after the point/)
  })
})
