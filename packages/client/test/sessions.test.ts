// Sessions behave the same over both transports (issue 28): state set in a session (SET,
// temporary tables, USE) stays for its later calls and is seen by nothing outside it, its
// calls run one at a time, and outside a session those statements are a UsageError instead
// of changing one pooled native connection (or nothing, over HTTP).
import { FaultProxy } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import {
  AbortError,
  ClickHouseError,
  type Client,
  ConnectionError,
  createClient,
  type Session,
  TimeoutError,
  UsageError,
} from '../src/index.js'
import { clientFor, server, thrown, transports, uniqueTable, urlFor } from './support/transports.js'

/** The value of a setting as the server renders it (system.settings: 18.16 has no getSetting). */
const settingSql = (name: string) => `SELECT value FROM system.settings WHERE name = '${name}'`

async function setting(ch: Pick<Client, 'query'>, name: string): Promise<string> {
  const rows = await (await ch.query<{ value: string }>(settingSql(name))).rows()
  return rows[0]!.value
}

/** The server's default of a setting, read by a fresh client over HTTP: the oracle. */
async function serverDefault(name: string): Promise<string> {
  await using fresh = createClient(server.httpUrl)
  return await setting(fresh, name)
}

describe.each(transports)('%s', (transport) => {
  it('keeps a SET inside the session: six parallel reads outside, over a pool of 4, see the default', async () => {
    const defaultThreads = await serverDefault('max_threads')
    expect(defaultThreads).not.toBe('1')
    await using ch = clientFor(transport, { maxConnections: 4 })
    // Four pooled connections open before the session sets anything.
    const warm = await Promise.all(
      [0, 1, 2, 3].map(async (i) => (await ch.query<{ i: number }>(`SELECT ${i} AS i, sleep(0.2)`)).rows()),
    )
    expect(warm.map((rows) => rows[0]!.i)).toEqual([0, 1, 2, 3])
    await using s = await ch.session()
    await s.command('SET max_threads = 1')
    expect(await setting(s, 'max_threads')).toBe('1')
    const outside = await Promise.all([0, 1, 2, 3, 4, 5].map(() => setting(ch, 'max_threads')))
    expect(outside).toEqual(Array(6).fill(defaultThreads))
    // And the session still has it after the client's calls.
    expect(await setting(s, 'max_threads')).toBe('1')
  })

  it('sees a temporary table in the session only', async () => {
    await using ch = clientFor(transport, { maxConnections: 4 })
    await using s = await ch.session()
    const table = uniqueTable('session_tmp')
    await s.command(`CREATE TEMPORARY TABLE ${table} (id UInt32)`)
    const inserted = await s.insert(table, [{ id: 1 }, { id: 2 }, { id: 3 }])
    expect(inserted.rowsWritten).toBe(3)
    const inside = await (await s.query<{ c: string }>(`SELECT toString(count()) AS c FROM ${table}`)).rows()
    expect(inside).toEqual([{ c: '3' }])
    const outside = await Promise.all(
      [0, 1, 2, 3].map(() => thrown(async () => (await ch.query(`SELECT count() FROM ${table}`)).rows())),
    )
    for (const error of outside) {
      expect(ClickHouseError.isInstance(error), String(error)).toBe(true)
      expect((error as ClickHouseError).code).toBe(60)
    }
  })

  it('keeps USE inside the session', async () => {
    await using ch = clientFor(transport)
    await using s = await ch.session()
    await s.command('USE system')
    const current = async (on: Pick<Client, 'query'>) =>
      (await (await on.query<{ db: string }>('SELECT currentDatabase() AS db')).rows())[0]!.db
    expect(await current(s)).toBe('system')
    expect(await current(ch)).toBe('default')
  })

  it('runs parallel session calls one at a time, in call order, and all succeed', async () => {
    await using ch = clientFor(transport)
    await using s = await ch.session()
    await s.command('SET max_threads = 1')
    const finished: number[] = []
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map(async (i) => {
        const rows = await (
          await s.query<{ i: number; value: string }>(
            `SELECT ${i} AS i, value FROM system.settings WHERE name = 'max_threads' AND sleep(0.1) = 0`,
          )
        ).rows()
        finished.push(i)
        return rows
      }),
    )
    // Over HTTP a second request while one runs would be SESSION_IS_LOCKED (373).
    expect(results).toEqual([0, 1, 2, 3, 4].map((i) => [{ i, value: '1' }]))
    expect(finished).toEqual([0, 1, 2, 3, 4])
  })

  it('keeps the session and its state after a call stopped by its timeout or its signal', async () => {
    await using ch = clientFor(transport)
    await using s = await ch.session()
    await s.command('SET max_threads = 1')
    // One row per block, 0.1 s each: the server checks for the cancel between rows.
    const slow = 'SELECT count() FROM numbers(30) WHERE sleepEachRow(0.1) = 0 SETTINGS max_block_size = 1'
    const timedOut = await thrown(async () => (await s.query(slow, { timeoutMs: 300 })).rows())
    expect(TimeoutError.isInstance(timedOut), String(timedOut)).toBe(true)
    // Over HTTP the stopped query may hold the session's lock a little longer on the server:
    // the next call waits for it (SESSION_IS_LOCKED is not the caller's to handle).
    expect(await setting(s, 'max_threads')).toBe('1')
    const controller = new AbortController()
    const aborted = thrown(async () => (await s.query(slow, { signal: controller.signal })).rows())
    setTimeout(() => controller.abort(), 300)
    expect(AbortError.isInstance(await aborted)).toBe(true)
    expect(await setting(s, 'max_threads')).toBe('1')
  })

  it('gives the session an id: a random UUID, or the one asked for', async () => {
    await using ch = clientFor(transport)
    await using random = await ch.session()
    expect(random.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const id = `clickwire-test-${uniqueTable('s')}`
    await using named = await ch.session({ id, timeoutSeconds: 30 })
    expect(named.id).toBe(id)
    expect(named.transport).toBe(transport)
    await named.command('SET max_threads = 1')
    expect(await setting(named, 'max_threads')).toBe('1')
  })

  it('fails calls after close() with a UsageError; client.close() closes open sessions', async () => {
    const ch = clientFor(transport)
    const s = await ch.session()
    await s.close()
    const after = await thrown(() => s.query('SELECT 1'))
    expect(after).toBeInstanceOf(UsageError)
    expect((after as Error).message).toBe('the session is closed')
    await s.close()
    const open: Session = await ch.session()
    expect(await setting(open, 'max_threads')).toBe(await serverDefault('max_threads'))
    await ch.close()
    for (const call of [() => open.command('SELECT 1'), () => open.ping(), () => ch.session()]) {
      const error = await thrown(call)
      expect(error).toBeInstanceOf(UsageError)
    }
    expect(((await thrown(() => open.command('SELECT 1'))) as Error).message).toBe('the session is closed')
  })

  it('refuses SET, USE and CREATE TEMPORARY TABLE outside a session, pointing to settings and sessions', async () => {
    await using ch = clientFor(transport)
    const set = await thrown(() => ch.command('  /* tuned */ set max_threads = 1'))
    expect(set).toBeInstanceOf(UsageError)
    expect((set as Error).message).toBe(
      'SET outside a session would change one pooled connection (native) or nothing (HTTP): give settings per call (`{ settings: { max_threads: ... } }`) or to the client (`createClient({ settings })`), or run it in a session, whose calls share one connection (native) or session_id (HTTP): `await using s = await client.session()`',
    )
    expect(await thrown(() => ch.query('SET max_threads = 1'))).toBeInstanceOf(UsageError)
    expect(((await thrown(() => ch.command('USE system'))) as Error).message).toMatch(
      /^USE outside a session/,
    )
    const table = uniqueTable('not_created')
    expect(
      ((await thrown(() => ch.command(`CREATE TEMPORARY TABLE ${table} (x UInt8)`))) as Error).message,
    ).toMatch(/^a temporary table lives in one connection \(native\) or HTTP session only/)
    // What the message offers instead works, and the client is unchanged.
    const perCall = await (
      await ch.query<{ value: string }>(settingSql('max_threads'), { settings: { max_threads: 1 } })
    ).rows()
    expect(perCall).toEqual([{ value: '1' }])
    expect(await setting(ch, 'max_threads')).toBe(await serverDefault('max_threads'))
  })

  it('makes the whole client one session with the sessionId option', async () => {
    const defaultThreads = await serverDefault('max_threads')
    await using ch = clientFor(transport, { sessionId: `clickwire-test-${uniqueTable('client')}` })
    await ch.command('SET max_threads = 1')
    const table = uniqueTable('client_tmp')
    await ch.command(`CREATE TEMPORARY TABLE ${table} (id UInt32)`)
    await ch.insert(table, [{ id: 7 }])
    // Parallel calls wait for each other (HTTP would answer SESSION_IS_LOCKED), on the one connection (native).
    const reads = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(
        async () =>
          (
            await (
              await ch.query<{ value: string; ids: string }>(
                `SELECT (${settingSql('max_threads')}) AS value, toString(groupArray(id)) AS ids FROM ${table}`,
              )
            ).rows()
          )[0],
      ),
    )
    expect(reads).toEqual(Array(6).fill({ value: '1', ids: '[7]' }))
    await using other = clientFor(transport)
    expect(await setting(other, 'max_threads')).toBe(defaultThreads)
  })
})

