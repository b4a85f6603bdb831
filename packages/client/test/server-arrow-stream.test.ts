// queryArrow(): over HTTP on servers with ArrowStream, the server's ArrowStream read into
// apache-arrow where it gives the table arrow() gives over Native; field by field the same
// table on both transports and both generations, with the Native path everywhere else.
import type { Table } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { serverHasArrowStream } from '../src/arrow-server-query.js'
import { AbortError, ClickHouseError, type Client, sql, TimeoutError } from '../src/index.js'
import { tableValues } from './support/arrow-reference.js'
import { clientFor, thrown, transports, uniqueTable } from './support/transports.js'

/** Types of the identical set; Bool and Date32 only where the server has them. */
function columnsFor(modern: boolean): [string, string, string][] {
  const columns: [string, string, string][] = [
    ['i8', 'Int8', 'toInt8(number % 256 - 128)'],
    ['i16', 'Int16', 'toInt16(number * 7 - 32768)'],
    ['i32', 'Int32', 'toInt32(number * 100003 - 2147483648)'],
    ['i64', 'Int64', "if(number = 0, toInt64('-9223372036854775808'), toInt64(number) * -1000000007)"],
    ['u8', 'UInt8', 'toUInt8(number % 256)'],
    ['u16', 'UInt16', 'toUInt16(65535 - number)'],
    ['u32', 'UInt32', 'toUInt32(4294967295 - number)'],
    ['u64', 'UInt64', "if(number = 0, toUInt64('18446744073709551615'), number * 1000000007)"],
    [
      'f32',
      'Float32',
      "multiIf(number = 0, toFloat32('nan'), number = 1, toFloat32('-inf'), toFloat32(number / 3))",
    ],
    ['f64', 'Float64', "multiIf(number = 0, toFloat64('inf'), number = 1, -0., number / 7)"],
    ['s', 'String', "concat('é✓🙂 ', toString(number), if(number % 5 = 0, '', 'x'))"],
    ['fs', 'FixedString(3)', "toFixedString(substring(concat(toString(number), 'ab'), 1, 3), 3)"],
    ['d', 'Date', "toDate('1970-01-01') + number * 97"],
    ['ni', 'Nullable(Int32)', 'if(number % 3 = 0, NULL, toInt32(number))'],
    ['ns', 'Nullable(String)', "if(number % 4 = 1, NULL, concat('ü', toString(number)))"],
    ['nf', 'Nullable(Float64)', 'if(number % 2 = 0, NULL, number / 2)'],
    ['nd', 'Nullable(Date)', "if(number % 5 = 2, NULL, toDate('2017-01-01') + number)"],
    ['nfs', 'Nullable(FixedString(2))', "if(number % 6 = 3, NULL, toFixedString('ab', 2))"],
  ]
  if (modern)
    columns.push(
      ['b', 'Bool', 'number % 3 = 1'],
      ['d32', 'Date32', "toDate32('1900-01-01') + number * 211"],
      ['nb', 'Nullable(Bool)', 'if(number % 7 = 0, NULL, number % 2 = 0)'],
    )
  return columns
}

