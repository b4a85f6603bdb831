// A server that accepts connections and never answers: the first call of a fresh client
// obeys its own timeoutMs and its own signal, over both transports, whatever the transport
// must ask first (over HTTP the server probe, an insert's DESCRIBE; over native the
// handshake). Each call settles with a TimeoutError (or an AbortError for a signal) within
// its deadline and a slack that a loaded machine meets too. serverInfo() takes no options: requestTimeoutMs bounds it.
// The same holds for a client that discovers a cluster, whose first read never answers.
import { describe, expect, it } from 'vitest'
import { type Client, createClient, sql } from '../src/index.js'
import { silentServer } from './support/silent-server.js'
import { loadSlackMs, timedSettle } from './support/timed-settle.js'

const silent = silentServer()

const limitMs = 900
const abortAfterMs = 300
const slackMs = loadSlackMs

type Limits = { timeoutMs?: number; signal?: AbortSignal }
const calls: Record<string, (client: Client, limits: Limits) => Promise<unknown>> = {
  query: async (client, limits) => (await client.query('SELECT 1', limits)).rows(),
  'sql`` query': async (client, limits) => (await client.query(sql`SELECT ${1} AS one`, limits)).rows(),
  insert: (client, limits) => client.insert('t', [{ a: 1 }], limits),
  command: (client, limits) => client.command('SELECT 1', limits),
  ping: (client, limits) => client.ping(limits),
}

/** How `run` settled, and the lag of a timer of `limit` started with it (see timedSettle). */
const settle = (run: () => Promise<unknown>, limit = limitMs) => timedSettle(run, limit)

describe.each([
  ['clickhouse', ''],
  ['http', ''],
  // The first call waits for the cluster's first read (system.clusters from the seed).
  ['clickhouse', ' discovering a cluster'],
  ['http', ' discovering a cluster'],
])('%s%s', (scheme, discovering) => {
  const fresh = (options: { requestTimeoutMs?: number } = {}) =>
    createClient({
      url: `${scheme}://127.0.0.1:${silent.port}`,
      ...(discovering ? { discoverCluster: 'main' } : {}),
      ...options,
    })

  for (const [name, call] of Object.entries(calls)) {
    it(`${name} as the first call obeys its timeoutMs`, async () => {
      await using client = fresh()
      const { error, elapsed, lag } = await settle(() => call(client, { timeoutMs: limitMs }))
      expect(error?.name, String(error)).toBe('TimeoutError')
      expect(elapsed).toBeGreaterThanOrEqual(limitMs - 50)
      expect(elapsed).toBeLessThan(limitMs + slackMs + lag)
    })

    it(`${name} as the first call obeys its signal`, async () => {
      await using client = fresh()
      const { error, elapsed, lag } = await settle(
        () => call(client, { signal: AbortSignal.timeout(abortAfterMs) }),
        abortAfterMs,
      )
      expect(error?.name, String(error)).toBe('AbortError')
      expect(elapsed).toBeGreaterThanOrEqual(abortAfterMs - 50)
      expect(elapsed).toBeLessThan(abortAfterMs + slackMs + lag)
    })
  }

  it('serverInfo() as the first call obeys requestTimeoutMs', async () => {
    await using client = fresh({ requestTimeoutMs: limitMs })
    const { error, elapsed, lag } = await settle(() => client.serverInfo())
    expect(error?.name, String(error)).toBe('TimeoutError')
    expect(elapsed).toBeGreaterThanOrEqual(limitMs - 50)
    expect(elapsed).toBeLessThan(limitMs + slackMs + lag)
  })

  it("one call's short deadline does not end another's longer wait for the same first request", async () => {
    await using client = fresh()
    const [short, long] = await Promise.all([
      settle(() => client.query('SELECT 1', { timeoutMs: 300 }), 300),
      settle(() => client.query('SELECT 2', { timeoutMs: 1500 }), 1500),
    ])
    expect(short.error?.name).toBe('TimeoutError')
    expect(short.elapsed).toBeLessThan(300 + slackMs + short.lag)
    expect(long.error?.name).toBe('TimeoutError')
    expect(long.elapsed).toBeGreaterThanOrEqual(1500 - 50)
    expect(long.elapsed).toBeLessThan(1500 + slackMs + long.lag)
  })
})
