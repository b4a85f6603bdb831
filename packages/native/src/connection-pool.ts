import { AbortError, acquireTimeoutError, CallDeadline, defaultAcquireTimeoutMs } from '@clickwire/protocol'

/** What the pool needs from a connection. */
export interface Poolable {
  /** False once the connection must not be reused (broken, mid-query, closed by the server). */
  readonly reusable: boolean
  /** When it was last handed back. */
  lastUsed: number
  /**
   * True while the connection only winds down a request nobody waits for any more (the
   * drain after a cancel or timeout): closing the pool destroys it at once instead of
   * waiting for a server that may have gone silent.
   */
  readonly draining?: boolean
  ping(signal?: AbortSignal): Promise<void>
  close(): Promise<void>
  destroy(): void
}

export interface PoolOptions<C> {
  readonly maxConnections: number
  readonly idleTimeoutMs: number
  readonly pingAfterIdleMs: number
  /**
   * Longest wait for a free connection when all `maxConnections` are lent out (0: none;
   * default {@link defaultAcquireTimeoutMs}); a request's own shorter time limit wins.
   */
  readonly acquireTimeoutMs?: number | undefined
  /** Opens a connection; `timeoutMs` (0 for none) is what is left of the request's time limit. */
  readonly create: (signal: AbortSignal | undefined, timeoutMs: number) => Promise<C>
  readonly now?: () => number
}

interface Waiter<C> {
  /** Hands the waiter a connection; false when it has left already (timeout, abort), so the connection is not its. */
  resolve(connection: C): boolean
  reject(error: unknown): void
}

/**
 * Connections to reuse, at most `maxConnections` open. Idle ones are closed after
 * `idleTimeoutMs`; one idle longer than `pingAfterIdleMs` is pinged before reuse, and
 * replaced if the ping fails. Every path that gives up a connection (error, abort,
 * timeout) either returns it or destroys it, so the count never leaks. A request that
 * finds them all lent out waits at most `acquireTimeoutMs` (30 s by default), then fails
 * with a TimeoutError that says why a pool fills up (unread results hold connections).
 */
export class ConnectionPool<C extends Poolable> {
  private readonly idle: C[] = []
  /** Every connection counted in {@link count} once opened: idle or lent out. */
  private readonly owned = new Set<C>()
  /** Connections destroyed by {@link close} whose request has not handed them back yet. */
  private readonly returned = new Map<C, () => void>()
  private readonly waiters: Waiter<C>[] = []
  /** Open connections plus ones being created. */
  private count = 0
  private created = 0
  private closed = false
  private sweeper: ReturnType<typeof setInterval> | undefined
  private readonly now: () => number

  constructor(private readonly options: PoolOptions<C>) {
    this.now = options.now ?? Date.now
  }

  /** Connections open (or being opened), idle in the pool, requests waiting, and connections opened in total. */
  get stats(): { open: number; idle: number; waiting: number; created: number } {
    return { open: this.count, idle: this.idle.length, waiting: this.waiters.length, created: this.created }
  }

  /** A connection for one request; give it back with {@link release}. */
  async acquire(signal?: AbortSignal, timeoutMs = 0): Promise<C> {
    AbortError.throwIfAborted(signal)
    if (this.closed) throw new AbortError(undefined, 'the client is closed')
    for (;;) {
      const connection = this.idle.pop()
      if (connection === undefined) break
      if (!connection.reusable) {
        this.discard(connection)
        continue
      }
      if (this.now() - connection.lastUsed > this.options.pingAfterIdleMs) {
        try {
          await connection.ping(signal)
        } catch (error) {
          this.discard(connection)
          if (AbortError.isInstance(error)) throw error
          continue
        }
      }
      return connection
    }
    if (this.count < this.options.maxConnections) return this.create(signal, timeoutMs)
    return this.wait(signal, timeoutMs)
  }

  /** Hands a connection back: kept for reuse when healthy, destroyed otherwise. */
  release(connection: C): void {
    const returned = this.returned.get(connection)
    if (returned) {
      this.returned.delete(connection)
      returned()
    }
    if (this.closed || !connection.reusable) {
      this.discard(connection)
      return
    }
    connection.lastUsed = this.now()
    for (let waiter = this.waiters.shift(); waiter; waiter = this.waiters.shift())
      if (waiter.resolve(connection)) return
    this.idle.push(connection)
    this.startSweeper()
  }

