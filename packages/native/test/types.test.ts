// Done-when "Types": every type ClickHouse 18.16 stores goes in through a native INSERT and
// comes back through a native SELECT exactly as inserted, checked against the C++
// clickhouse-client as an oracle that shares no code with clickwire.
import type { ColumnMeta } from '@clickwire/protocol'
import { clickhouseClient } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { NativeTransport } from '../src/index.js'
import { collect, nativeOn, uniqueName } from './support/native-helpers.js'

const server = inject('clickhouse')
let native: NativeTransport
const tables: string[] = []

beforeAll(() => {
  native = nativeOn(server)
})

afterAll(async () => {
  for (const table of tables) await native.command(`DROP TABLE IF EXISTS ${table}`)
  await native.close()
})

async function createTable(structure: string, engine = 'Memory'): Promise<string> {
  const table = uniqueName('native_types')
  tables.push(table)
  await native.command(`CREATE TABLE ${table} (${structure}) ENGINE = ${engine}`)
  return table
}

/** Inserts `data` (values per column name) as one batch, in the order of the server's header. */
async function insertColumns(
  target: NativeTransport,
  table: string,
  data: Record<string, readonly unknown[]>,
  rows: number,
): Promise<readonly ColumnMeta[]> {
  let seen: readonly ColumnMeta[] = []
  const result = await target.insert(table, (header) => {
    seen = header
    return [{ rows, columns: header.map((column) => data[column.name]!) }]
  })
  expect(result.rowsWritten).toBe(rows)
  return seen
}

