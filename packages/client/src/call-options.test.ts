import { UsageError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { type CallName, checkCallOptions } from './call-options.js'
import { nearestName } from './option-names.js'
import { sessionStatementError } from './session-statements.js'

/** The message of the UsageError `run` throws. */
function usage(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as Error).message
  }
  throw new Error('expected a UsageError')
}

describe('checkCallOptions', () => {
  it("names ours for each of @clickhouse/client's call names", () => {
    expect(usage(() => checkCallOptions('query', { clickhouse_settings: { max_threads: 1 } }))).toBe(
      'unknown query() option "clickhouse_settings": @clickhouse/client\'s clickhouse_settings is `settings` here',
    )
    expect(usage(() => checkCallOptions('query', { query_params: { a: 1 } }))).toBe(
      'unknown query() option "query_params": @clickhouse/client\'s query_params is `params` here',
    )
    expect(usage(() => checkCallOptions('command', { abort_signal: new AbortController().signal }))).toBe(
      'unknown command() option "abort_signal": @clickhouse/client\'s abort_signal is `signal` here',
    )
    expect(usage(() => checkCallOptions('insert', { query_id: 'my-id' }))).toBe(
      'unknown insert() option "query_id": @clickhouse/client\'s query_id is `queryId` here',
    )
    expect(usage(() => checkCallOptions('query', { format: 'CSV' }))).toBe(
      'unknown query() option "format": @clickhouse/client\'s format: query() returns typed rows, whatever the format; for bytes in a format use `queryRaw(sql, { format })` (and `insertRaw(table, body, { format })` to insert them)',
    )
    expect(usage(() => checkCallOptions('query', { session_id: 'x' }))).toContain(
      '`await using s = await client.session()` (or the client option `sessionId`)',
    )
    expect(usage(() => checkCallOptions('insertRaw', { format: 'CSV', clickhouse_settings: {} }))).toContain(
      'is `settings` here',
    )
  })

  it('suggests the option a near miss meant', () => {
    expect(usage(() => checkCallOptions('query', { timeoutMS: 1 }))).toBe(
      'unknown query() option "timeoutMS": did you mean `timeoutMs`?',
    )
    expect(usage(() => checkCallOptions('command', { setting: {} }))).toBe(
      'unknown command() option "setting": did you mean `settings`?',
    )
    expect(usage(() => checkCallOptions('queryRaw', { param: {} }))).toBe(
      'unknown queryRaw() option "param": did you mean `params`?',
    )
    expect(usage(() => checkCallOptions('insert', { queryid: 'q' }))).toBe(
      'unknown insert() option "queryid": did you mean `queryId`?',
    )
    expect(usage(() => checkCallOptions('ping', { timeout: 5 }))).toBe(
      'unknown ping() option "timeout": did you mean `timeoutMs`?',
    )
  })

  it('lists what the call takes for a key that is nothing like one', () => {
    expect(usage(() => checkCallOptions('ping', { max_threads: 1 }))).toBe(
      'unknown ping() option "max_threads": ping() takes signal, timeoutMs',
    )
    expect(usage(() => checkCallOptions('command', { max_threads: 1 }))).toBe(
      'unknown command() option "max_threads": command() takes settings, queryId, signal, timeoutMs, httpHeaders, params (ClickHouse settings go in `settings`)',
    )
  })

  it('refuses a value of the wrong kind, without echoing strings', () => {
    expect(usage(() => checkCallOptions('query', { settings: 5 }))).toBe(
      'query() option settings must be an object, got 5',
    )
    expect(usage(() => checkCallOptions('query', { signal: {} }))).toBe(
      'query() option signal must be an AbortSignal, got an object (Object)',
    )
    expect(usage(() => checkCallOptions('insert', { timeoutMs: -1 }))).toBe(
      'insert() option timeoutMs must be a finite number of 0 or more, got -1',
    )
    expect(usage(() => checkCallOptions('insert', { timeoutMs: Number.POSITIVE_INFINITY }))).toBe(
      'insert() option timeoutMs must be a finite number of 0 or more, got Infinity',
    )
    expect(usage(() => checkCallOptions('command', { httpHeaders: 'Bearer secret-token' }))).toBe(
      'command() option httpHeaders must be an object, got a string',
    )
    expect(usage(() => checkCallOptions('query', { params: [1, 2] }))).toBe(
      'query() option params must be an object, got an array',
    )
    expect(usage(() => checkCallOptions('insert', { sharding: 'shards' }))).toBe(
      "insert() option sharding must be 'distributed' or 'direct', got a string",
    )
    expect(usage(() => checkCallOptions('query', null))).toBe(
      'query() takes its options as an object, got null',
    )
    expect(usage(() => checkCallOptions('query', 'SELECT 1'))).toBe(
      'query() takes its options as an object, got a string',
    )
  })

  it('takes every documented option of every call, and undefined for any of them', () => {
    const signal = new AbortController().signal
    const given: Record<CallName, Record<string, unknown>> = {
      query: {
        params: {},
        settings: {},
        queryId: 'q',
        signal,
        timeoutMs: 0,
        externalTables: [],
        httpHeaders: {},
        onProgress: () => {},
        onProfileInfo: () => {},
        onTotals: () => {},
        onExtremes: () => {},
        onLog: () => {},
        onProfileEvents: () => {},
      },
      queryArrow: { params: {}, settings: {}, signal, timeoutMs: 10 },
      queryRaw: { format: 'CSV', params: {}, settings: {}, queryId: 'q', signal, timeoutMs: 1 },
      command: { params: {}, settings: {}, queryId: 'q', signal, timeoutMs: 1, httpHeaders: {} },
      insert: {
        columns: ['a'],
        settings: {},
        queryId: 'q',
        signal,
        timeoutMs: 1,
        blockRows: 10,
        httpHeaders: {},
        sharding: 'direct',
        shardUrl: () => undefined,
      },
      insertRaw: { format: 'CSV', columns: ['a'], settings: {}, queryId: 'q', signal, timeoutMs: 1 },
      ping: { signal, timeoutMs: 1 },
      session: { id: 's', timeoutSeconds: 60 },
    }
    for (const [call, options] of Object.entries(given) as [CallName, Record<string, unknown>][]) {
      expect(() => checkCallOptions(call, options)).not.toThrow()
      const unset = Object.fromEntries(Object.keys(options).map((key) => [key, undefined]))
      expect(() => checkCallOptions(call, unset)).not.toThrow()
    }
    expect(() => checkCallOptions('query', undefined)).not.toThrow()
    // Keys inherited from a prototype are not the caller's options.
    const inherited = Object.create({ clickhouse_settings: {} }) as object
    expect(() => checkCallOptions('query', inherited)).not.toThrow()
  })
})

