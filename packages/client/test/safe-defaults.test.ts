// Safe defaults over the native transport: a pool full of unread results fails with a
// TimeoutError that says why instead of hanging, and one AbortSignal shared by many
// queries puts one listener on the signal (no MaxListenersExceededWarning).
import { describe, expect, it } from 'vitest'
import { type ResultSet, TimeoutError } from '../src/index.js'
import { clientFor, thrown } from './support/transports.js'

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

describe('native', () => {
  it('rejects the 11th of 11 unread queries on a pool of 10 after acquireTimeoutMs, and works afterwards', async () => {
    await using ch = clientFor('native', { maxConnections: 10, acquireTimeoutMs: 500 })
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
    expect(waited).toBeLessThan(1500)
    // Releasing the results frees the pool: the next query runs.
    await Promise.all(held.map((rs) => rs.cancel()))
    expect(await (await ch.query('SELECT 12 AS i')).rows()).toEqual([{ i: 12 }])
  })

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