async function cliJson(sql: string): Promise<Record<string, unknown>[]> {
  const text = await clickhouseClient(server, `${sql} FORMAT JSONEachRow`)
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

const enum8 = "Enum8('a\\'b' = -128, 'c\\\\d' = 127, 'é' = 0, 'x\\ty' = 1)"
const enum16 = "Enum16('min' = -32768, 'max' = 32767, 'it''s' = 0)"
const longString = 'x'.repeat(100_000)
const invalidUtf8 = new Uint8Array([0xff, 0xfe, 0x00, 0xc3])

/** Six rows per column: the limits of each type and its awkward values. */
const columns: Record<string, { type: string; values: unknown[]; decoded?: unknown[] }> = {
  i8: { type: 'Int8', values: [-128, 127, 0, -1, 1, 42] },
  i16: { type: 'Int16', values: [-32768, 32767, 0, -1, 1, 42] },
  i32: { type: 'Int32', values: [-2147483648, 2147483647, 0, -1, 1, 42] },
  i64: {
    type: 'Int64',
    values: [-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 2n ** 53n + 1n, 42],
    decoded: [-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 2n ** 53n + 1n, 42n],
  },
  u8: { type: 'UInt8', values: [0, 255, 1, 128, 127, 42] },
  u16: { type: 'UInt16', values: [0, 65535, 1, 32768, 32767, 42] },
  u32: { type: 'UInt32', values: [0, 4294967295, 1, 2147483648, 2147483647, 42] },
  u64: {
    type: 'UInt64',
    values: [0n, 2n ** 64n - 1n, 1n, 2n ** 63n, 2n ** 53n + 1n, 42],
    decoded: [0n, 2n ** 64n - 1n, 1n, 2n ** 63n, 2n ** 53n + 1n, 42n],
  },
  f32: {
    type: 'Float32',
    values: [
      Math.fround(3.4028234663852886e38),
      -Infinity,
      Number.NaN,
      Math.fround(1.4e-45),
      -0,
      Math.fround(0.1),
    ],
  },
  f64: { type: 'Float64', values: [Number.MAX_VALUE, Infinity, Number.NaN, Number.MIN_VALUE, -0, 0.1] },
  s: { type: 'String', values: ['', "it's \\ a\ttab\nline", '€ 😀 é', 'nul\0byte', longString, 'plain'] },
  fs: {
    type: 'FixedString(4)',
    values: ['', 'abcd', '€', 'a\0b', 'xy', 'é'],
    decoded: ['\0\0\0\0', 'abcd', '€\0', 'a\0b\0', 'xy\0\0', 'é\0\0'],
  },
  d: {
    type: 'Date',
    values: ['1970-01-01', '2149-06-06', '2020-02-29', '2000-01-01', '1999-12-31', '2038-01-19'],
  },
  dt: {
    type: 'DateTime',
    values: [0, 4294967295, '2020-02-29 23:59:59', 1e9, 1.5e9, '2038-01-19 03:14:08'],
    decoded: [
      '1970-01-01 00:00:00',
      '2106-02-07 06:28:15',
      '2020-02-29 23:59:59',
      '2001-09-09 01:46:40',
      '2017-07-14 02:40:00',
      '2038-01-19 03:14:08',
    ],
  },
  msk: {
    type: "DateTime('Europe/Moscow')",
    values: [0, 1301180399, 1301180400, 1414274399, 1414274400, '2014-10-26 01:30:00'],
    decoded: [
      '1970-01-01 03:00:00',
      '2011-03-27 01:59:59',
      '2011-03-27 03:00:00',
      '2014-10-26 01:59:59',
      '2014-10-26 01:00:00',
      '2014-10-26 01:30:00',
    ],
  },
  d9: {
    type: 'Decimal(9, 2)',
    values: ['9999999.99', '-9999999.99', '0', '-0.01', 3, '1e2'],
    decoded: ['9999999.99', '-9999999.99', '0.00', '-0.01', '3.00', '100.00'],
  },
  d18: {
    type: 'Decimal(18, 4)',
    values: ['99999999999999.9999', '-99999999999999.9999', '0.0001', '9007199254740.9993', '-1', '0'],
    decoded: [
      '99999999999999.9999',
      '-99999999999999.9999',
      '0.0001',
      '9007199254740.9993',
      '-1.0000',
      '0.0000',
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
    ],
    decoded: [
      `${'9'.repeat(28)}.${'9'.repeat(10)}`,
      `-${'9'.repeat(28)}.${'9'.repeat(10)}`,
      '-0.0000000001',
      '0.0000000000',
      '1.0000000000',
      '2.0000000000',
    ],
  },
  u: {
    type: 'UUID',
    values: [
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '61f0c404-5cb3-11e7-907b-a6006ad3dba0',
      'FEDCBA98-7654-3210-FEDC-BA9876543210',
      '00000000-0000-0001-0000-000000000000',
      '00000000-0000-0000-8000-000000000000',
    ],
    decoded: [
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '61f0c404-5cb3-11e7-907b-a6006ad3dba0',
      'fedcba98-7654-3210-fedc-ba9876543210',
      '00000000-0000-0001-0000-000000000000',
      '00000000-0000-0000-8000-000000000000',
    ],
  },
  e8: {
    type: enum8,
    values: ["a'b", 'c\\d', 'é', 'x\ty', -128, 127],
    decoded: ["a'b", 'c\\d', 'é', 'x\ty', "a'b", 'c\\d'],
  },
  e16: {
    type: enum16,
    values: ['min', 'max', "it's", -32768, 32767, 0],
    decoded: ['min', 'max', "it's", 'min', 'max', "it's"],
  },
  ns: { type: 'Nullable(String)', values: [null, '', 'x', null, "q'uote", 'é'] },
  ni: { type: 'Nullable(Int32)', values: [null, -2147483648, 0, null, 2147483647, 7] },
  aan: {
    type: 'Array(Array(Nullable(String)))',
    values: [[['a', null], []], [], [[null]], [[''], ["it's"]], [[], [], []], [['x', 'y', null, 'z']]],
  },
  tup: {
    type: 'Tuple(UInt8, String, Nullable(Float64))',
    values: [
      [0, '', null],
      [255, 'é', 1.5],
      [1, "q'", -0.25],
      [2, 'x', null],
      [3, '', 0],
      [4, 'tab\t', 1e300],
    ],
  },
  'n.a': { type: 'Array(UInt32)', values: [[], [1, 2], [4294967295], [0], [], [5, 6, 7]] },
  'n.b': { type: 'Array(String)', values: [[], ['x', 'y'], [''], ["q'"], [], ['é', 'a', 'b']] },
  lc: { type: 'LowCardinality(String)', values: ['a', 'b', 'a', '', 'é', 'b'] },
  lcn: { type: 'LowCardinality(Nullable(String))', values: [null, 'a', '', null, 'a', 'z'] },
}

const rows = 6
/** Columns in table order; Nested is declared as one column and read back flattened. */
const names = Object.keys(columns)
const structure = [
  'id UInt32',
  ...names.filter((name) => !name.startsWith('n.')).map((name) => `${name} ${columns[name]!.type}`),
  'n Nested(a UInt32, b String)',
]
const expected = (name: string) => columns[name]!.decoded ?? columns[name]!.values

describe('every 18.16 type over TCP', () => {
  let table = ''
  let header: readonly ColumnMeta[] = []

  beforeAll(async () => {
    table = await createTable(structure.join(', '))
    const data: Record<string, unknown[]> = { id: Array.from({ length: rows }, (_, i) => i) }
    for (const name of names) data[name] = columns[name]!.values
    // One row carries a String that is not UTF-8: it goes in as bytes.
    data.s = [...columns.s!.values]
    data.s[0] = invalidUtf8
    header = await insertColumns(native, table, data, rows)
  })

  it('gets the table header with the flattened Nested columns', () => {
    expect(header.map((column) => column.name)).toEqual([
      'id',
      ...names.filter((name) => !name.startsWith('n.')),
      'n.a',
      'n.b',
    ])
    const msk = header.find((column) => column.name === 'msk')!
    expect(msk.type).toBe("DateTime('Europe/Moscow')")
  })

  it('reads back exactly the values inserted', async () => {
    const stream = await native.query(`SELECT * FROM ${table} ORDER BY id`)
    const raw: Uint8Array[] = []
    const meta = await stream.columns()
    const result: Record<string, unknown[]> = {}
    for (const column of meta) result[column.name] = []
    for await (const block of stream) {
      for (const entry of block.columns) {
        for (let row = 0; row < block.rows; row++) result[entry.name]!.push(entry.column.get(row))
        if (entry.name === 's') {
          const strings = entry.column as unknown as { bytesOf(row: number): Uint8Array }
          for (let row = 0; row < block.rows; row++) raw.push(strings.bytesOf(row).slice())
        }
      }
    }
    expect(result.id).toEqual([0, 1, 2, 3, 4, 5])
    for (const name of names) {
      if (name === 's') continue
      expect([name, result[name]]).toEqual([name, expected(name)])
    }
    // toEqual does not tell -0 from 0.
    expect(Object.is(result.f32![4], -0)).toBe(true)
    expect(Object.is(result.f64![4], -0)).toBe(true)
    expect(raw[0]).toEqual(invalidUtf8)
    expect(result.s!.slice(1)).toEqual(columns.s!.values.slice(1))
  })

  it('agrees with the C++ client on every value', async () => {
    // 18.16 prints the zero Date/DateTime as 0000-00-00 and wraps dates past 2105, so
    // dates are compared as the numbers it stores, and as text where it prints them right.
    // Decimals as text: JSON prints them as (rounding) numbers.
    const numeric: Record<string, string> = {
      d: 'toUInt16(d)',
      dt: 'toUInt32(dt)',
      msk: 'toUInt32(msk)',
      // 26.x's toString drops trailing zeros; toDecimalString keeps the scale (18.16 lacks it).
      d9: server.generation === 'modern' ? 'toDecimalString(d9, 2)' : 'toString(d9)',
      d18: server.generation === 'modern' ? 'toDecimalString(d18, 4)' : 'toString(d18)',
      // 18.16 prints some Decimal128 values with garbage in the digits (toString of
      // 9999999999999999999999999999.9999999999 is "9\0\0\0\0\0\0\099..."), so the
      // oracle compares them with the literal parsed by the server itself.
      d38: `d38 = toDecimal128([${(columns.d38!.decoded as string[]).map((v) => `'${v}'`).join(', ')}][id + 1], 10)`,
    }
    const jsonNames = names.filter((name) => !['f32', 'f64', 's'].includes(name))
    const json = await cliJson(
      `SELECT ${jsonNames.map((name) => `${numeric[name] ?? `\`${name}\``} AS \`${name}\``).join(', ')} FROM ${table} ORDER BY id`,
    )
    const oracle: Record<string, unknown[]> = {
      i64: expected('i64').map(String),
      u64: expected('u64').map(String),
      d: (columns.d!.values as string[]).map((day) => Date.parse(`${day}T00:00:00Z`) / 86_400_000),
      dt: (columns.dt!.decoded as string[]).map((text) => Date.parse(`${text.replace(' ', 'T')}Z`) / 1000),
      msk: [0, 1301180399, 1301180400, 1414274399, 1414274400, 1414272600],
      d38: [1, 1, 1, 1, 1, 1],
    }
    for (const name of jsonNames) {
      expect([name, json.map((row) => row[name])]).toEqual([name, oracle[name] ?? expected(name)])
    }
    // Floats and the raw String bytes: as text and hex, which survive any output format.
    const text = await clickhouseClient(
      server,
      `SELECT toString(f32), toString(f64), hex(s), length(s), toString(msk) FROM ${table} ORDER BY id FORMAT TSV`,
    )
    const printed = text
      .trim()
      .split('\n')
      .map((line) => line.split('\t'))
    expect(printed.map((row) => row[0])).toEqual(['3.4028235e38', '-inf', 'nan', '1e-45', '-0', '0.1'])
    expect(printed.map((row) => row[1])).toEqual([
      '1.7976931348623157e308',
      'inf',
      'nan',
      '5e-324',
      '-0',
      '0.1',
    ])
    const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase()
    const encoder = new TextEncoder()
    expect(printed.map((row) => row[2])).toEqual([
      hex(invalidUtf8),
      ...columns.s!.values.slice(1).map((value) => hex(encoder.encode(value as string))),
    ])
    expect(printed[4]![3]).toBe('100000')
    // Moscow text where 18.16 prints it right (not the zero instant).
    expect(printed.map((row) => row[4]).slice(1)).toEqual(columns.msk!.decoded!.slice(1))
  })
})

describe('LowCardinality with more distinct values than a UInt16 index holds', () => {
  it('round-trips 70,000 distinct values in one block each way', async () => {
    const count = 70_000
    const table = await createTable(
      'id UInt32, lc LowCardinality(String), lcn LowCardinality(Nullable(String))',
    )
    const ids = Array.from({ length: count }, (_, i) => i)
    const values = ids.map((i) => `value-${i}`)
    const nullable = ids.map((i) => (i % 10 === 0 ? null : `n-${i}`))
    // One block: the insert block size must not cut the 70,000 rows.
    const wide = nativeOn(server, { insertBlockRows: 100_000 })
    try {
      await insertColumns(wide, table, { id: ids, lc: values, lcn: nullable }, count)
    } finally {
      await wide.close()
    }
    const stream = await native.query(`SELECT * FROM ${table} ORDER BY id`, {
      settings: { max_block_size: 100_000 },
    })
    const blockSizes: number[] = []
    const back = { id: [] as unknown[], lc: [] as unknown[], lcn: [] as unknown[] }
    for await (const block of stream) {
      blockSizes.push(block.rows)
      back.id.push(...Array.from(block.columns[0]!.column.values() as ArrayLike<unknown>))
      back.lc.push(...Array.from(block.columns[1]!.column.values() as ArrayLike<unknown>))
      back.lcn.push(...Array.from(block.columns[2]!.column.values() as ArrayLike<unknown>))
    }
    expect(blockSizes).toEqual([count])
    expect(back.id).toEqual(ids)
    expect(back.lc).toEqual(values)
    expect(back.lcn).toEqual(nullable)
    const [stats] = await cliJson(
      `SELECT uniqExact(lc) AS u, countIf(isNull(lcn)) AS nulls, min(lc) AS low, max(lc) AS high FROM ${table}`,
    )
    expect(stats).toEqual({ u: '70000', nulls: '7000', low: 'value-0', high: 'value-9999' })
  })
})

describe('AggregateFunction states', () => {
  it('come out of a SELECT, go back in through an INSERT, and merge to the same results', async () => {
    const functions: [string, string, string][] = [
      ['c', 'AggregateFunction(count, UInt64)', 'count(number)'],
      ['s', 'AggregateFunction(sum, UInt64)', 'sum(number)'],
      ['a', 'AggregateFunction(avg, Float64)', 'avg(toFloat64(number))'],
      ['mn', 'AggregateFunction(min, String)', 'min(toString(number))'],
      ['mx', 'AggregateFunction(max, DateTime)', 'max(toDateTime(number))'],
      ['an', 'AggregateFunction(any, Decimal(9, 2))', 'any(toDecimal32(number, 2))'],
      ['u', 'AggregateFunction(uniq, String)', 'uniq(toString(number))'],
      ['ue', 'AggregateFunction(uniqExact, UInt32)', 'uniqExact(toUInt32(number))'],
      ['g', 'AggregateFunction(groupArray, String)', 'groupArray(toString(number))'],
      ['am', 'AggregateFunction(argMin, String, UInt64)', 'argMin(toString(number), number)'],
      ['si', 'AggregateFunction(sumIf, UInt64, UInt8)', 'sumIf(number, number % 2 = 0)'],
    ]
    const source = 'FROM (SELECT number, number % 5 AS k FROM system.numbers LIMIT 300) GROUP BY k ORDER BY k'
    const state = (f: string) => f.replace(/^(\w+)\(/, '$1State(')
    const states = await collect(
      await native.query(
        `SELECT k, ${functions.map(([name, , f]) => `${state(f)} AS ${name}`).join(', ')} ${source}`,
      ),
    )
    expect(states.types.slice(1)).toEqual(functions.map(([, type]) => type))
    const table = await createTable(
      `k UInt8, ${functions.map(([name, type]) => `${name} ${type}`).join(', ')}`,
    )
    const data: Record<string, unknown[]> = { k: states.columns[0]! }
    functions.forEach(([name], index) => {
      data[name] = states.columns[index + 1]!
    })
    await insertColumns(native, table, data, 5)
    const back = await collect(await native.query(`SELECT * FROM ${table} ORDER BY k`))
    // Hash-set states (uniq, uniqExact) come back in the server's own iteration order;
    // the merged results cover them. Every other state comes back byte for byte.
    for (const [index, [name]] of functions.entries()) {
      if (name === 'u' || name === 'ue') continue
      expect([name, back.columns[index + 1]]).toEqual([name, states.columns[index + 1]])
    }
    const merge = (f: string) => f.replace(/^(\w+)\(.*$/s, '$1Merge')
    const merged = await clickhouseClient(
      server,
      `SELECT k, ${functions.map(([name, , f]) => `${merge(f)}(${name})`).join(', ')} FROM ${table} GROUP BY k ORDER BY k FORMAT TSV`,
    )
    const direct = await clickhouseClient(
      server,
      `SELECT k, ${functions.map(([, , f]) => f).join(', ')} ${source} FORMAT TSV`,
    )
    expect(merged).toBe(direct)
    expect(merged.trim().split('\n')).toHaveLength(5)
  })
})

describe('types a query returns but a table cannot store', () => {
  it('reads Interval, Nothing and Nullable(Nothing)', async () => {
    const result = await collect(
      await native.query(
        'SELECT toIntervalSecond(-5) AS a, toIntervalDay(3) AS b, toIntervalYear(-6) AS c, NULL AS n, emptyArrayString() AS e',
      ),
    )
    expect(result.types).toEqual([
      'IntervalSecond',
      'IntervalDay',
      'IntervalYear',
      'Nullable(Nothing)',
      'Array(String)',
    ])
    expect(result.columns).toEqual([[-5n], [3n], [-6n], [null], [[]]])
  })
})