describe.each(transports)('queryArrow() over %s', (transport) => {
  let ch: Client
  let table: string
  let streams: boolean
  let recent: boolean
  const rows = 3000

  beforeAll(async () => {
    ch = clientFor(transport)
    const { version } = await ch.serverInfo()
    recent = serverHasArrowStream(version)
    streams = transport === 'http' && recent
    const columns = columnsFor(versionAtLeast21(version))
    table = uniqueTable('server_arrow')
    await ch.command(
      `CREATE TABLE ${table} (id UInt32, ${columns.map(([name, type]) => `${name} ${type}`).join(', ')}) ENGINE = Memory`,
    )
    await ch.command(
      `INSERT INTO ${table} SELECT toUInt32(number), ${columns.map(([, , value]) => value).join(', ')} FROM numbers(${rows})`,
    )
  })

  afterAll(async () => {
    await ch.command(`DROP TABLE IF EXISTS ${table}`)
    await ch.close()
  })

  /** queryArrow() and arrow() of one statement, and whether queryArrow() asked for ArrowStream. */
  async function both(statement: string) {
    const raw = vi.spyOn(ch, 'queryRaw')
    try {
      const fromServer = await ch.queryArrow(statement)
      const streamed = raw.mock.calls.some(([, options]) => options?.format === 'ArrowStream')
      const fromNative = await (await ch.query(statement)).arrow()
      return { fromServer, fromNative, streamed }
    } finally {
      raw.mockRestore()
    }
  }

  function expectSameTable(a: Table, b: Table): void {
    expect(a.schema.toString()).toBe(b.schema.toString())
    expect(a.schema.fields.map((field) => [field.name, field.nullable, field.type.constructor.name])).toEqual(
      b.schema.fields.map((field) => [field.name, field.nullable, field.type.constructor.name]),
    )
    expect([...a.schema.metadata]).toEqual([...b.schema.metadata])
    expect(a.numRows).toBe(b.numRows)
    expect(tableValues(a)).toEqual(tableValues(b))
  }

  it('gives the table arrow() gives for every type of the identical set', async () => {
    const { fromServer, fromNative, streamed } = await both(`SELECT * FROM ${table} ORDER BY id`)
    expect(streamed).toBe(streams)
    expect(fromNative.numRows).toBe(rows)
    expectSameTable(fromServer, fromNative)
    // Spot checks against the server's own values: extremes, NaN, non-ASCII text, nulls.
    expect(fromServer.getChild('u64')!.get(0)).toBe(18446744073709551615n)
    expect(fromServer.getChild('i64')!.get(0)).toBe(-9223372036854775808n)
    expect(Number.isNaN(fromServer.getChild('f32')!.get(0))).toBe(true)
    expect(fromServer.getChild('s')!.get(1)).toBe('é✓🙂 1x')
    expect(fromServer.getChild('ni')!.get(0)).toBeNull()
    expect(fromServer.getChild('ns')!.get(1)).toBeNull()
  })

  it('reads an ontime-like mix over many batches the same', async () => {
    const statement = `SELECT toInt32(number) AS Year, toUInt8(number % 12) AS Month, toUInt16(number % 9999) AS Delay,
      toDate('2017-01-01') + number % 48 AS FlightDate, toFixedString(['AA', 'DL', 'UA'][number % 3 + 1], 2) AS Carrier,
      concat('N', toString(number % 7919), 'Ø') AS TailNum, '' AS Empty
      FROM numbers(40000) SETTINGS max_block_size = 8192`
    const { fromServer, fromNative, streamed } = await both(statement)
    expect(streamed).toBe(streams)
    expect(fromServer.batches.length).toBeGreaterThan(1)
    expectSameTable(fromServer, fromNative)
  })

  it('reads a sql`` fragment with parameters the same', async () => {
    const raw = vi.spyOn(ch, 'queryRaw')
    const fragment = () =>
      sql`SELECT i32, s FROM ${sql.id(table)} WHERE id < ${25} AND s != ${'ü'} ORDER BY id`
    const fromServer = await ch.queryArrow(fragment())
    expect(raw.mock.calls.length > 0).toBe(streams)
    raw.mockRestore()
    const fromNative = await (await ch.query(fragment())).arrow()
    expect(fromNative.numRows).toBe(25)
    expectSameTable(fromServer, fromNative)
  })

  it('gives an empty result its schema and no batch, as arrow()', async () => {
    const { fromServer, fromNative } = await both(`SELECT * FROM ${table} WHERE id > ${rows}`)
    expectSameTable(fromServer, fromNative)
    expect(fromServer.batches.length).toBe(fromNative.batches.length)
  })

  it('keeps the Native path for a type outside the set (DateTime, LowCardinality)', async () => {
    const statement = `SELECT toDateTime(id, 'Asia/Tokyo') AS at, toLowCardinality(s) AS lc, i32 FROM ${table} ORDER BY id`
    const { fromServer, fromNative, streamed } = await both(statement)
    expect(streamed).toBe(false)
    expectSameTable(fromServer, fromNative)
  })

  // A setting left unpinned that changes the server's schema: Date as Uint16.
  it('runs the query over Native when the server sends another schema', async () => {
    // 18.16 has no such setting (nor ArrowStream): the case is the newer servers'.
    if (!recent) return
    const settings = { output_format_arrow_date_as_uint16: 1 }
    // A few rows: the server has written all of them when the client stops the query (the
    // modern engine aborts when it fails to write to a client that has gone).
    const statement = `SELECT id, d FROM ${table} WHERE id < 3 ORDER BY id`
    const raw = vi.spyOn(ch, 'queryRaw')
    const fromServer = await ch.queryArrow(statement, { settings })
    expect(raw.mock.calls.length > 0).toBe(streams)
    raw.mockRestore()
    const fromNative = await (await ch.query(statement, { settings })).arrow()
    expect(String(fromServer.schema.fields[1]!.type)).toBe('Date32<DAY>')
    expectSameTable(fromServer, fromNative)
  })

  it('raises the ClickHouseError of an error late in the result', async () => {
    const error = await thrown(() =>
      ch.queryArrow(
        'SELECT number, throwIf(number = 250000) AS t FROM numbers(300000) SETTINGS max_block_size = 10000',
      ),
    )
    expect(error).toBeInstanceOf(ClickHouseError)
    expect((error as ClickHouseError).code).toBe(395)
    expect(await (await ch.query('SELECT 1 AS one')).rows()).toEqual([{ one: 1 }])
  })

  it('settles on abort and on timeout, and the client goes on', async () => {
    const long = 'SELECT number FROM system.numbers LIMIT 100000000000'
    const controller = new AbortController()
    const aborting = setTimeout(() => controller.abort(), 300)
    const aborted = await thrown(() => ch.queryArrow(long, { signal: controller.signal }))
    clearTimeout(aborting)
    expect(aborted).toBeInstanceOf(AbortError)
    const timedOut = await thrown(() => ch.queryArrow(long, { timeoutMs: 400 }))
    expect(timedOut).toBeInstanceOf(TimeoutError)
    expect(await (await ch.query('SELECT 2 AS two')).rows()).toEqual([{ two: 2 }])
  })
})

/** Bool and Date32 came after 18.16. */
function versionAtLeast21(version: string): boolean {
  return Number(version.split('.')[0]) >= 21
}
