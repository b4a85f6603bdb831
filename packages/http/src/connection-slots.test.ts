import { AbortError, CallDeadline, TimeoutError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { uint8Body } from '../test/support/native-bodies.js'
import { ConnectionSlots } from './connection-slots.js'
import { type BackendRequest, type BackendResponse, type HttpBackend, headersFrom } from './http-backend.js'
import type { HttpTransportOptions } from './http-options.js'
import { HttpTransport } from './http-transport.js'

const closing = new AbortController().signal
const call = (limitMs = 0, signal?: AbortSignal) =>
  CallDeadline.forRequest('query', 'q', limitMs, signal, closing)
const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

const acquireMessage = (ms: number, max: number) =>
  `no connection became free within ${ms} ms: all ${max} connections of the pool (maxConnections) are in use. A query holds its connection until its result is read to the end or cancelled, so results left unread (Promise.all of more queries than maxConnections, each unconsumed) hold them all: read or cancel each result (await using does), or raise maxConnections or acquireTimeoutMs`

describe('ConnectionSlots', () => {
  it('grants free slots at once and the rest in arrival order as slots come back', async () => {
    const slots = new ConnectionSlots(2, 0)
    const first = await slots.acquire(call())
    const second = await slots.acquire(call())
    expect(slots.busy).toBe(2)
    const order: number[] = []
    const waits = [3, 4, 5].map((n) =>
      slots.acquire(call()).then((release) => {
        order.push(n)
        return release
      }),
    )
    await tick()
    expect(order).toEqual([])
    expect(slots.waiting).toBe(3)
    first()
    first() // a second release of the same slot does nothing
    await tick()
    expect(order).toEqual([3])
    expect(slots.busy).toBe(2)
    second()
    const third = await waits[0]!
    third()
    await Promise.all(waits)
    expect(order).toEqual([3, 4, 5])
    expect(slots.busy).toBe(2)
    expect(slots.waiting).toBe(0)
  })

  it('fails a wait longer than acquireTimeoutMs with the acquire TimeoutError, and leaves the queue', async () => {
    const slots = new ConnectionSlots(1, 40)
    const held = await slots.acquire(call())
    const started = performance.now()
    const error = await slots.acquire(call()).catch((e: unknown) => e)
    expect(performance.now() - started).toBeGreaterThanOrEqual(35)
    expect(TimeoutError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ timeout: 'acquire', timeoutMs: 40, message: acquireMessage(40, 1) })
    expect(slots.waiting).toBe(0)
    held()
    expect(slots.busy).toBe(0)
  })

  it("ends a wait with the call's own error when its signal fires or its time runs out first", async () => {
    const slots = new ConnectionSlots(1, 10_000)
    const held = await slots.acquire(call())
    const controller = new AbortController()
    const aborted = slots.acquire(call(0, controller.signal)).catch((e: unknown) => e)
    const timedOut = slots.acquire(call(30)).catch((e: unknown) => e)
    const later = slots.acquire(call())
    expect(slots.waiting).toBe(3)
    controller.abort('enough')
    expect(await aborted).toMatchObject({ name: 'AbortError', message: 'query q was aborted' })
    expect(slots.waiting).toBe(2)
    const timeout = await timedOut
    expect(timeout).toMatchObject({ name: 'TimeoutError', timeout: 'query', timeoutMs: 30 })
    expect(slots.waiting).toBe(1)
    // The waiters that left are skipped: the slot goes to the one still waiting.
    held()
    const release = await later
    expect(slots.busy).toBe(1)
    release()
    expect(slots.busy).toBe(0)
    // A signal that fired already never queues.
    await slots.acquire(call()).then((r) => r())
    const gone = new AbortController()
    gone.abort()
    expect(AbortError.isInstance(await slots.acquire(call(0, gone.signal)).catch((e: unknown) => e))).toBe(
      true,
    )
    expect(slots.waiting).toBe(0)
  })

  it('waits without a limit when acquireTimeoutMs is 0', async () => {
    const slots = new ConnectionSlots(1, 0)
    const held = await slots.acquire(call())
    let granted = false
    const waiting = slots.acquire(call()).then((release) => {
      granted = true
      return release
    })
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(granted).toBe(false)
    held()
    ;(await waiting)()
    expect(slots.busy).toBe(0)
  })
})