describe('nearestName', () => {
  it('matches case-insensitively and within a small edit distance only', () => {
    const known = ['settings', 'params', 'timeoutMs', 'queryId', 'signal']
    expect(nearestName('TIMEOUTMS', known)).toBe('timeoutMs')
    expect(nearestName('sigal', known)).toBe('signal')
    expect(nearestName('parmas', known)).toBe('params')
    expect(nearestName('max_threads', known)).toBeUndefined()
    expect(nearestName('id', known)).toBeUndefined()
  })
})

describe('sessionStatementError', () => {
  it('finds SET, USE and CREATE TEMPORARY TABLE after comments and whitespace, in any case', () => {
    expect(sessionStatementError('SET max_threads = 1')?.message).toBe(
      'SET outside a session would change one pooled connection (native) or nothing (HTTP): give settings per call (`{ settings: { max_threads: ... } }`) or to the client (`createClient({ settings })`), or run it in a session, whose calls share one connection (native) or session_id (HTTP): `await using s = await client.session()`',
    )
    expect(sessionStatementError('  -- why\n/* note */ set\tmax_threads=2')?.message).toContain(
      '`{ settings: { max_threads: ... } }`',
    )
    expect(sessionStatementError('# hash comment\nUse system')?.message).toMatch(
      /^USE outside a session would change one pooled connection/,
    )
    expect(sessionStatementError('create temporary table t (x UInt8)')?.message).toMatch(
      /^a temporary table lives in one connection \(native\) or HTTP session only/,
    )
    expect(sessionStatementError('CREATE TEMPORARY TABLE IF NOT EXISTS t (x UInt8)')).toBeInstanceOf(
      UsageError,
    )
    expect(sessionStatementError('SET ROLE admin')).toBeInstanceOf(UsageError)
  })

  it('leaves every other statement alone', () => {
    for (const sql of [
      'SELECT 1',
      "SELECT 'SET x = 1'",
      'SETTINGS',
      'SET DEFAULT ROLE r TO u',
      'set default role none to u',
      'CREATE TABLE t (x UInt8) ENGINE = Memory',
      'CREATE TEMPORARY_THING',
      'USER',
      'user_table',
      'SELECT * FROM t SETTINGS max_threads = 1',
      'INSERT INTO t SELECT 1',
      '',
      '-- SET x = 1\nSELECT 1',
    ])
      expect(sessionStatementError(sql), sql).toBeUndefined()
  })
})
