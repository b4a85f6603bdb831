// The transport contract: the same call gives the same outcome over native TCP and over
// HTTP, against the same server. Each case runs over both transports and compares what came
// out: the values, or the error's class, code and message (query ids, UUIDs and table names
// replaced by placeholders, as they differ between runs).
import { clientRevision } from '@clickwire/protocol'
import { modernHandshakeAbort, serverRevisionOf } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { ClickHouseError, ClickwireError, type Client } from '../src/index.js'
import { goneWithin, waitRunning } from './support/server-processes.js'
import { clientFor, server, type TransportName, transports, uniqueTable } from './support/transports.js'

const modern = server.generation === 'modern'

/** What a call came to, comparable across transports. */
type Outcome =
  | { readonly value: unknown }
  | {
      readonly error: {
        readonly name: string
        readonly code: string | number | undefined
        readonly message: string
      }
    }

/** `text` with run-specific names replaced: the given ones, then any UUID. */
function normalised(text: string, names: Readonly<Record<string, string>>): string {
  let out = text
  for (const [name, placeholder] of Object.entries(names)) out = out.split(name).join(placeholder)
  return out.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
}

/**
 * The outcome of `run`. A server's message keeps its words; only the period that the
 * server's text rendering (HTTP bodies, ClickHouse's getExceptionMessage) adds to a message
 * that lacks one is dropped, since the native Exception packet carries the message without it.
 */
async function outcome(
  run: () => Promise<unknown>,
  names: Readonly<Record<string, string>> = {},
): Promise<Outcome> {
  try {
    return { value: await run() }
  } catch (caught) {
    if (!ClickwireError.isInstance(caught)) throw caught
    const error = caught as ClickwireError & { code?: string | number }
    let message = normalised(error.message, names)
    if (ClickHouseError.isInstance(error)) message = message.replace(/\.$/, '')
    return { error: { name: error.name, code: error.code, message } }
  }
}

/** Runs `run` over each transport (a fresh client each) and returns the outcomes by transport. */
async function overBoth(
  run: (ch: Client, transport: TransportName) => Promise<Outcome>,
  only: readonly TransportName[] = transports,
): Promise<Record<TransportName, Outcome>> {
  const outcomes = {} as Record<TransportName, Outcome>
  for (const transport of only) {
    await using ch = clientFor(transport)
    outcomes[transport] = await run(ch, transport)
  }
  return outcomes
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs until stopped (rows are counted, so nothing is sent before the end). */
const endless =
  'SELECT count() AS n FROM system.numbers WHERE sleepEachRow(0.01) = 0 SETTINGS max_block_size = 1'

/** Rows for an insert: one at once, then nothing for 1.5 s (unless `signal` fires first), then one more. */
async function* slowRows(signal?: AbortSignal) {
  yield { v: 'first' }
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1500)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    })
  })
  yield { v: 'late' }
}

describe('ping', () => {
  it('resolves with the right credentials on both', async () => {
    const outcomes = await overBoth(async (ch) => outcome(() => ch.ping()))
    expect(outcomes.native).toEqual({ value: undefined })
    expect(outcomes.http).toEqual(outcomes.native)
  })

  it.skipIf(!server.hasTestUsers)(
    `rejects a wrong password with the server's error on both${modern ? ` (native skipped: ${modernHandshakeAbort})` : ''}`,
    async () => {
      const { user } = server.users.password
      const outcomes = {} as Record<TransportName, Outcome>
      for (const transport of modern ? (['http'] as const) : transports) {
        await using ch = clientFor(transport, { username: user, password: 'not-the-password' })
        outcomes[transport] = await outcome(() => ch.ping())
      }
      const expected = modern
        ? {
            name: 'ClickHouseError',
            code: 516,
            message: `${user}: Authentication failed: password is incorrect, or there is no user with such name`,
          }
        : { name: 'ClickHouseError', code: 193, message: `Wrong password for user ${user}` }
      expect(outcomes.http).toEqual({ error: expected })
      if (!modern) expect(outcomes.native).toEqual(outcomes.http)
    },
  )
})

