import { blockValues, ClickHouseError, clientRevision, rowObjects } from '@clickwire/protocol'
import { serverRevisionOf } from '@clickwire/testing'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')

describe('HTTP transport basics (18.16)', () => {
  const http = createHttpTransport({ url: server.httpUrl })
  afterAll(() => http.close())

  it('pings and reports the server', async () => {
    await http.ping()
    const info = await http.serverInfo()
    // As the native Hello reports them: major.minor.patch, the negotiated protocol revision
    // (18.16 speaks 54412; 26.7 speaks 54513, above clickwire's own).
    expect(info.version).toBe(/^\d+\.\d+\.\d+/.exec(server.version)![0])
    expect(info.timezone).toMatch(/UTC/)
    expect(info.revision).toBe(Math.min(clientRevision, serverRevisionOf(server) ?? clientRevision))
    expect(info.name).toBe('ClickHouse')
    expect(http.backendName).toBe('node:http')
  })

  it('streams Native blocks', async () => {
    const result = await http.query('SELECT number, toString(number) AS s FROM system.numbers LIMIT 100000')
    let rows = 0
    let sum = 0n
    for await (const block of result) {
      const [n, s] = blockValues(block)
      let mismatches = 0
      for (let i = 0; i < block.rows; i++) {
        sum += (n as BigUint64Array)[i]!
        if (s![i] !== String((n as BigUint64Array)[i])) mismatches++
      }
      expect(mismatches).toBe(0)
      rows += block.rows
    }
    expect(rows).toBe(100000)
    expect(sum).toBe(4999950000n)
    expect((await result.columns()).map((c) => [c.name, c.type])).toEqual([
      ['number', 'UInt64'],
      ['s', 'String'],
    ])
  })

  it('gives rows', async () => {
    const result = await http.query("SELECT 1 AS a, 'x' AS b")
    const rows = []
    for await (const row of result.rows()) rows.push(row)
    expect(rows).toEqual([{ a: 1, b: 'x' }])
  })

  it('turns an error status into a ClickHouseError', async () => {
    const error = await http.query('SELECT * FROM no_such_table_here').catch((e: unknown) => e)
    expect(ClickHouseError.isInstance(error)).toBe(true)
    expect((error as ClickHouseError).code).toBe(60)
  })

  it('runs commands and inserts', async () => {
    await http.command('DROP TABLE IF EXISTS http_basics')
    await http.command('CREATE TABLE http_basics (a UInt32, s String) ENGINE = Memory')
    const inserted = await http.insert('http_basics', () => [
      {
        rows: 2,
        columns: [
          [1, 2],
          ['x', 'y'],
        ],
      },
      { rows: 1, columns: [[3], ['z']] },
    ])
    expect(inserted.rowsWritten).toBe(3)
    const rows = []
    for await (const block of await http.query('SELECT * FROM http_basics ORDER BY a'))
      rows.push(...rowObjects(block))
    expect(rows).toEqual([
      { a: 1, s: 'x' },
      { a: 2, s: 'y' },
      { a: 3, s: 'z' },
    ])
  })

  it('reads raw formats', async () => {
    const raw = await http.queryRaw('SELECT number FROM system.numbers LIMIT 3', { format: 'CSV' })
    expect(await raw.text()).toBe('0\n1\n2\n')
    const json = await http.queryRaw('SELECT 1 AS x FORMAT JSONEachRow')
    expect(await json.text()).toBe('{"x":1}\n')
  })
})
