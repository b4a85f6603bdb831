// An AbortSignal stops every kind of call (query, iteration, insert, command, ping), the
// server stops the work, and the client stays usable; close() and `await using` end it.
import { describe, expect, it } from 'vitest'
import { AbortError, type Client, UsageError } from '../src/index.js'
import { goneWithin } from './support/server-processes.js'
import { loadSlackMs } from './support/timed-settle.js'
import { clientFor, thrown, transports, uniqueTable } from './support/transports.js'

describe.each(transports)('%s', (transport) => {
  it('refuses to start a query with an aborted signal', async () => {
    await using ch = clientFor(transport)
    const reason = new Error('not needed any more')
    const error = await thrown(() => ch.query('SELECT 1', { signal: AbortSignal.abort(reason) }))
    expect(error).toBeInstanceOf(AbortError)
    expect((error as AbortError).reason).toBe(reason)
  })

  it('aborts a query the server is still working on, and the server stops it', async () => {
    await using ch = clientFor(transport)
    await using observer = clientFor(transport)
    const controller = new AbortController()
    const queryId = `abort-query-${transport}-${Date.now()}`
    const started = Date.now()
    setTimeout(() => controller.abort(), 200)
    // Runs until stopped: it only ends if the abort reaches the server.
    const error = await thrown(async () =>
      (
        await ch.query('SELECT sum(number) FROM system.numbers', { signal: controller.signal, queryId })
      ).rows(),
    )
    expect(error).toBeInstanceOf(AbortError)
    expect(Date.now() - started).toBeLessThan(200 + loadSlackMs)
    expect(await goneWithin(observer, queryId, 30_000)).toBeGreaterThanOrEqual(0)
    expect(await (await ch.query('SELECT 1 AS after')).rows()).toEqual([{ after: 1 }])
  })

  it('aborts an iteration in progress', async () => {
    await using ch = clientFor(transport)
    await using observer = clientFor(transport)
    const controller = new AbortController()
    const queryId = `abort-iteration-${transport}-${Date.now()}`
    const rs = await ch.query('SELECT number FROM system.numbers', {
      signal: controller.signal,
      queryId,
      settings: { max_block_size: 1000 },
    })
    let seen = 0
    const error = await thrown(async () => {
      for await (const _ of rs) if (++seen === 5000) controller.abort()
    })
    expect(error).toBeInstanceOf(AbortError)
    expect(seen).toBeGreaterThanOrEqual(5000)
    expect(await goneWithin(observer, queryId, 30_000)).toBeGreaterThanOrEqual(0)
    expect(await (await ch.query('SELECT 2 AS after')).rows()).toEqual([{ after: 2 }])
  })

  it('aborts an insert that is streaming, and ends the caller generator', async () => {
    await using ch = clientFor(transport)
    const table = uniqueTable(`abort_insert_${transport}`)
    await ch.command(`CREATE TABLE ${table} (x UInt64) ENGINE = Memory`)
    try {
      const controller = new AbortController()
      let closed = false
      async function* rows() {
        try {
          for (let i = 0; ; i++) {
            if (i === 20) controller.abort()
            yield [{ x: i }]
            await new Promise((resolve) => setTimeout(resolve, 5))
          }
        } finally {
          closed = true
        }
      }
      const error = await thrown(() => ch.insert(table, rows(), { signal: controller.signal, blockRows: 5 }))
      expect(error).toBeInstanceOf(AbortError)
      expect(closed).toBe(true)
      expect(await (await ch.query('SELECT 3 AS after')).rows()).toEqual([{ after: 3 }])
    } finally {
      await ch.command(`DROP TABLE ${table}`)
    }
  })

  it('aborts a command', async () => {
    await using ch = clientFor(transport)
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 200)
    const started = Date.now()
    // 30 s of sleeping (3 s is the most one sleep may take): only the abort ends it sooner.
    const error = await thrown(() =>
      ch.command('SELECT sleepEachRow(1) FROM system.numbers LIMIT 30 SETTINGS max_block_size = 1', {
        signal: controller.signal,
      }),
    )
    expect(error).toBeInstanceOf(AbortError)
    expect(Date.now() - started).toBeLessThan(200 + loadSlackMs)
  })

  it('pings, and refuses a ping with an aborted signal', async () => {
    await using ch = clientFor(transport)
    await expect(ch.ping()).resolves.toBeUndefined()
    await expect(ch.ping({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError)
    await expect(ch.ping({ signal: new AbortController().signal })).resolves.toBeUndefined()
  })

  it('closes: later calls are UsageErrors, closing twice is fine', async () => {
    const ch = clientFor(transport)
    expect(await (await ch.query('SELECT 1 AS x')).rows()).toEqual([{ x: 1 }])
    await ch.close()
    await ch.close()
    for (const call of [
      () => ch.query('SELECT 1'),
      () => ch.command('SELECT 1'),
      () => ch.insert('t', [{ x: 1 }]),
      () => ch.ping(),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(UsageError)
    }
  })

  it('closes at the end of an `await using` block (Symbol.asyncDispose)', async () => {
    let outside: Client | undefined
    {
      await using ch = clientFor(transport)
      outside = ch
      expect(await (await ch.query('SELECT 1 AS x')).rows()).toEqual([{ x: 1 }])
    }
    await expect(outside.query('SELECT 1')).rejects.toBeInstanceOf(UsageError)
  })
})