describe('inserts', () => {
  it('refuse a column the table lacks with the server error NO_SUCH_COLUMN_IN_TABLE on both', async () => {
    const outcomes = await overBoth(async (ch, transport) => {
      const table = uniqueTable(`contract_column_${transport}`)
      await ch.command(`CREATE TABLE ${table} (v String) ENGINE = Memory`)
      try {
        return await outcome(() => ch.insert(table, [{ v: 'a', w: 1 }]), { [table]: '<table>' })
      } finally {
        await ch.command(`DROP TABLE ${table}`)
      }
    })
    const error = (outcomes.native as { error: { code: number; message: string } }).error
    expect(error.code).toBe(16)
    expect(error.message).toMatch(/^No such column w in table (default\.)?<table>/)
    expect(outcomes.http).toEqual(outcomes.native)
  })

  it('see a column added by ALTER TABLE, and the types of a table dropped and created again', async () => {
    const outcomes = await overBoth(async (ch, transport) => {
      const table = uniqueTable(`contract_schema_${transport}`)
      // MergeTree: 18.16 cannot ADD COLUMN to a Memory table.
      await ch.command(`CREATE TABLE ${table} (v UInt8) ENGINE = MergeTree ORDER BY tuple()`)
      try {
        await ch.insert(table, [{ v: 1 }])
        await ch.command(`ALTER TABLE ${table} ADD COLUMN w UInt8`)
        await ch.insert(table, [{ v: 2, w: 20 }])
        const altered = await (await ch.query(`SELECT v, w FROM ${table} ORDER BY v`)).rows()
        await ch.command(`DROP TABLE ${table}`)
        await ch.command(`CREATE TABLE ${table} (v String) ENGINE = Memory`)
        await ch.insert(table, [{ v: 'x' }])
        const recreated = await (await ch.query(`SELECT v, toTypeName(v) AS t FROM ${table}`)).rows()
        return { value: { altered, recreated } }
      } finally {
        await ch.command(`DROP TABLE IF EXISTS ${table}`)
      }
    })
    expect(outcomes.native).toEqual({
      value: {
        altered: [
          { v: 1, w: 0 },
          { v: 2, w: 20 },
        ],
        recreated: [{ v: 'x', t: 'String' }],
      },
    })
    expect(outcomes.http).toEqual(outcomes.native)
  })
})

describe('a FORMAT clause in query()', () => {
  it('is refused before sending with the same UsageError, wherever the clause hides', async () => {
    for (const sql of [
      'SELECT 1 AS x FORMAT JSONEachRow',
      'SELECT 1 AS x FORMAT JSON SETTINGS max_threads = 1',
      'SELECT 1 AS x\nFORMAT CSV; -- trailing comment',
      "SELECT 'FORMAT JSON' AS s /* FORMAT JSON */ FORMAT TSV",
    ]) {
      const outcomes = await overBoth(async (ch) => outcome(() => ch.query(sql)))
      const format = /FORMAT (\w+)(?:\s+SETTINGS[^;]*)?;?(?:\s*--.*)?$/.exec(sql)![1]
      expect(outcomes.native, sql).toEqual({
        error: {
          name: 'UsageError',
          code: undefined,
          message: `query() reads the rows itself and cannot return FORMAT ${format} output: run the statement without its FORMAT clause through queryRaw(sql, { format: '${format}' }), which returns the bytes of any format`,
        },
      })
      expect(outcomes.http, sql).toEqual(outcomes.native)
    }
  })

  it('is not seen in strings, comments or names, and FORMAT Native is accepted', async () => {
    for (const [sql, rows] of [
      ["SELECT 'x FORMAT JSON' AS s", [{ s: 'x FORMAT JSON' }]],
      ['SELECT 1 AS x -- FORMAT JSON', [{ x: 1 }]],
      ['SELECT 1 AS x /* FORMAT JSON */', [{ x: 1 }]],
      ['SELECT 1 AS format', [{ format: 1 }]],
      ['SELECT format FROM (SELECT 2 AS format)', [{ format: 2 }]],
      ['SELECT 3 AS x FORMAT Native', [{ x: 3 }]],
      ['SELECT 4 AS x FORMAT Native;', [{ x: 4 }]],
    ] as const) {
      const outcomes = await overBoth(async (ch) => outcome(async () => (await ch.query(sql)).rows()))
      expect(outcomes.native, sql).toEqual({ value: rows })
      expect(outcomes.http, sql).toEqual(outcomes.native)
    }
  })

  it('leaves INSERT ... FORMAT through command() alone', async () => {
    const outcomes = await overBoth(async (ch, transport) => {
      const table = uniqueTable(`contract_format_${transport}`)
      await ch.command(`CREATE TABLE ${table} (x UInt8) ENGINE = Memory`)
      try {
        return await outcome(async () => {
          await ch.command(`INSERT INTO ${table} FORMAT Values (7)`)
          return (await ch.query(`SELECT x FROM ${table}`)).rows()
        })
      } finally {
        await ch.command(`DROP TABLE ${table}`)
      }
    })
    expect(outcomes.http).toEqual({ value: [{ x: 7 }] })
    if (modern) expect(outcomes.native).toEqual(outcomes.http)
    else {
      // Not the FORMAT check: the native protocol of 18.16 cannot carry an INSERT's rows in
      // its SQL text at all (a known limit of that server, named by the error).
      expect(outcomes.native).toEqual({
        error: {
          name: 'UsageError',
          code: undefined,
          message:
            'this server reads the rows of an INSERT only as data blocks over the native protocol, not inline in the SQL: pass them to insert(table, rows), or use INSERT ... SELECT',
        },
      })
    }
  })
})

