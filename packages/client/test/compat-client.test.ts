// The drop-in's calls as @clickhouse/client users make them, on both transports: inserts in
// the JSON formats, command/exec, ping, sessions through session_id, errors in
// @clickhouse/client's shape, and option checks. Values read back are the server's text.
import { Readable } from 'node:stream'
import { ClickHouseError as ServerError } from '@clickwire/protocol'
import { afterAll, describe, expect, it } from 'vitest'
import { ClickHouseError, createClient, SettingsMap, TupleParam } from '../src/compat/index.js'
import { serverRun } from './support/server-oracle.js'
import { deadPort, server, thrown, transports, uniqueTable, urlFor } from './support/transports.js'

const legacy = server.generation === 'legacy'

describe.each(transports)('compat client over %s', (transport) => {
  const client = createClient({ url: urlFor(transport) })
  afterAll(() => client.close())

  async function table(columns = 'id UInt64, name String, sku Array(UInt8)'): Promise<string> {
    const name = uniqueTable('compat')
    await client.command({ query: `CREATE TABLE ${name} (${columns}) ENGINE = MergeTree ORDER BY id` })
    return name
  }

  /** The table's rows as the server prints them (the oracle), without clickwire. */
  const serverRows = (name: string) => serverRun(`SELECT * FROM ${name} ORDER BY id FORMAT TSV`)

  // 18.16's HTTP interface reads neither JSONCompactEachRow nor JSONObjectEachRow (native converts them itself).
  it.skipIf(legacy && transport === 'http')(
    'inserts objects (JSONEachRow), arrays (JSONCompactEachRow) and a keyed object (JSONObjectEachRow)',
    async () => {
      const name = await table()
      await client.insert({
        table: name,
        values: [{ id: '1', name: 'a', sku: [1, 2] }],
        format: 'JSONEachRow',
      })
      const result = await client.insert({ table: name, values: [[2, 'b', [3]]] })
      await client.insert({
        table: name,
        values: { x: { id: 3, name: 'c', sku: [] } },
        format: 'JSONObjectEachRow',
      })
      expect(result.executed).toBe(true)
      expect(result.query_id).toMatch(/^[0-9a-f-]{36}$/)
      expect(await serverRows(name)).toBe('1\ta\t[1,2]\n2\tb\t[3]\n3\tc\t[]\n')
    },
  )

  it('inserts a Node stream of objects, and names columns by `columns` or `{ except }`', async () => {
    const name = await table("id UInt64, name String DEFAULT 'd', n UInt8 DEFAULT 7")
    await client.insert({
      table: name,
      values: Readable.from([{ id: 1 }, { id: 2 }], { objectMode: true }),
      format: 'JSONEachRow',
      columns: ['id'],
    })
    await client.insert({
      table: name,
      values: [{ id: 3, name: 'x' }],
      format: 'JSONEachRow',
      columns: { except: ['n'] },
    })
    expect(await serverRows(name)).toBe('1\td\t7\n2\td\t7\n3\tx\t7\n')
  })

  it('an empty array inserts nothing and says so', async () => {
    const name = await table()
    expect(await client.insert({ table: name, values: [] })).toEqual({
      executed: false,
      query_id: '',
      response_headers: {},
    })
  })

  it('exec streams the answer in the statement format; command drops it', async () => {
    const { stream, query_id } = await client.exec({ query: 'SELECT 42, 144 FORMAT CSV' })
    let text = ''
    for await (const chunk of stream) text += Buffer.from(chunk).toString()
    expect(text).toBe('42,144\n')
    expect(query_id).toMatch(/^[0-9a-f-]{36}$/)
    const done = await client.command({ query: 'SELECT 1', query_id: `compat-${transport}-${Date.now()}` })
    expect(done.query_id).toMatch(/^compat-/)
  })

  it('query_params bind as in @clickhouse/client: TupleParam, Map, Date inside arrays at day precision', async () => {
    const rs = await client.query({
      query: `SELECT {t:Tuple(Int32, String)} AS t, {a:Array(DateTime)} AS a${legacy ? '' : ', {m:Map(String, UInt8)} AS m'}`,
      format: 'JSONEachRow',
      query_params: {
        t: new TupleParam([42, "it's"]),
        a: [new Date(Date.UTC(2022, 4, 2, 13, 25, 55))],
        ...(legacy ? {} : { m: { k: 1 } }),
      },
    })
    const row = { t: [42, "it's"], a: ['2022-05-02 00:00:00'] }
    expect(await rs.json()).toEqual([legacy ? row : { ...row, m: { k: 1 } }])
  })

  // 18.16 has no additional_table_filters.
  it.skipIf(legacy)('a SettingsMap setting is sent as its map text', async () => {
    const rs = await client.query({
      query: 'SELECT number FROM system.numbers LIMIT 4',
      format: 'CSV',
      clickhouse_settings: {
        additional_table_filters: SettingsMap.from({ 'system.numbers': 'number != 2' }),
      },
    })
    expect(await rs.text()).toBe('0\n1\n3\n4\n')
  })

  it("a server error is @clickhouse/client's ClickHouseError: code as text, type, ours as cause", async () => {
    const error = await thrown(() => client.query({ query: 'SELECT * FROM compat_missing_table' }))
    expect(error).toBeInstanceOf(ClickHouseError)
    const compat = error as ClickHouseError
    expect(compat.code).toBe('60')
    expect(compat.type).toBe('UNKNOWN_TABLE')
    expect(compat.message).not.toMatch(/^Code:/)
    expect(compat.message).toMatch(/compat_missing_table/)
    expect(ServerError.isInstance(compat.cause)).toBe(true)
    expect((compat.cause as ServerError).code).toBe(60)
  })

  it('an abort rejects with "The user aborted a request"', async () => {
    const controller = new AbortController()
    controller.abort()
    const error = await thrown(() =>
      client.query({ query: 'SELECT sleep(1)', abort_signal: controller.signal }),
    )
    expect((error as Error).message).toMatch(/^The user aborted a request/)
  })

  it('ping resolves { success: true }, and { success: false, error } for a dead server without throwing', async () => {
    expect(await client.ping()).toEqual({ success: true })
    const scheme = transport === 'native' ? 'clickhouse' : 'http'
    const dead = createClient({ url: `${scheme}://127.0.0.1:${await deadPort()}`, request_timeout: 5_000 })
    const result = await dead.ping()
    expect(result.success).toBe(false)
    expect(result.success === false && result.error).toBeInstanceOf(Error)
    await dead.close()
  })

  it('session_id keeps temporary tables and SET across calls, per client and per call', async () => {
    const session = `compat-${transport}-${Date.now()}`
    const inSession = createClient({ url: urlFor(transport), session_id: session })
    await inSession.command({ query: 'CREATE TEMPORARY TABLE compat_tmp (id UInt32)' })
    await inSession.insert({ table: 'compat_tmp', values: [{ id: 7 }], format: 'JSONEachRow' })
    await inSession.command({ query: 'SET max_threads = 3' })
    const rs = await inSession.query({
      query: "SELECT id, (SELECT value FROM system.settings WHERE name = 'max_threads') AS t FROM compat_tmp",
      format: 'JSONEachRow',
    })
    expect(await rs.json()).toEqual([{ id: 7, t: '3' }])
    await inSession.close()
    const other = `${session}-call`
    await client.command({ query: 'CREATE TEMPORARY TABLE compat_tmp2 (id UInt32)', session_id: other })
    const seen = await client.query({
      query: 'SELECT toUInt8(count()) AS c FROM compat_tmp2',
      format: 'JSONEachRow',
      session_id: other,
    })
    expect(await seen.json()).toEqual([{ c: 0 }])
  })

  it('in a session, an exec of an INSERT whose stream is never read does not hold the session up', async () => {
    // 18.16 reads INSERT ... VALUES only as data blocks over native: that case is HTTP's there.
    const inSession = createClient({
      url: urlFor(transport),
      session_id: `compat-exec-${transport}-${Date.now()}`,
    })
    try {
      await inSession.command({ query: 'CREATE TEMPORARY TABLE compat_exec_tmp (id UInt32)' })
      const insert =
        legacy && transport === 'native'
          ? 'INSERT INTO compat_exec_tmp SELECT 43'
          : 'INSERT INTO compat_exec_tmp VALUES (43)'
      const first = await inSession.exec({ query: insert })
      const second = await inSession.exec({ query: 'INSERT INTO compat_exec_tmp SELECT 44' })
      expect([first.query_id, second.query_id].every((id) => id.length > 0)).toBe(true)
      const rs = await inSession.query({
        query: 'SELECT id FROM compat_exec_tmp ORDER BY id',
        format: 'JSONEachRow',
      })
      expect(await rs.json()).toEqual([{ id: 43 }, { id: 44 }])
    } finally {
      await inSession.close()
    }
  })

  it('an unknown configuration or call key is a UsageError naming it', async () => {
    expect(() => createClient({ url: urlFor(transport), requestTimeout: 1 } as never)).toThrow(
      /unknown @clickhouse\/client configuration key "requestTimeout"/,
    )
    await expect(client.query({ query: 'SELECT 1', timeout: 1 } as never)).rejects.toThrow(
      /unknown key "timeout" in query\(\)/,
    )
  })
})