// Over a scripted backend: which exchanges hold a slot, and each way one gives it back.

const encoder = new TextEncoder()

/** A 200 answer whose body is `chunks`, then `end` (undefined: the end; an Error: a cut body). */
function answer(chunks: Uint8Array[], end?: Error): BackendResponse {
  const queue = [...chunks]
  return {
    status: 200,
    headers: headersFrom({}),
    body: {
      async read() {
        const next = queue.shift()
        if (next) return next
        if (end) throw end
        return undefined
      },
      cancel() {},
    },
  }
}

/** Answers the server probe, KILL QUERY, and every other request with `next()`. */
function backend(next: () => BackendResponse): HttpBackend & { sql: string[]; aside: string[] } {
  const sql: string[] = []
  const aside: string[] = []
  return {
    name: 'slots',
    sql,
    aside,
    async send(request: BackendRequest) {
      const text = typeof request.body === 'string' ? request.body : ''
      sql.push(text)
      if (request.aside) aside.push(text.split(' ')[0]!)
      if (text.includes('version()')) {
        return answer([encoder.encode('25.11.1.1\tUTC\t0\t54500\tClickHouse 25.11.1.1\n')])
      }
      if (text.startsWith('KILL QUERY')) return answer([])
      return next()
    },
    async close() {},
  }
}

function transport(http: HttpBackend, options: Partial<HttpTransportOptions> = {}) {
  return new HttpTransport({ url: 'http://ch.test:8123', ...options }, () => http, {
    loadCodecs: async () => ({}),
  })
}

async function drain(result: AsyncIterable<unknown>): Promise<number> {
  let blocks = 0
  for await (const _ of result) blocks++
  return blocks
}

describe('HttpTransport connection slots', () => {
  it('lets maxConnections results be held, fails the next after acquireTimeoutMs, and frees a slot on each settle path', async () => {
    const server = backend(() => answer([uint8Body(2)]))
    const http = transport(server, { maxConnections: 2, acquireTimeoutMs: 50 })
    const a = await http.query('SELECT a')
    const b = await http.query('SELECT b')
    const refused = await http.query('SELECT c').catch((e: unknown) => e)
    expect(refused).toMatchObject({
      name: 'TimeoutError',
      timeout: 'acquire',
      message: acquireMessage(50, 2),
    })
    expect(server.sql.filter((s) => s.startsWith('SELECT c'))).toEqual([])
    // Read to the end: the slot comes back.
    expect(await drain(a)).toBe(1)
    const c = await http.query('SELECT c')
    // Cancelled: its slot comes back, and its KILL QUERY needs none of its own.
    const started = performance.now()
    await c.cancel()
    // That its KILL QUERY went out is checked below; the bound only fails a hang, generously
    // (a loaded machine runs everything late).
    expect(performance.now() - started).toBeLessThan(5000)
    expect(server.sql.some((s) => s.startsWith('KILL QUERY'))).toBe(true)
    // Not even on a socket aside: the request it stops gives its own up.
    expect(server.aside).toEqual([])
    const d = await http.query('SELECT d')
    await d.cancel()
    await b.cancel()
    await http.close()
  })

  it('frees the slot of a result whose body breaks off, and of a request that failed', async () => {
    let failNext = false
    const server = backend(() => {
      if (failNext) {
        failNext = false
        throw new Error('refused')
      }
      return answer([uint8Body(2)], new Error('cut'))
    })
    const http = transport(server, { maxConnections: 1, acquireTimeoutMs: 50 })
    const broken = await http.query('SELECT a')
    await expect(drain(broken)).rejects.toThrow()
    failNext = true
    await expect(http.query('SELECT b')).rejects.toThrow(/refused/)
    // Both slots came back: a third query is served (and its body breaks off in turn).
    await expect(drain(await http.query('SELECT c'))).rejects.toThrow()
    await http.close()
  })

  it('ends waiting queries with the closed error when the transport closes', async () => {
    const http = transport(
      backend(() => answer([uint8Body(2)])),
      { maxConnections: 1, acquireTimeoutMs: 0 },
    )
    await http.query('SELECT a')
    const waiting = http.query('SELECT b').catch((e: unknown) => e)
    await tick()
    await http.close()
    expect(await waiting).toMatchObject({ name: 'AbortError' })
  })
})
