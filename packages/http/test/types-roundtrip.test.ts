// Type round trips over HTTP on ClickHouse 18.16: rows go in through the transport's insert
// path (Native request body), come back through its query path (Native response), and must
// equal both the input and the same rows written by the server itself from SQL literals.
import { clickhouseClient } from '@clickwire/testing'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')

/** Column, type, the rows as JS values (also what decoding gives), the rows as SQL literals. */
const columns: Array<[name: string, type: string, values: unknown[], sql: string[]]> = [
  ['i8', 'Int8', [-128, 0, 127], ['-128', '0', '127']],
  ['i16', 'Int16', [-32768, 1, 32767], ['-32768', '1', '32767']],
  ['i32', 'Int32', [-2147483648, 2, 2147483647], ['-2147483648', '2', '2147483647']],
  ['i64', 'Int64', [-(2n ** 63n), 3n, 2n ** 63n - 1n], ['-9223372036854775808', '3', '9223372036854775807']],
  ['u8', 'UInt8', [0, 1, 255], ['0', '1', '255']],
  ['u16', 'UInt16', [0, 2, 65535], ['0', '2', '65535']],
  ['u32', 'UInt32', [0, 3, 4294967295], ['0', '3', '4294967295']],
  ['u64', 'UInt64', [0n, 4n, 2n ** 64n - 1n], ['0', '4', '18446744073709551615']],
  ['f32', 'Float32', [-1.5, 0, 3.25], ['-1.5', '0', '3.25']],
  ['f64', 'Float64', [-1e308, 0.1, Number.POSITIVE_INFINITY], ['-1e308', '0.1', 'inf']],
  ['s', 'String', ['', "it's", 'é€\t\n'], ["''", "'it\\'s'", "'é€\\t\\n'"]],
  ['fs', 'FixedString(4)', ['ab\0\0', 'abcd', '€\0'], ["'ab'", "'abcd'", "'€'"]],
  ['d', 'Date', ['1970-01-01', '2017-01-04', '2105-12-31'], ["'1970-01-01'", "'2017-01-04'", "'2105-12-31'"]],
  [
    'dt',
    'DateTime',
    ['1970-01-01 00:00:00', '2017-01-04 10:20:30', '2105-12-31 23:59:59'],
    ["'1970-01-01 00:00:00'", "'2017-01-04 10:20:30'", "'2105-12-31 23:59:59'"],
  ],
  [
    'dtz',
    "DateTime('Asia/Tokyo')",
    ['1970-01-01 09:00:00', '2017-01-04 19:20:30', '2020-02-29 00:00:00'],
    [
      "toDateTime('1970-01-01 09:00:00', 'Asia/Tokyo')",
      "toDateTime('2017-01-04 19:20:30', 'Asia/Tokyo')",
      "toDateTime('2020-02-29 00:00:00', 'Asia/Tokyo')",
    ],
  ],
  ['dec32', 'Decimal32(2)', ['-12.50', '0.00', '9999999.99'], ['-12.50', '0', '9999999.99']],
  [
    'dec64',
    'Decimal64(4)',
    ['-0.0001', '1.2345', '99999999999999.9999'],
    ['-0.0001', '1.2345', '99999999999999.9999'],
  ],
  [
    'dec128',
    'Decimal128(10)',
    ['-1.0000000001', '0.0000000000', '12345678901234567890.1234567890'],
    ["toDecimal128('-1.0000000001', 10)", '0', "toDecimal128('12345678901234567890.1234567890', 10)"],
  ],
  [
    'uuid',
    'UUID',
    [
      '00000000-0000-0000-0000-000000000000',
      '61f0c404-5cb3-11e7-907b-a6006ad3dba0',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
    ],
    [
      "toUUID('00000000-0000-0000-0000-000000000000')",
      "toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0')",
      "toUUID('ffffffff-ffff-ffff-ffff-ffffffffffff')",
    ],
  ],
  ['e8', "Enum8('a' = -128, 'b' = 0, 'c' = 127)", ['a', 'b', 'c'], ["'a'", "'b'", "'c'"]],
  ['e16', "Enum16('x' = -32768, 'y' = 32767)", ['y', 'x', 'y'], ["'y'", "'x'", "'y'"]],
  ['n32', 'Nullable(Int32)', [null, -1, 7], ['NULL', '-1', '7']],
  ['ns', 'Nullable(String)', ['a', null, ''], ["'a'", 'NULL', "''"]],
  ['au8', 'Array(UInt8)', [[], [1], [2, 3, 255]], ['[]', '[1]', '[2, 3, 255]']],
  ['as', 'Array(String)', [['x'], [], ['', 'y\tz']], ["['x']", '[]', "['', 'y\\tz']"]],
  ['ani64', 'Array(Nullable(Int64))', [[null], [1n, null], []], ['[NULL]', '[1, NULL]', '[]']],
  ['aai16', 'Array(Array(Int16))', [[[1], []], [], [[-2, 3]]], ['[[1], []]', '[]', '[[-2, 3]]']],
  [
    't',
    'Tuple(Int32, String)',
    [
      [1, 'a'],
      [-2, ''],
      [3, 'ccc'],
    ],
    ["(1, 'a')", "(-2, '')", "(3, 'ccc')"],
  ],
  ['lc', 'LowCardinality(String)', ['red', 'green', 'red'], ["'red'", "'green'", "'red'"]],
  ['lcn', 'LowCardinality(Nullable(String))', ['x', null, 'x'], ["'x'", 'NULL', "'x'"]],
]
const rows = 3