describe('settings', () => {
  it('refuse NaN, infinities, inexact integers and objects with the same UsageError', async () => {
    const cases: Array<[unknown, string]> = [
      [Number.NaN, 'setting max_threads: NaN is not a finite number'],
      [Number.POSITIVE_INFINITY, 'setting max_threads: Infinity is not a finite number'],
      [Number.NEGATIVE_INFINITY, 'setting max_threads: -Infinity is not a finite number'],
      [2 ** 60, 'setting max_threads: 1152921504606847000 is not exact; pass a bigint or a string'],
      [
        { n: 1 },
        'setting max_threads: unsupported value type object (a setting takes a string, number, bigint or boolean)',
      ],
    ]
    for (const [value, message] of cases) {
      const outcomes = await overBoth(async (ch) =>
        outcome(() => ch.query('SELECT 1', { settings: { max_threads: value as number } })),
      )
      expect(outcomes.native, message).toEqual({ error: { name: 'UsageError', code: undefined, message } })
      expect(outcomes.http, message).toEqual(outcomes.native)
    }
    const badName = await overBoth(async (ch) =>
      outcome(() => ch.query('SELECT 1', { settings: { 'a&b': 1 } })),
    )
    expect(badName.native).toEqual({
      error: { name: 'UsageError', code: undefined, message: 'invalid setting name "a&b"' },
    })
    expect(badName.http).toEqual(badName.native)
  })

  it('render numbers, bigints, strings and booleans alike, as the server reads them back', async () => {
    // Values unlike the defaults: 26.x shows a setting sent over HTTP equal to its default as unchanged.
    const settings = { max_block_size: 1234, max_threads: 3n, max_insert_block_size: '4321', extremes: true }
    const names = Object.keys(settings)
      .map((name) => `'${name}'`)
      .join(', ')
    const settingsTable = `SELECT name, value FROM system.settings WHERE name IN (${names}) ORDER BY name`
    const outcomes = await overBoth(async (ch) =>
      outcome(async () => (await ch.query(settingsTable, { settings })).rows()),
    )
    expect(outcomes.native).toEqual({
      value: [
        { name: 'extremes', value: '1' },
        { name: 'max_block_size', value: '1234' },
        { name: 'max_insert_block_size', value: '4321' },
        { name: 'max_threads', value: '3' },
      ],
    })
    expect(outcomes.http).toEqual(outcomes.native)
  })
})

