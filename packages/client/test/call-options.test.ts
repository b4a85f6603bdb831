// Every call's options are checked (issue 28, point 2): on both transports an unknown key
// (a @clickhouse/client name, a typo) or a value of the wrong kind is a UsageError before
// anything is sent, and a signal aborted beforehand runs nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AbortError, createClient, UsageError } from '../src/index.js'
import { clientFor, server, thrown, transports, uniqueTable } from './support/transports.js'

const table = uniqueTable('call_options')
const admin = createClient(server.httpUrl)

beforeAll(async () => {
  await admin.command(`CREATE TABLE ${table} (id UInt32) ENGINE = Memory`)
})

afterAll(async () => {
  await admin.command(`DROP TABLE IF EXISTS ${table}`)
  await admin.close()
})

/** Rows of the table, as the server counts them over HTTP (the oracle). */
async function stored(): Promise<string> {
  const rows = await (await admin.query<{ c: string }>(`SELECT toString(count()) AS c FROM ${table}`)).rows()
  return rows[0]!.c
}

/** The message of the UsageError `run` rejects with. */
async function usage(run: () => Promise<unknown>): Promise<string> {
  const error = await thrown(run)
  expect(error).toBeInstanceOf(UsageError)
  return (error as Error).message
}

describe.each(transports)('%s', (transport) => {
  it('names ours for each @clickhouse/client name of the issue, and sends nothing', async () => {
    await using ch = clientFor(transport)
    const insertSql = `INSERT INTO ${table} VALUES (1)`
    expect(
      await usage(() => ch.command(insertSql, { clickhouse_settings: { max_threads: 1 } } as never)),
    ).toBe(
      'unknown command() option "clickhouse_settings": @clickhouse/client\'s clickhouse_settings is `settings` here',
    )
    expect(await usage(() => ch.query('SELECT {a:UInt8} AS a', { query_params: { a: 1 } } as never))).toBe(
      'unknown query() option "query_params": @clickhouse/client\'s query_params is `params` here',
    )
    expect(await usage(() => ch.query('SELECT 1', { format: 'CSV' } as never))).toMatch(
      /^unknown query\(\) option "format": .*`queryRaw\(sql, \{ format \}\)`/,
    )
    const aborted = AbortSignal.abort()
    expect(await usage(() => ch.command(insertSql, { abort_signal: aborted } as never))).toBe(
      'unknown command() option "abort_signal": @clickhouse/client\'s abort_signal is `signal` here',
    )
    expect(await usage(() => ch.insert(table, [{ id: 2 }], { query_id: 'my-id' } as never))).toBe(
      'unknown insert() option "query_id": @clickhouse/client\'s query_id is `queryId` here',
    )
    expect(await usage(() => ch.command(insertSql, { session_id: 'x' } as never))).toMatch(
      /^unknown command\(\) option "session_id": .*client\.session\(\)/,
    )
    expect(await usage(() => ch.queryArrow('SELECT 1 AS x', { clickhouse_settings: {} } as never))).toMatch(
      /is `settings` here$/,
    )
    expect(await stored()).toBe('0')
  })

  it('suggests the option a typo meant, instead of running without it', async () => {
    await using ch = clientFor(transport)
    expect(await usage(() => ch.query('SELECT sleep(2)', { timeoutMS: 1 } as never))).toBe(
      'unknown query() option "timeoutMS": did you mean `timeoutMs`?',
    )
    expect(await usage(() => ch.command('SELECT 1', { setting: { max_threads: 1 } } as never))).toBe(
      'unknown command() option "setting": did you mean `settings`?',
    )
    expect(await usage(() => ch.query('SELECT {a:UInt8}', { param: { a: 1 } } as never))).toBe(
      'unknown query() option "param": did you mean `params`?',
    )
    expect(await usage(() => ch.ping({ timeoutMS: 5 } as never))).toBe(
      'unknown ping() option "timeoutMS": did you mean `timeoutMs`?',
    )
  })

  it('refuses values of the wrong kind', async () => {
    await using ch = clientFor(transport)
    expect(await usage(() => ch.query('SELECT 1', { settings: 5 } as never))).toBe(
      'query() option settings must be an object, got 5',
    )
    expect(await usage(() => ch.query('SELECT 1', { signal: {} } as never))).toBe(
      'query() option signal must be an AbortSignal, got an object (Object)',
    )
    expect(await usage(() => ch.insert(table, [{ id: 3 }], { columns: 'id' } as never))).toBe(
      'insert() option columns must be an array, got a string',
    )
    expect(await usage(() => ch.query('SELECT 1', null as never))).toBe(
      'query() takes its options as an object, got null',
    )
    expect(await stored()).toBe('0')
  })

  it('runs nothing for a signal aborted before the call', async () => {
    await using ch = clientFor(transport)
    const signal = AbortSignal.abort()
    for (const call of [
      () => ch.command(`INSERT INTO ${table} VALUES (4)`, { signal }),
      () => ch.insert(table, [{ id: 5 }], { signal }),
      () => ch.query(`INSERT INTO ${table} VALUES (6)`, { signal }),
      () => ch.ping({ signal }),
    ]) {
      const error = await thrown(call)
      expect(AbortError.isInstance(error), String(error)).toBe(true)
    }
    expect(await stored()).toBe('0')
  })

  it("checks a session's calls and the session's own options the same way", async () => {
    await using ch = clientFor(transport)
    expect(await usage(() => ch.session({ session_timeout: 5 } as never))).toBe(
      'unknown session() option "session_timeout": session() takes id, timeoutSeconds',
    )
    expect(await usage(() => ch.session({ timeoutSeconds: 0 }))).toBe(
      'session timeoutSeconds must be a whole number of seconds >= 1, got 0',
    )
    await using s = await ch.session()
    expect(await usage(() => s.query('SELECT 1', { clickhouse_settings: {} } as never))).toBe(
      'unknown query() option "clickhouse_settings": @clickhouse/client\'s clickhouse_settings is `settings` here',
    )
    expect(await usage(() => s.insert(table, [{ id: 7 }], { timeoutMS: 5 } as never))).toBe(
      'unknown insert() option "timeoutMS": did you mean `timeoutMs`?',
    )
    expect(await stored()).toBe('0')
  })
})
