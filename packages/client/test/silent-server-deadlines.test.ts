// A server that accepts connections and never answers: every call of a client with a
// request limit settles with a TimeoutError within that limit, over both transports,
// whichever call comes first on a fresh client (a sql`` query and ping() used to wait for
// the 10 s connect timeout over native, asking the server's version or pinging unbounded).
import { describe, expect, it } from 'vitest'
import { type Client, createClient, sql } from '../src/index.js'
import { silentServer } from './support/silent-server.js'
import { loadSlackMs, timedSettle } from './support/timed-settle.js'

const silent = silentServer()

const requestTimeoutMs = 800
const calls: Record<string, (client: Client) => Promise<unknown>> = {
  ping: (client) => client.ping(),
  'sql`` query': async (client) => (await client.query(sql`SELECT ${1} AS one`)).rows(),
  query: async (client) => (await client.query('SELECT 1')).rows(),
  'query with params': async (client) =>
    (await client.query('SELECT {n:UInt8}', { params: { n: 1 } })).rows(),
  command: (client) => client.command('SELECT 1'),
  insert: (client) => client.insert('t', [{ a: 1 }]),
}

describe.each(['clickhouse', 'http'])('%s', (scheme) => {
  for (const [name, call] of Object.entries(calls)) {
    it(`${name} as the first call settles with a TimeoutError within requestTimeoutMs`, async () => {
      const client = createClient({ url: `${scheme}://127.0.0.1:${silent.port}`, requestTimeoutMs })
      try {
        const { error: failure, elapsed, lag } = await timedSettle(() => call(client), requestTimeoutMs)
        expect(failure?.name, String(failure)).toBe('TimeoutError')
        expect(elapsed).toBeGreaterThanOrEqual(requestTimeoutMs - 50)
        // The slack plus how late a plain timer ran meanwhile (a loaded machine delays both).
        expect(elapsed).toBeLessThan(requestTimeoutMs + loadSlackMs + lag)
      } finally {
        await client.close()
      }
    })
  }
})
