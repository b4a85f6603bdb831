// No pool loses a slot: a connection opened for a caller that has left by the time it is
// ready goes back to the pool, and close() closes every socket the client opened. The
// proxy in front of the server counts the client's connections still open.
import { FaultProxy } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { AbortError, type ClientOptions, ConnectionError, createClient, TimeoutError } from '../src/index.js'
import { server, thrown, transports } from './support/transports.js'

type Transport = (typeof transports)[number]

async function proxied(transport: Transport, options: Omit<ClientOptions, 'url'>) {
  const proxy = await FaultProxy.start(
    { host: server.host, port: transport === 'native' ? server.ports.tcp : server.ports.http },
    {},
    // The modern engines abort on an RST from a connection they read: their side gets a FIN.
    { resetServer: server.generation !== 'modern' },
  )
  const scheme = transport === 'native' ? 'clickhouse' : 'http'
  const client = createClient({ url: `${scheme}://127.0.0.1:${proxy.port}`, ...options })
  return {
    proxy,
    client,
    async [Symbol.asyncDispose]() {
      await client.close()
      await proxy.close()
    },
  }
}

/** Milliseconds until the proxy has no connection open; -1 if some still are after `limitMs`. */
async function allClosedWithin(proxy: FaultProxy, limitMs: number): Promise<number> {
  const started = Date.now()
  while (Date.now() - started < limitMs) {
    if (proxy.open === 0) return Date.now() - started
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return proxy.open === 0 ? limitMs : -1
}

/** Mulberry32: the same aborts in every run of a seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.each(transports)('%s', (transport) => {
  it('a connection opened for a caller that left goes back to the pool; close() closes it', async () => {
    await using setup = await proxied(transport, { maxConnections: 1, acquireTimeoutMs: 3000 })
    const { proxy, client } = setup
    expect(await (await client.query('SELECT 1 AS warm')).rows()).toEqual([{ warm: 1 }])
    // Q1 holds the one connection (10 rows at 0.3 s: 3 s at most on the server).
    const q1 = thrown(async () =>
      (
        await client.query(
          'SELECT count() AS n FROM numbers(10) WHERE sleepEachRow(0.3) = 0 SETTINGS max_block_size = 1',
          // Over HTTP, not sent again on a fresh connection after the reset (a read would be):
          // Q2 is to be the one the new connection is opened for.
          { retryable: false } as Parameters<typeof client.query>[1],
        )
      ).rows(),
    )
    await sleep(300)
    // Q2 waits for it, with a signal.
    const controller = new AbortController()
    const q2 = thrown(async () =>
      (await client.query('SELECT 2 AS two', { signal: controller.signal })).rows(),
    )
    await sleep(100)
    // Connections from now on get their first bytes (the Hello, the HTTP request) 800 ms late.
    proxy.setFault({ delayMs: 800 })
    // Q1's socket is reset: the pool opens a new connection for Q2, which leaves at 200 ms.
    proxy.resetAll()
    await sleep(200)
    controller.abort()
    expect(await q1).toBeInstanceOf(ConnectionError)
    expect(await q2).toBeInstanceOf(AbortError)
    proxy.setFault({})
    // The slot was not lost: the next calls get a connection (no "no connection became free").
    for (let i = 0; i < 3; i++) {
      expect(await (await client.query(`SELECT ${i} AS i`)).rows()).toEqual([{ i }])
    }
    await client.close()
    // Every socket the client opened is closed, the one opened for Q2 included.
    expect(await allClosedWithin(proxy, 10_000)).toBeGreaterThanOrEqual(0)
  })

  it('an abort storm of 500 queries on a pool of 10 loses no slot and leaves no socket open', async () => {
    await using setup = await proxied(transport, { maxConnections: 10, acquireTimeoutMs: 10_000 })
    const { proxy, client } = setup
    const random = seeded(29)
    const outcomes = await Promise.all(
      Array.from({ length: 500 }, async (_, index) => {
        const controller = new AbortController()
        const abortAt = Math.floor(random() * 60)
        const abortIt = random() < 0.6
        const timer = abortIt ? setTimeout(() => controller.abort(), abortAt) : undefined
        try {
          const rs = await client.query(
            `SELECT ${index} AS i, sleepEachRow(0.001) AS s FROM numbers(20) SETTINGS max_block_size = 1`,
            { signal: controller.signal },
          )
          const rows = await rs.rows()
          return rows.length === 20 ? 'done' : `rows ${rows.length}`
        } catch (error) {
          if (error instanceof AbortError) return 'aborted'
          if (error instanceof TimeoutError) return `timeout: ${error.message}`
          return `error: ${String(error)}`
        } finally {
          clearTimeout(timer)
        }
      }),
    )
    const unexpected = outcomes.filter((outcome) => outcome !== 'done' && outcome !== 'aborted')
    expect(unexpected).toEqual([])
    expect(outcomes.filter((outcome) => outcome === 'aborted').length).toBeGreaterThan(0)
    expect(outcomes.filter((outcome) => outcome === 'done').length).toBeGreaterThan(0)
    // Every slot is back: ten at once get a connection.
    const after = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => (await client.query(`SELECT ${i} AS i`)).rows()),
    )
    expect(after.map((rows) => rows.length)).toEqual(Array(10).fill(1))
    await client.close()
    expect(await allClosedWithin(proxy, 10_000)).toBeGreaterThanOrEqual(0)
  }, 120_000)
})
