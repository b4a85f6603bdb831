import { AbortError, TimeoutError } from '@clickwire/protocol'
import { describe, expect, it, vi } from 'vitest'
import { ConnectionPool, type Poolable } from './connection-pool.js'

class FakeConnection implements Poolable {
  static created = 0
  reusable = true
  lastUsed = 0
  pings = 0
  destroyed = false
  closed = false
  failPing = false
  draining = false
  readonly id = ++FakeConnection.created
  async ping() {
    this.pings++
    if (this.failPing) throw new Error('ping failed')
  }
  async close() {
    this.closed = true
  }
  destroy() {
    this.destroyed = true
  }
}

function pool(options: Partial<ConstructorParameters<typeof ConnectionPool<FakeConnection>>[0]> = {}) {
  const made: FakeConnection[] = []
  let now = 0
  const p = new ConnectionPool<FakeConnection>({
    maxConnections: 2,
    idleTimeoutMs: 60_000,
    pingAfterIdleMs: 1000,
    create: async () => {
      const connection = new FakeConnection()
      made.push(connection)
      return connection
    },
    now: () => now,
    ...options,
  })
  return { pool: p, made, advance: (ms: number) => (now += ms) }
}

describe('ConnectionPool', () => {
  it('keeps the connection opened for a waiter that left while it opened (no slot lost)', async () => {
    // One slot: Q1 holds it, Q2 waits with a signal. Q1's connection breaks, so the pool opens
    // a new one for Q2, which takes 60 ms; Q2 gives up after 10 ms.
    let opening: (() => void) | undefined
    const { pool: p, made } = pool({
      maxConnections: 1,
      create: async () => {
        if (made.length > 0) await new Promise<void>((resolve) => (opening = resolve))
        const connection = new FakeConnection()
        made.push(connection)
        return connection
      },
    })
    const first = await p.acquire()
    const controller = new AbortController()
    const waiting = p.acquire(controller.signal)
    p.discard(first)
    controller.abort()
    await expect(waiting).rejects.toThrow(AbortError)
    opening!()
    await vi.waitFor(() => expect(p.stats).toEqual({ open: 1, idle: 1, waiting: 0, created: 2 }))
    // The slot is the next caller's at once, not a TimeoutError after acquireTimeoutMs.
    expect(await p.acquire(undefined, 100)).toBe(made[1])
    p.release(made[1]!)
    await p.close()
    expect(made[1]!.closed).toBe(true)
  })

  it('reuses released connections and never opens more than the maximum', async () => {
    const { pool: p, made } = pool()
    const first = await p.acquire()
    const second = await p.acquire()
    const third = p.acquire()
    expect(p.stats).toEqual({ open: 2, idle: 0, waiting: 1, created: 2 })
    p.release(first)
    expect(await third).toBe(first)
    p.release(second)
    p.release(first)
    expect(made).toHaveLength(2)
    expect(p.stats).toEqual({ open: 2, idle: 2, waiting: 0, created: 2 })
  })

  it('pings a connection idle past the threshold and replaces it when the ping fails', async () => {
    const { pool: p, made, advance } = pool()
    const connection = await p.acquire()
    p.release(connection)
    advance(500)
    expect(await p.acquire()).toBe(connection)
    expect(connection.pings).toBe(0)
    p.release(connection)
    advance(1500)
    connection.failPing = true
    const replacement = await p.acquire()
    expect(connection.pings).toBe(1)
    expect(connection.destroyed).toBe(true)
    expect(replacement).not.toBe(connection)
    expect(made).toHaveLength(2)
    expect(p.stats.open).toBe(1)
  })

  it('destroys connections that are not reusable and lets a waiter open a new one', async () => {
    const { pool: p } = pool({ maxConnections: 1 })
    const broken = await p.acquire()
    const waiting = p.acquire()
    broken.reusable = false
    p.release(broken)
    expect(broken.destroyed).toBe(true)
    const fresh = await waiting
    expect(fresh).not.toBe(broken)
    expect(p.stats).toEqual({ open: 1, idle: 0, waiting: 0, created: 2 })
  })

  it('gives a waiter up on abort or timeout without leaking a slot', async () => {
    const { pool: p } = pool({ maxConnections: 1 })
    const held = await p.acquire()
    const controller = new AbortController()
    const aborted = p.acquire(controller.signal)
    controller.abort(new Error('stop'))
    await expect(aborted).rejects.toBeInstanceOf(AbortError)
    await expect(p.acquire(undefined, 20)).rejects.toBeInstanceOf(TimeoutError)
    expect(p.stats).toEqual({ open: 1, idle: 0, waiting: 0, created: 1 })
    p.release(held)
    expect(await p.acquire()).toBe(held)
  })

  it('does not count a connection whose creation failed', async () => {
    let fail = true
    const p = new ConnectionPool<FakeConnection>({
      maxConnections: 1,
      idleTimeoutMs: 0,
      pingAfterIdleMs: 1000,
      create: async () => {
        if (fail) throw new Error('refused')
        return new FakeConnection()
      },
    })
    await expect(p.acquire()).rejects.toThrow('refused')
    expect(p.stats.open).toBe(0)
    fail = false
    await expect(p.acquire()).resolves.toBeInstanceOf(FakeConnection)
  })

  it('closes idle connections after the idle timeout', async () => {
    const { pool: p, advance } = pool({ idleTimeoutMs: 300 })
    const connection = await p.acquire()
    p.release(connection)
    advance(1000)
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(connection.closed).toBe(true)
    expect(p.stats).toEqual({ open: 0, idle: 0, waiting: 0, created: 1 })
  })

  it('passes what is left of the request time to a new connection', async () => {
    const limits: number[] = []
    const { pool: p } = pool({
      create: async (_signal, timeoutMs) => {
        limits.push(timeoutMs)
        return new FakeConnection()
      },
    })
    await p.acquire(undefined, 800)
    await p.acquire()
    expect(limits).toEqual([800, 0])
  })

  it('destroys a lent connection that only drains a cancelled request when closed, counting it once', async () => {
    const { pool: p } = pool()
    const draining = await p.acquire()
    const working = await p.acquire()
    draining.draining = true
    // The destroyed connection's request ends and hands it back: close() waits for that,
    // and the connection is not counted twice.
    draining.destroy = () => {
      draining.destroyed = true
      draining.reusable = false
      queueMicrotask(() => p.release(draining))
    }
    await p.close()
    expect(draining.destroyed).toBe(true)
    expect(working.destroyed).toBe(false)
    expect(p.stats.open).toBe(1)
    p.release(working)
    expect(working.destroyed).toBe(true)
    expect(p.stats.open).toBe(0)
  })

  it('waits at most acquireTimeoutMs for a free connection, saying why a pool fills up', async () => {
    const { pool: p } = pool({ maxConnections: 1, acquireTimeoutMs: 30 })
    const held = await p.acquire()
    const started = Date.now()
    const error = await p.acquire().catch((caught: unknown) => caught)
    expect(Date.now() - started).toBeGreaterThanOrEqual(25)
    expect(TimeoutError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ timeout: 'acquire', timeoutMs: 30 })
    expect((error as Error).message).toBe(
      'no connection became free within 30 ms: all 1 connections of the pool (maxConnections) are in use. A query holds its connection until its result is read to the end or cancelled, so results left unread (Promise.all of more queries than maxConnections, each unconsumed) hold them all: read or cancel each result (await using does), or raise maxConnections or acquireTimeoutMs',
    )
    // The waiter is gone and the slot kept: the held connection serves the next request.
    expect(p.stats).toMatchObject({ open: 1, waiting: 0 })
    p.release(held)
    expect(await p.acquire()).toBe(held)
  })

  it('takes the shorter of the request time left and acquireTimeoutMs, and none when both are 0', async () => {
    const { pool: p } = pool({ maxConnections: 1, acquireTimeoutMs: 10_000 })
    const held = await p.acquire()
    await expect(p.acquire(undefined, 20)).rejects.toMatchObject({ timeout: 'acquire', timeoutMs: 20 })
    const { pool: unlimited } = pool({ maxConnections: 1, acquireTimeoutMs: 0 })
    const only = await unlimited.acquire()
    const waiting = unlimited.acquire()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(unlimited.stats.waiting).toBe(1)
    unlimited.release(only)
    expect(await waiting).toBe(only)
    p.release(held)
  })

  it('waits 30 s by default', async () => {
    const { pool: p } = pool({ maxConnections: 1 })
    await p.acquire()
    vi.useFakeTimers()
    try {
      const error = p.acquire().catch((caught: unknown) => caught)
      await vi.advanceTimersByTimeAsync(29_999)
      expect(p.stats.waiting).toBe(1)
      await vi.advanceTimersByTimeAsync(1)
      expect(await error).toMatchObject({ timeout: 'acquire', timeoutMs: 30_000 })
    } finally {
      vi.useRealTimers()
    }
  })
})