describe('deadlines, aborts and close()', () => {
  const id = (transport: TransportName, what: string) =>
    `contract-${what}-${transport}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`

  /** The outcome of a query stopped by `stop` once the server runs it, with its id as `<id>`. */
  async function stoppedQuery(
    options: { requestTimeoutMs?: number; timeoutMs?: number; abort?: boolean; close?: boolean },
    what: string,
  ) {
    return overBoth(async (ch, transport) => {
      await using client = clientFor(transport, { requestTimeoutMs: options.requestTimeoutMs })
      const queryId = id(transport, what)
      const controller = new AbortController()
      const result = outcome(
        async () =>
          (
            await client.query(endless, { queryId, timeoutMs: options.timeoutMs, signal: controller.signal })
          ).rows(),
        { [queryId]: '<id>' },
      )
      await waitRunning(ch, queryId)
      if (options.abort) controller.abort(new Error('no longer needed'))
      if (options.close) await client.close()
      // Awaited here: the client is disposed when this function returns.
      const ended = await result
      // The server's query stops too (it was seen running above), before the client closes.
      expect(await goneWithin(ch, queryId, 10_000)).toBeGreaterThanOrEqual(0)
      return ended
    })
  }

  it('a query past requestTimeoutMs: the same TimeoutError with the query id', async () => {
    const outcomes = await stoppedQuery({ requestTimeoutMs: 700 }, 'request-timeout')
    expect(outcomes.native).toEqual({
      error: { name: 'TimeoutError', code: undefined, message: 'query <id> ran longer than 700 ms' },
    })
    expect(outcomes.http).toEqual(outcomes.native)
  })

  it('a query past its timeoutMs: the same TimeoutError with the query id', async () => {
    const outcomes = await stoppedQuery({ timeoutMs: 600 }, 'timeout')
    expect(outcomes.native).toEqual({
      error: { name: 'TimeoutError', code: undefined, message: 'query <id> ran longer than 600 ms' },
    })
    expect(outcomes.http).toEqual(outcomes.native)
  })

  it('a query whose signal fires: the same AbortError with the query id', async () => {
    const outcomes = await stoppedQuery({ abort: true }, 'abort')
    expect(outcomes.native).toEqual({
      error: { name: 'AbortError', code: undefined, message: 'query <id> was aborted' },
    })
    expect(outcomes.http).toEqual(outcomes.native)
  })

  it('a query that close() ends: the same AbortError with the query id', async () => {
    const outcomes = await stoppedQuery({ close: true }, 'close')
    expect(outcomes.native).toEqual({
      error: { name: 'AbortError', code: undefined, message: 'query <id> was aborted: the client is closed' },
    })
    expect(outcomes.http).toEqual(outcomes.native)
  })

  /** The outcome of an insert whose rows stall after the first, stopped by a limit, a signal or close(). */
  async function stoppedInsert(
    options: { requestTimeoutMs?: number; timeoutMs?: number; abort?: boolean; close?: boolean },
    what: string,
  ) {
    return overBoth(async (ch, transport) => {
      const table = uniqueTable(`contract_stop_${transport}`)
      await ch.command(`CREATE TABLE ${table} (v String) ENGINE = Memory`)
      try {
        await using client = clientFor(transport, { requestTimeoutMs: options.requestTimeoutMs })
        const queryId = id(transport, what)
        const controller = new AbortController()
        const result = outcome(
          () =>
            client.insert(table, slowRows(controller.signal), {
              queryId,
              timeoutMs: options.timeoutMs,
              signal: controller.signal,
              blockRows: 1,
            }),
          { [queryId]: '<id>' },
        )
        await sleep(300)
        if (options.abort) controller.abort(new Error('no longer needed'))
        if (options.close) await client.close()
        const ended = await result
        expect(await goneWithin(ch, queryId, 10_000)).toBeGreaterThanOrEqual(0)
        const stored = await (await ch.query(`SELECT count() AS n FROM ${table}`)).rows()
        // What the server then holds: nothing, on every generation. Each block's last byte is
        // held back until the next goes out, so a stopped insert leaves the server a block cut
        // short, which it drops (18.16 used to store a row whose body was cut at the block's end).
        expect(stored).toEqual([{ n: 0n }])
        return { value: { ended, stored } }
      } finally {
        await ch.command(`DROP TABLE IF EXISTS ${table}`)
      }
    })
  }

  // What a stopped insert says of its one row, on every generation (0 rows stored, checked above).
  const notWritten =
    'the insert was not written: it broke before all of its data was sent (1 rows sent, below the squashing threshold, so none was stored)'

  it('an insert past requestTimeoutMs: the same TimeoutError with the query id and what became of its rows', async () => {
    const outcomes = await stoppedInsert({ requestTimeoutMs: 700 }, 'insert-request-timeout')
    expect(outcomes.native).toMatchObject({
      value: {
        ended: {
          error: {
            name: 'TimeoutError',
            code: undefined,
            message: `insert <id> ran longer than 700 ms; insert <id>: ${notWritten}`,
          },
        },
      },
    })
    expect(outcomes.http).toEqual(outcomes.native)
  })

  it('an insert past its timeoutMs, aborted, or ended by close(): the same errors on both', async () => {
    const timeout = await stoppedInsert({ timeoutMs: 600 }, 'insert-timeout')
    expect(timeout.native).toMatchObject({
      value: {
        ended: {
          error: {
            name: 'TimeoutError',
            message: `insert <id> ran longer than 600 ms; insert <id>: ${notWritten}`,
          },
        },
      },
    })
    expect(timeout.http).toEqual(timeout.native)
    const aborted = await stoppedInsert({ abort: true }, 'insert-abort')
    expect(aborted.native).toMatchObject({
      value: {
        ended: {
          error: { name: 'AbortError', message: `insert <id> was aborted; insert <id>: ${notWritten}` },
        },
      },
    })
    expect(aborted.http).toEqual(aborted.native)
    const closed = await stoppedInsert({ close: true }, 'insert-close')
    expect(closed.native).toMatchObject({
      value: {
        ended: {
          error: {
            name: 'AbortError',
            message: `insert <id> was aborted: the client is closed; insert <id>: ${notWritten}`,
          },
        },
      },
    })
    expect(closed.http).toEqual(closed.native)
  })
})