  /** Destroys a connection that must not be reused, and lets a waiter open a new one. */
  discard(connection: C): void {
    const index = this.idle.indexOf(connection)
    if (index >= 0) this.idle.splice(index, 1)
    // Destroying a draining connection ends its request, which releases it again: a
    // connection no longer owned was already destroyed or closed, and is counted once.
    if (!this.owned.delete(connection)) return
    connection.destroy()
    this.count--
    this.serveWaiter()
  }

  /**
   * Closes idle connections and rejects waiters. A connection lent to a request closes when
   * that request releases it, except one only draining a cancelled or timed-out request,
   * which is destroyed now.
   */
  async close(): Promise<void> {
    this.closed = true
    if (this.sweeper) clearInterval(this.sweeper)
    for (const waiter of this.waiters.splice(0))
      waiter.reject(new AbortError(undefined, 'the client is closed'))
    const idle = this.idle.splice(0)
    for (const connection of idle) this.owned.delete(connection)
    this.count -= idle.length
    // A destroyed connection's request ends a few ticks later (its read fails, its timers are
    // cleared); wait for that, so nothing of it outlives close().
    const ended: Promise<void>[] = []
    for (const connection of [...this.owned]) {
      if (!connection.draining) continue
      ended.push(new Promise((resolve) => this.returned.set(connection, resolve)))
      this.discard(connection)
    }
    await Promise.all([
      ...idle.map((connection) => connection.close().catch(() => connection.destroy())),
      withinMs(Promise.all(ended), 1000),
    ])
  }

  private async create(signal: AbortSignal | undefined, timeoutMs = 0): Promise<C> {
    this.count++
    try {
      const connection = await this.options.create(signal, timeoutMs)
      this.created++
      connection.lastUsed = this.now()
      this.owned.add(connection)
      return connection
    } catch (error) {
      this.count--
      this.serveWaiter()
      throw error
    }
  }

  private serveWaiter(): void {
    if (this.closed || this.waiters.length === 0 || this.count >= this.options.maxConnections) return
    const waiter = this.waiters.shift()!
    // The waiter may leave while the connection opens: then it is the pool's, for the next
    // waiter or as idle, instead of a slot that nobody holds and close() never closes.
    this.create(undefined).then((connection) => {
      if (!waiter.resolve(connection)) this.release(connection)
    }, waiter.reject)
  }

  private wait(signal: AbortSignal | undefined, timeoutMs: number): Promise<C> {
    return new Promise<C>((resolve, reject) => {
      let settled = false
      const waiter: Waiter<C> = {
        resolve: (connection) => {
          if (settled) return false
          settled = true
          cleanup()
          resolve(connection)
          return true
        },
        reject: (error) => {
          if (settled) return
          settled = true
          cleanup()
          reject(error)
        },
      }
      const leave = (error: unknown) => {
        const index = this.waiters.indexOf(waiter)
        if (index >= 0) this.waiters.splice(index, 1)
        waiter.reject(error)
      }
      const acquireLimit = this.options.acquireTimeoutMs ?? defaultAcquireTimeoutMs
      // The request's remaining time or the pool's own limit, whichever is shorter (0: none).
      const limit =
        timeoutMs > 0 && acquireLimit > 0 ? Math.min(timeoutMs, acquireLimit) : timeoutMs || acquireLimit
      // close() rejects the waiters itself, with the pool's own words.
      const deadline = new CallDeadline(
        limit,
        signal,
        {
          timeout: (limitMs) => acquireTimeoutError(limitMs, this.options.maxConnections),
          abort: (reason) => new AbortError(reason, 'waiting for a connection was aborted'),
          closed: () => new AbortError(undefined, 'the client is closed'),
        },
        undefined,
      )
      const cleanup = deadline.watch(leave)
      this.waiters.push(waiter)
    })
  }

  private startSweeper(): void {
    if (this.sweeper || this.options.idleTimeoutMs <= 0) return
    const interval = Math.max(250, Math.min(this.options.idleTimeoutMs / 2, 10_000))
    this.sweeper = setInterval(() => {
      const limit = this.now() - this.options.idleTimeoutMs
      for (const connection of [...this.idle]) {
        if (connection.lastUsed <= limit) {
          this.idle.splice(this.idle.indexOf(connection), 1)
          this.owned.delete(connection)
          this.count--
          connection.close().catch(() => connection.destroy())
        }
      }
      if (this.idle.length === 0 && this.sweeper) {
        clearInterval(this.sweeper)
        this.sweeper = undefined
      }
    }, interval)
    this.sweeper.unref?.()
  }
}

/** Waits for `promise`, at most `ms`. */
async function withinMs(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))])
  clearTimeout(timer)
}
