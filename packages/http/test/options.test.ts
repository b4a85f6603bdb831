import { ClickHouseError, TimeoutError } from '@clickwire/protocol'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')
const modern = server.generation === 'modern'

async function rows(
  http: ReturnType<typeof createHttpTransport>,
  sql: string,
  params?: Record<string, unknown>,
) {
  const out: Record<string, unknown>[] = []
  for await (const row of (await http.query(sql, { params })).rows()) out.push(row)
  return out
}

describe(`request options on ${server.version}`, () => {
  const opened: ReturnType<typeof createHttpTransport>[] = []
  const open = (options: Omit<Parameters<typeof createHttpTransport>[0], 'url'> = {}) => {
    const http = createHttpTransport({ url: server.httpUrl, ...options })
    opened.push(http)
    return http
  }
  afterAll(async () => {
    for (const http of opened) await http.close()
  })

  it(
    modern
      ? 'placeholders: sent as server-side parameters on 26.x, identical to literals and to forced client-side substitution'
      : 'placeholders: substituted client-side on 18.16 (which rejects param_), identical to literals',
    async () => {
      const http = open()
      const params = { n: 3, s: "it's\ta", d: '2017-01-04', a: [1, 2], big: 2n ** 64n - 1n }
      const sql =
        'SELECT {n:UInt8} + 1 AS n, {s:String} AS s, {d:Date} AS d, {a:Array(UInt16)} AS a, {big:UInt64} AS big'
      const expected = [{ n: 4, s: "it's\ta", d: '2017-01-04', a: [1, 2], big: 2n ** 64n - 1n }]
      expect(await rows(http, sql, params)).toEqual(expected)
      const forced = open({ parameters: 'server' })
      if (modern) {
        expect(await rows(forced, sql, params)).toEqual(expected)
        expect(await rows(open({ parameters: 'client' }), sql, params)).toEqual(expected)
        return
      }
      // Forcing server-side parameters shows why: 18.16 does not know them.
      const error = await rows(forced, 'SELECT {n:UInt8} AS n', { n: 1 }).catch((caught: unknown) => caught)
      expect(ClickHouseError.isInstance(error)).toBe(true)
      expect((error as ClickHouseError).code).toBe(115)
    },
  )

  it('settings per transport and per request, database and query id', async () => {
    const http = open({ database: 'system', settings: { max_threads: 3 } })
    const result = await http.query("SELECT value FROM settings WHERE name = 'max_threads'", {
      queryId: 'opt-q1',
    })
    expect(result.queryId).toBe('opt-q1')
    const values = []
    for await (const row of result.rows()) values.push(row.value)
    expect(values).toEqual(['3'])
    const override = await http.query("SELECT value FROM settings WHERE name = 'max_threads'", {
      // Not 2: on this 2-core machine 26.x shows a value equal to its default as 'auto(2)'.
      settings: { max_threads: 1 },
    })
    const overridden = []
    for await (const row of override.rows()) overridden.push(row.value)
    expect(overridden).toEqual(['1'])
  })

  it('sessions keep temporary tables; a concurrent request on a busy session waits its turn, within its deadline', async () => {
    const http = open({ sessionId: `s-${Date.now()}`, sessionTimeoutSeconds: 30 })
    await http.command('CREATE TEMPORARY TABLE tmp (x UInt8)')
    await http.command('INSERT INTO tmp VALUES (1), (2)')
    expect(await rows(http, 'SELECT sum(x) AS s FROM tmp')).toEqual([{ s: 3n }])
    const slow = http.command('SELECT sleep(2)')
    await new Promise((resolve) => setTimeout(resolve, 200))
    // The server refuses a request on a session that is busy (SESSION_IS_LOCKED, 373) before
    // running it: the transport sends it again until the session is free or its deadline
    // passes. Half a second is less than the sleep that holds the session.
    const late = await http.command('SELECT 1', { timeoutMs: 500 }).catch((caught: unknown) => caught)
    expect(TimeoutError.isInstance(late), String(late)).toBe(true)
    // Without a deadline of its own it runs once the session is free, in the session.
    const waited = rows(http, 'SELECT count() AS n FROM tmp')
    await slow
    expect(await waited).toEqual([{ n: 2n }])
  })

  it('gzip responses and gzip request bodies', async () => {
    const http = open({ compression: { request: 'gzip', response: 'gzip' } })
    await http.command('DROP TABLE IF EXISTS http_gzip')
    await http.command('CREATE TABLE http_gzip (n UInt32, s String) ENGINE = Memory')
    const n = Uint32Array.from({ length: 100_000 }, (_, i) => i)
    const s = Array.from(n, (i) => `value ${i % 100}`)
    await http.insert('http_gzip', () => [{ rows: n.length, columns: [n, s] }])
    expect(await rows(http, 'SELECT count() AS c, sum(n) AS t, uniqExact(s) AS u FROM http_gzip')).toEqual([
      { c: 100_000n, t: 4_999_950_000n, u: 100n },
    ])
    const raw = await http.queryRaw('SELECT s FROM http_gzip LIMIT 3', { format: 'CSV' })
    expect(await raw.text()).toBe('"value 0"\n"value 1"\n"value 2"\n')
    await http.command('DROP TABLE http_gzip')
  })

  it('LZ4 compressed frames in insert bodies (decompress=1)', async () => {
    const http = open({ compression: { request: 'lz4' } })
    await http.command('DROP TABLE IF EXISTS http_lz4')
    await http.command('CREATE TABLE http_lz4 (n UInt64) ENGINE = Memory')
    const n = BigUint64Array.from({ length: 300_000 }, (_, i) => BigInt(i))
    await http.insert('http_lz4', () => [
      { rows: 200_000, columns: [n.subarray(0, 200_000)] },
      { rows: 100_000, columns: [n.subarray(200_000)] },
    ])
    expect(await rows(http, 'SELECT count() AS c, sum(n) AS t FROM http_lz4')).toEqual([
      { c: 300_000n, t: 44_999_850_000n },
    ])
    await http.command('DROP TABLE http_lz4')
  })

  it('compressed-frame responses fall back to plain ones where compress=1 is broken (Debian 18.16)', async () => {
    const http = open({ compression: { response: 'frames' } })
    expect(await rows(http, 'SELECT number AS n FROM system.numbers LIMIT 3')).toEqual([
      { n: 0n },
      { n: 1n },
      { n: 2n },
    ])
  })

  it("an insert whose producer fails raises the producer's error, and never a partial block", async () => {
    const http = open()
    await http.command('DROP TABLE IF EXISTS http_producer_fails')
    await http.command('CREATE TABLE http_producer_fails (x UInt32) ENGINE = Memory')
    const failure = new Error('the source broke')
    const error = await http
      .insert('http_producer_fails', async function* () {
        yield { rows: 2, columns: [[1, 2]] }
        throw failure
      })
      .catch((caught: unknown) => caught)
    expect(error).toBe(failure)
    // ClickHouse writes each block of an insert as it arrives: the block sent before the
    // failure may be in the table (if its bytes left the socket before the upload was cut),
    // but never a part of one.
    const [count] = await rows(http, 'SELECT count() AS c FROM http_producer_fails')
    expect([0n, 2n]).toContain(count!.c)
    const wrongValue = await http
      .insert('http_producer_fails', () => [{ rows: 1, columns: [['not a number']] }])
      .catch((caught: unknown) => caught)
    expect((wrongValue as Error).name).toBe('UsageError')
    await http.command('DROP TABLE http_producer_fails')
  })

  it('the fetch backend works in Node too', async () => {
    const http = open({ fetch: globalThis.fetch })
    expect(http.backendName).toBe('fetch')
    expect(await rows(http, 'SELECT 1 AS one')).toEqual([{ one: 1 }])
    await http.command('DROP TABLE IF EXISTS http_fetch_insert')
    await http.command('CREATE TABLE http_fetch_insert (x UInt8) ENGINE = Memory')
    await http.insert('http_fetch_insert', () => [{ rows: 2, columns: [[5, 6]] }])
    expect(await rows(http, 'SELECT sum(x) AS s FROM http_fetch_insert')).toEqual([{ s: 11n }])
    await http.command('DROP TABLE http_fetch_insert')
  })
})