describe('a native session whose connection is lost', () => {
  it('fails its later calls with a ConnectionError instead of reconnecting without its state', async () => {
    const proxy = await FaultProxy.start(
      { host: server.host, port: server.ports.tcp },
      {},
      { resetServer: server.generation !== 'modern' },
    )
    try {
      await using ch = createClient({ url: `clickhouse://127.0.0.1:${proxy.port}` })
      await using s = await ch.session()
      await s.command('SET max_threads = 1')
      expect(await setting(s, 'max_threads')).toBe('1')
      proxy.resetAll()
      const first = await thrown(() => setting(s, 'max_threads'))
      expect(ConnectionError.isInstance(first), String(first)).toBe(true)
      const later = await thrown(() => setting(s, 'max_threads'))
      expect(ConnectionError.isInstance(later), String(later)).toBe(true)
      expect((later as Error).message).toBe(
        "the session's connection was lost (broken, timed out, or closed by the server), and with it what SET, USE and CREATE TEMPORARY TABLE left on it: open a new session",
      )
      // The client's own pooled calls reconnect as always, and a new session works.
      expect(await setting(ch, 'max_threads')).toBe(await serverDefault('max_threads'))
      await using again = await ch.session()
      await again.command('SET max_threads = 1')
      expect(await setting(again, 'max_threads')).toBe('1')
    } finally {
      await proxy.close()
    }
  })

  it("fails to open with the server's error (a wrong password), naming no secret", async () => {
    await using ch = createClient({ url: urlFor('native'), password: 'wrong-password' })
    const error = await thrown(() => ch.session())
    expect(ClickHouseError.isInstance(error), String(error)).toBe(true)
    expect((error as Error).message).not.toContain('wrong-password')
  })
})
