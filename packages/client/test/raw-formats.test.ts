// Raw formats through createClient: query results as bytes in any server format, inserts of
// bytes in any input format (a file streamed from disk), over HTTP. Over native, which carries
// data only as Native blocks, both are a UsageError that says so. The oracle is the server:
// the bytes it writes for a format, and what it holds after reading ours.
import { createReadStream } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseError, UsageError } from '../src/index.js'
import { clientFor, server, thrown, uniqueTable } from './support/transports.js'

const modern = server.generation === 'modern'
let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'clickwire-raw-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('http: queryRaw', () => {
  const ch = clientFor('http')
  afterAll(() => ch.close())

  it('returns the bytes of the format asked for, or of the statement’s FORMAT clause', async () => {
    const sql = "SELECT number AS n, concat('v', toString(number)) AS s FROM system.numbers LIMIT 3"
    expect(await (await ch.queryRaw(sql, { format: 'CSV' })).text()).toBe('0,"v0"\n1,"v1"\n2,"v2"\n')
    expect(await (await ch.queryRaw(sql, { format: 'TSVWithNames' })).text()).toBe(
      'n\ts\n0\tv0\n1\tv1\n2\tv2\n',
    )
    // 32-bit numbers: whether 64-bit ones are quoted in JSON changed between versions.
    const clause = await ch.queryRaw(
      "SELECT toUInt32(number) AS n, concat('v', toString(number)) AS s FROM system.numbers LIMIT 3 FORMAT JSONEachRow",
    )
    expect(clause.format).toBe('JSONEachRow')
    expect(await clause.text()).toBe('{"n":0,"s":"v0"}\n{"n":1,"s":"v1"}\n{"n":2,"s":"v2"}\n')
    // Without a format: TabSeparated, as ClickHouse's own default.
    expect(await (await ch.queryRaw(sql)).text()).toBe('0\tv0\n1\tv1\n2\tv2\n')
  })

  it('takes {name:Type} parameters and sql`` fragments as query() does', async () => {
    const raw = await ch.queryRaw('SELECT {x:UInt8} + 1 AS y', { params: { x: 41 }, format: 'CSV' })
    expect(await raw.text()).toBe('42\n')
  })

  it('ends with the server’s error raised while the result streams', async () => {
    let bytes = 0
    // The error comes mid-body on 26.x; 18.16 buffers the first part of an answer, so there
    // it may come before the body starts, from queryRaw() itself. The class is the same.
    const error = await thrown(async () => {
      const raw = await ch.queryRaw(
        'SELECT throwIf(number = 300000) AS x FROM system.numbers LIMIT 1000000 SETTINGS max_block_size = 1000',
        { format: 'TabSeparated' },
      )
      for await (const chunk of raw) bytes += chunk.length
    })
    expect(ClickHouseError.isInstance(error), String(error)).toBe(true)
    expect((error as ClickHouseError).code).toBe(395)
    // Only rows before the failing one can have arrived ("0\n" for each), never the exception text.
    expect(bytes).toBeLessThanOrEqual(300_000 * 2)
    if (modern) expect(bytes).toBeGreaterThan(0)
  })
})