describe('type round trips over HTTP (insert and query paths)', () => {
  const http = createHttpTransport({ url: server.httpUrl })
  const structure = columns.map(([name, type]) => `${name} ${type}`).join(', ')
  afterAll(async () => {
    await http.command('DROP TABLE IF EXISTS http_types_native')
    await http.command('DROP TABLE IF EXISTS http_types_sql')
    await http.close()
  })

  async function select(table: string): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = []
    const result = await http.query(`SELECT * FROM ${table} ORDER BY i8`)
    for await (const row of result.rows()) out.push(row)
    return out
  }

  it('every 18.16 type survives insert and select, equal to the server written from SQL', async () => {
    for (const table of ['http_types_native', 'http_types_sql']) {
      await http.command(`DROP TABLE IF EXISTS ${table}`)
      await http.command(`CREATE TABLE ${table} (${structure}) ENGINE = Memory`)
    }
    // Two batches: one block of two rows, one of one row.
    const result = await http.insert('http_types_native', () => [
      { rows: 2, columns: columns.map(([, , values]) => values.slice(0, 2)) },
      { rows: 1, columns: columns.map(([, , values]) => values.slice(2)) },
    ])
    expect(result.rowsWritten).toBe(rows)
    const literals = Array.from(
      { length: rows },
      (_, row) => `(${columns.map(([, , , sql]) => sql[row]).join(', ')})`,
    )
    await http.command(`INSERT INTO http_types_sql VALUES ${literals.join(', ')}`)

    const expected = Array.from({ length: rows }, (_, row) =>
      Object.fromEntries(columns.map(([name, , values]) => [name, values[row]])),
    )
    const native = await select('http_types_native')
    const sql = await select('http_types_sql')
    for (const [name] of columns) {
      expect(
        native.map((row) => row[name]),
        name,
      ).toEqual(expected.map((row) => row[name]))
      expect(
        sql.map((row) => row[name]),
        `${name} (server-written)`,
      ).toEqual(expected.map((row) => row[name]))
    }
    // The C++ client reads both tables the same way.
    const cli = (table: string) => clickhouseClient(server, `SELECT * FROM ${table} ORDER BY i8 FORMAT TSV`)
    expect(await cli('http_types_native')).toBe(await cli('http_types_sql'))
  })

  it('inserts a chosen column subset and lets defaults fill the rest', async () => {
    await http.command('DROP TABLE IF EXISTS http_types_defaults')
    await http.command(
      "CREATE TABLE http_types_defaults (id UInt32, label String DEFAULT concat('#', toString(id)), twice UInt64 MATERIALIZED id * 2) ENGINE = Memory",
    )
    await http.insert('http_types_defaults', () => [{ rows: 2, columns: [[1, 2]] }], { columns: ['id'] })
    await http.insert('http_types_defaults', () => [{ rows: 1, columns: [[3], ['three']] }])
    const out: unknown[] = []
    for await (const row of (
      await http.query('SELECT id, label, twice FROM http_types_defaults ORDER BY id')
    ).rows())
      out.push(row)
    expect(out).toEqual([
      { id: 1, label: '#1', twice: 2n },
      { id: 2, label: '#2', twice: 4n },
      { id: 3, label: 'three', twice: 6n },
    ])
    await http.command('DROP TABLE http_types_defaults')
  })

  it('streams a large insert from an async producer with bounded memory', async () => {
    await http.command('DROP TABLE IF EXISTS http_types_big')
    await http.command('CREATE TABLE http_types_big (n UInt64, s String) ENGINE = Memory')
    const batches = 40
    const size = 50_000
    const before = process.memoryUsage.rss()
    let peak = before
    const result = await http.insert('http_types_big', async function* () {
      for (let b = 0; b < batches; b++) {
        const n = new BigUint64Array(size)
        const s = new Array<string>(size)
        for (let i = 0; i < size; i++) {
          n[i] = BigInt(b * size + i)
          s[i] = `row ${b * size + i}`
        }
        peak = Math.max(peak, process.memoryUsage.rss())
        yield { rows: size, columns: [n, s] }
      }
    })
    expect(result.rowsWritten).toBe(batches * size)
    expect((peak - before) / 2 ** 20).toBeLessThan(200)
    const check = await http.queryRaw('SELECT count(), sum(n), uniqExact(s) FROM http_types_big')
    const total = batches * size
    expect(await check.text()).toBe(`${total}\t${(total * (total - 1)) / 2}\t${total}\n`)
    await http.command('DROP TABLE http_types_big')
  })
})
