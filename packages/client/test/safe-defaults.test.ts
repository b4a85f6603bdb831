// Safe defaults: a pool full of unread results fails with a TimeoutError that says why
// instead of hanging (both transports: native's pool, HTTP's connection slots), and one
// AbortSignal shared by many queries puts one listener on the signal (no
// MaxListenersExceededWarning).
import { describe, expect, it } from 'vitest'
import { type ResultSet, TimeoutError } from '../src/index.js'
import { loadSlackMs } from './support/timed-settle.js'
import { clientFor, thrown, transports, uniqueTable } from './support/transports.js'

/** The acquire TimeoutError's message for a pool of `max` after `ms`. */
const acquireMessage = (ms: number, max: number) =>
  `no connection became free within ${ms} ms: all ${max} connections of the pool (maxConnections) are in use. A query holds its connection until its result is read to the end or cancelled, so results left unread (Promise.all of more queries than maxConnections, each unconsumed) hold them all: read or cancel each result (await using does), or raise maxConnections or acquireTimeoutMs`

/** Process warnings emitted while `run` runs (and one tick after). */
async function warningsDuring(run: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = []
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`)
  process.on('warning', onWarning)
  try {
    await run()
    await new Promise((resolve) => setTimeout(resolve, 10))
  } finally {
    process.off('warning', onWarning)
  }
  return warnings
}

describe.each(transports)('%s', (transport) => {
  it('rejects a third query while two unread results hold a pool of 2, and serves one once a result is cancelled', async () => {
    await using ch = clientFor(transport, { maxConnections: 2, acquireTimeoutMs: 500 })
    const held = [
      await ch.query('SELECT number FROM system.numbers LIMIT 1000000'),
      await ch.query('SELECT number FROM system.numbers LIMIT 1000000'),
    ]
    const started = performance.now()
    const error = await thrown(() => ch.query('SELECT 3 AS i'))
    const waited = performance.now() - started
    expect(TimeoutError.isInstance(error), String(error)).toBe(true)
    expect(error).toMatchObject({ name: 'TimeoutError', timeout: 'acquire', timeoutMs: 500 })
    expect((error as Error).message).toBe(acquireMessage(500, 2))
    expect(waited).toBeGreaterThanOrEqual(490)
    expect(waited).toBeLessThan(500 + loadSlackMs)
    await held[0]!.cancel()
    expect(await (await ch.query('SELECT 4 AS i')).rows()).toEqual([{ i: 4 }])
    await held[1]!.cancel()
  })

  it('runs Promise.all of 11 queries read in full on the default pool of 10', async () => {
    await using ch = clientFor(transport)
    const rows = await Promise.all(
      Array.from({ length: 11 }, async (_, i) =>
        (await ch.query(`SELECT ${i} AS i, sleep(0.05) AS s FROM system.one`)).rows(),
      ),
    )
    expect(rows).toEqual(Array.from({ length: 11 }, (_, i) => [{ i, s: 0 }]))
  })

  it("needs no second connection for a call's own DESCRIBE (time zones, empty results, inserts) on a pool of 1", async () => {
    await using ch = clientFor(transport, { maxConnections: 1, acquireTimeoutMs: 500 })
    const zoned = await ch.query("SELECT toDateTime('2024-01-02 03:04:05', 'Asia/Tokyo') AS t")
    expect(zoned.toJSON().meta).toEqual([{ name: 't', type: "DateTime('Asia/Tokyo')" }])
    expect(await zoned.rows()).toEqual([{ t: '2024-01-02 03:04:05' }])
    const empty = await ch.query('SELECT 1 AS x WHERE 0')
    expect(empty.toJSON().meta).toEqual([{ name: 'x', type: 'UInt8' }])
    expect(await empty.rows()).toEqual([])
    const table = uniqueTable('acquire_insert')
    await ch.command(`CREATE TABLE ${table} (id UInt32, name String) ENGINE = Memory`)
    try {
      expect((await ch.insert(table, [{ id: 1, name: 'a' }])).rowsWritten).toBe(1)
      expect(await (await ch.query(`SELECT id, name FROM ${table}`)).rows()).toEqual([{ id: 1, name: 'a' }])
    } finally {
      await ch.command(`DROP TABLE ${table}`)
    }
  })

  it('describes and cancels a streaming result that holds the only connection', async () => {
    await using ch = clientFor(transport, { maxConnections: 1, acquireTimeoutMs: 500 })
    // Far more than the body buffer: the server is still sending when the DESCRIBE for the
    // column's time zone goes out, and when the KILL QUERY of the cancel does.
    const streaming = await ch.query(
      "SELECT toDateTime(number, 'Asia/Tokyo') AS t, toString(number) AS s FROM system.numbers LIMIT 100000000",
    )
    expect(streaming.toJSON().meta).toEqual([
      { name: 't', type: "DateTime('Asia/Tokyo')" },
      { name: 's', type: 'String' },
    ])
    const first = (await streaming.blocks().next()).value
    expect(first?.rows()[0]).toEqual({ t: '1970-01-01 09:00:00', s: '0' })
    const started = performance.now()
    await streaming.cancel()
    // Reading the 100,000,000 rows to their end would take far longer.
    expect(performance.now() - started).toBeLessThan(loadSlackMs)
    expect(await (await ch.query('SELECT 5 AS i')).rows()).toEqual([{ i: 5 }])
  })

  it('rejects the 11th of 11 unread queries on a pool of 10 after acquireTimeoutMs, and works afterwards', async () => {
    await using ch = clientFor(transport, { maxConnections: 10, acquireTimeoutMs: 500 })
    // Ten results left unread hold the ten connections.
    const held: ResultSet[] = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        ch.query(`SELECT ${i} AS i, number FROM system.numbers LIMIT 100000`),
      ),
    )
    const started = performance.now()
    const error = await thrown(() => ch.query('SELECT 11 AS i'))
    const waited = performance.now() - started
    expect(TimeoutError.isInstance(error), String(error)).toBe(true)
    expect(error).toMatchObject({ name: 'TimeoutError', kind: 'TIMEOUT', timeout: 'acquire', timeoutMs: 500 })
    expect((error as Error).message).toBe(
      'no connection became free within 500 ms: all 10 connections of the pool (maxConnections) are in use. A query holds its connection until its result is read to the end or cancelled, so results left unread (Promise.all of more queries than maxConnections, each unconsumed) hold them all: read or cancel each result (await using does), or raise maxConnections or acquireTimeoutMs',
    )
    expect(waited).toBeGreaterThanOrEqual(490)
    expect(waited).toBeLessThan(500 + loadSlackMs)
    // Releasing the results frees the pool: the next query runs.
    await Promise.all(held.map((rs) => rs.cancel()))
    expect(await (await ch.query('SELECT 12 AS i')).rows()).toEqual([{ i: 12 }])
  })
})

describe('native', () => {
  it('runs 20 concurrent queries sharing one AbortSignal without a listener warning, and aborts them all', async () => {
    await using ch = clientFor('native', { maxConnections: 20 })
    const controller = new AbortController()
    const warnings = await warningsDuring(async () => {
      const rows = await Promise.all(
        Array.from({ length: 20 }, async (_, i) =>
          (await ch.query(`SELECT ${i} AS i`, { signal: controller.signal })).rows(),
        ),
      )
      expect(rows).toEqual(Array.from({ length: 20 }, (_, i) => [{ i }]))
      // Twenty queries still running on the same signal, then aborted together.
      const running = Array.from({ length: 20 }, (_, i) =>
        ch
          .query(
            `SELECT ${i} AS i, sleepEachRow(0.5) FROM system.numbers LIMIT 10 SETTINGS max_block_size = 1`,
            {
              signal: controller.signal,
            },
          )
          .then((rs) => rs.rows())
          .catch((caught: unknown) => caught),
      )
      await new Promise((resolve) => setTimeout(resolve, 300))
      controller.abort(new Error('enough'))
      const outcomes = await Promise.all(running)
      for (const outcome of outcomes) expect(outcome).toMatchObject({ name: 'AbortError' })
    })
    expect(warnings).toEqual([])
  })
})