describe('http: insertRaw', () => {
  const ch = clientFor('http')
  afterAll(() => ch.close())

  it('inserts a CSV file streamed from disk, and the server holds every row', async () => {
    const table = uniqueTable('raw_csv')
    await ch.command(`CREATE TABLE ${table} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`)
    try {
      const rows = 200_000
      const lines: string[] = []
      for (let id = 0; id < rows; id++) lines.push(`${id},"row ${id}, with a comma"`)
      const file = join(dir, 'rows.csv')
      await writeFile(file, `${lines.join('\n')}\n`)
      // 64 KiB chunks, pulled as the upload goes.
      const result = await ch.insertRaw(table, createReadStream(file, { highWaterMark: 64 * 1024 }), {
        format: 'CSV',
      })
      // 18.16 sends no summary header, so the count is unknown (undefined, not 0); newer servers count.
      expect(result.rowsWritten).toBe(modern ? rows : undefined)
      const held = await ch.query(
        `SELECT count() AS c, sum(id) AS total, max(s) AS last FROM ${table} WHERE s = concat('row ', toString(id), ', with a comma')`,
      )
      expect(await held.rows()).toEqual([
        { c: BigInt(rows), total: BigInt((rows * (rows - 1)) / 2), last: 'row 99999, with a comma' },
      ])
    } finally {
      await ch.command(`DROP TABLE IF EXISTS ${table}`)
    }
  })

  it('inserts text, a buffer or chunks into named columns, and refuses a missing format', async () => {
    const table = uniqueTable('raw_values')
    await ch.command(`CREATE TABLE ${table} (a UInt8, b String DEFAULT 'd') ENGINE = Memory`)
    try {
      const text = await ch.insertRaw(table, '1\n2\n', { format: 'TabSeparated', columns: ['a'] })
      expect(text.rowsWritten).toBe(modern ? 2 : undefined)
      await ch.insertRaw(table, new TextEncoder().encode('{"a":3,"b":"x"}\n'), { format: 'JSONEachRow' })
      await ch.insertRaw(table, [new TextEncoder().encode('4,'), new TextEncoder().encode('"y"\n')], {
        format: 'CSV',
      })
      const held = await ch.query(`SELECT a, b FROM ${table} ORDER BY a`)
      expect(await held.rows()).toEqual([
        { a: 1, b: 'd' },
        { a: 2, b: 'd' },
        { a: 3, b: 'x' },
        { a: 4, b: 'y' },
      ])
      const missing = await thrown(() => ch.insertRaw(table, '5\n', {} as never))
      expect(UsageError.isInstance(missing)).toBe(true)
      expect((missing as Error).message).toBe(
        "insertRaw needs options.format, the input format's name (CSV, Parquet, ...), got undefined",
      )
      // A malformed row is the server's error, and nothing of that insert is stored.
      const bad = await thrown(() =>
        ch.insertRaw(table, 'not a number\n', { format: 'TabSeparated', columns: ['a'] }),
      )
      expect(ClickHouseError.isInstance(bad), String(bad)).toBe(true)
      expect(await (await ch.query(`SELECT count() AS c FROM ${table}`)).rows()).toEqual([{ c: 4n }])
    } finally {
      await ch.command(`DROP TABLE IF EXISTS ${table}`)
    }
  })

  it.runIf(modern)(
    'round-trips Parquet: the server’s Parquet bytes inserted back give the same rows',
    async () => {
      const source = uniqueTable('raw_parquet_src')
      const target = uniqueTable('raw_parquet_dst')
      await ch.command(`CREATE TABLE ${source} (id UInt64, s String, f Float64) ENGINE = Memory`)
      await ch.command(`CREATE TABLE ${target} AS ${source}`)
      try {
        await ch.command(
          `INSERT INTO ${source} SELECT number, toString(number * 7), number / 4 FROM system.numbers LIMIT 50000`,
        )
        const parquet = await (
          await ch.queryRaw(`SELECT * FROM ${source} ORDER BY id`, { format: 'Parquet' })
        ).bytes()
        // A Parquet file starts and ends with its magic bytes.
        expect(new TextDecoder().decode(parquet.subarray(0, 4))).toBe('PAR1')
        expect(new TextDecoder().decode(parquet.subarray(-4))).toBe('PAR1')
        const written = await ch.insertRaw(target, parquet, { format: 'Parquet' })
        expect(written.rowsWritten).toBe(50_000)
        const compare = `SELECT count() AS c FROM (SELECT * FROM ${source} EXCEPT SELECT * FROM ${target})`
        expect(await (await ch.query(compare)).rows()).toEqual([{ c: 0n }])
        expect(await (await ch.query(`SELECT count() AS c FROM ${target}`)).rows()).toEqual([{ c: 50_000n }])
      } finally {
        await ch.command(`DROP TABLE IF EXISTS ${source}`)
        await ch.command(`DROP TABLE IF EXISTS ${target}`)
      }
    },
  )
})

describe('native: raw formats', () => {
  const ch = clientFor('native')
  afterAll(() => ch.close())

  it('refuses queryRaw and insertRaw with a UsageError that says why', async () => {
    const query = await thrown(() => ch.queryRaw('SELECT 1', { format: 'CSV' }))
    expect(UsageError.isInstance(query)).toBe(true)
    expect((query as Error).message).toBe(
      'queryRaw() needs the HTTP interface: the native protocol carries data only as Native blocks, so formats such as CSV or Parquet are not available over clickhouse:// (use an http:// or https:// URL for this client, or query() for rows)',
    )
    const insert = await thrown(() => ch.insertRaw('t', '1\n', { format: 'CSV' }))
    expect(UsageError.isInstance(insert)).toBe(true)
    expect((insert as Error).message).toBe(
      'insertRaw() needs the HTTP interface: the native protocol carries data only as Native blocks, so formats such as CSV or Parquet are not available over clickhouse:// (use an http:// or https:// URL for this client, or insert() for rows)',
    )
  })
})