describe('what a result tells', () => {
  it('serverInfo() is the same object on both', async () => {
    const outcomes = await overBoth(async (ch) => outcome(() => ch.serverInfo()))
    const info = (outcomes.native as { value: Record<string, unknown> }).value
    expect(info.name).toBe('ClickHouse')
    expect(String(info.version)).toMatch(/^\d+\.\d+\.\d+$/)
    // The revision the native handshake settles on; HTTP reports the same one.
    expect(info.revision).toBe(Math.min(clientRevision, serverRevisionOf(server) ?? clientRevision))
    expect(outcomes.http).toEqual(outcomes.native)
  })

  it('an empty result has the same columns on both', async () => {
    const sql = "SELECT toUInt8(1) AS x, 'a' AS s, toDateTime(0, 'Asia/Tokyo') AS t WHERE 0 -- nothing"
    const outcomes = await overBoth(async (ch) =>
      outcome(async () => {
        const rs = await ch.query(sql)
        return { meta: rs.meta.map(({ name, type }) => [name, type]), rows: await rs.rows() }
      }),
    )
    expect(outcomes.native).toEqual({
      value: {
        meta: [
          ['x', 'UInt8'],
          ['s', 'String'],
          ['t', "DateTime('Asia/Tokyo')"],
        ],
        rows: [],
      },
    })
    expect(outcomes.http).toEqual(outcomes.native)
  })

  it('a server error in the middle of the rows is the same error on both, after some rows', async () => {
    // Past 1 MiB of output before the error, so 18.16 over HTTP has started the body too.
    const sql =
      'SELECT number, throwIf(number = 300000) AS boom FROM numbers(400000) SETTINGS max_block_size = 1000'
    const seen: Record<TransportName, number> = { native: 0, http: 0 }
    const outcomes = await overBoth(async (ch, transport) => {
      return outcome(async () => {
        for await (const block of (await ch.query(sql)).blocks())
          seen[transport] = seen[transport] + block.rowCount
      })
    })
    expect(outcomes.native).toMatchObject({ error: { name: 'ClickHouseError', code: 395 } })
    expect(outcomes.http).toEqual(outcomes.native)
    expect(seen.native).toBeGreaterThan(0)
    expect(seen.http).toBeGreaterThan(0)
  })
})
