import { ConnectionError } from '@clickwire/protocol'
import { type StaleSocketProxy, startStaleSocketProxy } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function scalar(http: ReturnType<typeof createHttpTransport>, sql: string): Promise<unknown> {
  for await (const row of (await http.query(sql)).rows()) return Object.values(row)[0]
  return undefined
}

describe('kept-alive sockets', () => {
  it('a query after more than the server keep-alive (3 s) of idleness works', async () => {
    // Sockets kept far past the server's `Keep-Alive: timeout=3` hint: the server has closed
    // ours by the time the second query goes out.
    const http = createHttpTransport({
      url: server.httpUrl,
      idleTimeoutMs: 20_000,
      keepAliveMarginMs: -20_000,
    })
    try {
      expect(await scalar(http, 'SELECT 1')).toBe(1)
      await sleep(3500)
      expect(await scalar(http, 'SELECT 2')).toBe(2)
      // Either undici saw the server's FIN before reusing the socket, or the request failed
      // on it and was sent once more: never more than once.
      expect(http.retries).toBeLessThanOrEqual(1)
    } finally {
      await http.close()
    }
  }, 20_000)

  it('by default sockets are dropped before the server drops them', async () => {
    const http = createHttpTransport({ url: server.httpUrl })
    try {
      expect(await scalar(http, 'SELECT 1')).toBe(1)
      await sleep(3500)
      expect(await scalar(http, 'SELECT 2')).toBe(2)
      expect(http.retries).toBe(0)
    } finally {
      await http.close()
    }
  }, 20_000)

  it('a write after the event loop was blocked past the server keep-alive goes out on a live socket', async () => {
    // A long synchronous stretch (decoding a large result) holds back both undici's idle
    // timer and the server's close of the idle socket: neither is seen until the loop turns.
    // The next request must not go out on that socket, for a write cannot be sent again.
    const http = createHttpTransport({ url: server.httpUrl })
    try {
      await http.command('DROP TABLE IF EXISTS http_blocked_loop')
      await http.command('CREATE TABLE http_blocked_loop (x UInt32) ENGINE = Memory')
      expect(await scalar(http, 'SELECT 1')).toBe(1)
      const until = Date.now() + 3600
      while (Date.now() < until) {
        // Busy: no timer and no I/O callback runs here.
      }
      await http.insert('http_blocked_loop', () => [{ rows: 2, columns: [[1, 2]] }])
      expect(await scalar(http, 'SELECT sum(x) FROM http_blocked_loop')).toBe(3n)
      expect(http.retries).toBe(0)
      await http.command('DROP TABLE http_blocked_loop')
    } finally {
      await http.close()
    }
  }, 20_000)

  describe('a socket reset when it is reused', () => {
    let proxy: StaleSocketProxy
    let http: ReturnType<typeof createHttpTransport>
    beforeAll(async () => {
      proxy = await startStaleSocketProxy(server.httpUrl)
      http = createHttpTransport({ url: proxy.url, maxConnections: 1 })
      await http.command('DROP TABLE IF EXISTS http_stale_insert')
      await http.command('CREATE TABLE http_stale_insert (x UInt32) ENGINE = Memory')
    })
    afterAll(async () => {
      await http.close()
      await proxy.close()
    })

    it('is retried once for a SELECT', async () => {
      expect(await scalar(http, 'SELECT 1')).toBe(1)
      const before = http.retries
      proxy.arm(1)
      expect(await scalar(http, 'SELECT 7')).toBe(7)
      expect(proxy.resets).toBe(1)
      expect(http.retries).toBe(before + 1)
    })

    it('is retried once for a ping, not twice', async () => {
      await http.ping()
      const before = http.retries
      proxy.arm(1)
      await http.ping()
      expect(http.retries).toBe(before + 1)
      proxy.arm(5)
      // The retry goes out on a fresh connection, which the proxy lets through.
      await http.ping()
      expect(http.retries).toBe(before + 2)
      proxy.arm(0)
    })

    it('is never retried for an insert whose rows went out', async () => {
      await http.insert('http_stale_insert', () => [{ rows: 2, columns: [[1, 2]] }])
      const before = http.retries
      const resets = proxy.resets
      // An insert first describes its table: that read meets the first reset and is sent
      // again (on a fresh connection, which the proxy lets through); the INSERT itself then
      // meets the second on that connection, reused. Its rows had left with its headers
      // (undici sends them with the first body chunk), so it is not sent again.
      proxy.arm(2)
      const error = await http
        .insert('http_stale_insert', () => [{ rows: 1, columns: [[3]] }])
        .catch((e: unknown) => e)
      expect(ConnectionError.isInstance(error), String(error)).toBe(true)
      expect(proxy.resets).toBe(resets + 2)
      expect(http.retries).toBe(before + 1)
      expect(await scalar(http, 'SELECT count() FROM http_stale_insert')).toBe(2n)
    })

    it('is never retried for a statement that writes', async () => {
      await http.ping()
      const before = http.retries
      proxy.arm(1)
      const error = await http
        .command('CREATE TABLE IF NOT EXISTS http_stale_x (x UInt8) ENGINE = Memory')
        .catch((e: unknown) => e)
      expect(ConnectionError.isInstance(error), String(error)).toBe(true)
      expect(http.retries).toBe(before)
    })
  })
})
