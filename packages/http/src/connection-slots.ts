import { AbortError, acquireTimeoutError, CallDeadline } from '@clickwire/protocol'

/** One call waiting for a slot, in arrival order. */
interface Waiter {
  granted: boolean
  grant(): void
}

/**
 * The connections the calls of an HTTP transport hold, at most `maxConnections` at once: an
 * exchange takes a slot when it is sent and gives it back when it settles (its body read to
 * the end, cancelled or failed). Beyond that, calls wait here in arrival order for up to
 * `acquireTimeoutMs` (0: no limit), then fail with protocol's `acquireTimeoutError`, the
 * native pool's words. Without this queue a call beyond the limit would wait in the Agent's
 * (or the browser's) own queue forever while earlier results are left unread.
 *
 * A call takes its slots one after the other, never holding one while it waits for
 * another: an insert's DESCRIBE TABLE gives its slot back before the INSERT takes one, and
 * the server and frames probes run before their call's request. The requests a call makes
 * while its result holds a slot (a DESCRIBE for result metadata, the KILL QUERY of a
 * cancelled result) take none, and are read to their end at once: a DESCRIBE goes out on
 * sockets aside (http-agent-backend-node.ts), a KILL on the socket the request it stops gave up.
 */
export class ConnectionSlots {
  #busy = 0
  readonly #waiters: Waiter[] = []

  constructor(
    readonly maxConnections: number,
    /** Longest wait for a slot in ms; 0 for none. */
    readonly acquireTimeoutMs: number,
  ) {}

  /** Slots held now. */
  get busy(): number {
    return this.#busy
  }

  /** Calls waiting for a slot now. */
  get waiting(): number {
    return this.#waiters.length
  }

  /**
   * Takes a slot, waiting in turn while all are held; resolves with the function that gives
   * it back (once; later calls do nothing). The call's own deadline (its timeout, signal and
   * the transport closing) also ends the wait, with the call's usual error.
   */
  async acquire(deadline: CallDeadline): Promise<() => void> {
    deadline.check()
    if (this.#busy < this.maxConnections && this.#waiters.length === 0) {
      this.#busy++
      return this.#releaser()
    }
    let stopTimer: () => void = () => {}
    const waiter: Waiter = { granted: false, grant: () => {} }
    const granted = new Promise<void>((resolve, reject) => {
      waiter.grant = () => {
        waiter.granted = true
        stopTimer()
        resolve()
      }
      const limit = new CallDeadline(
        this.acquireTimeoutMs,
        undefined,
        {
          timeout: (limitMs) => acquireTimeoutError(limitMs, this.maxConnections),
          abort: (reason) => new AbortError(reason, 'waiting for a connection was aborted'),
          closed: () => new AbortError(undefined, 'the client is closed'),
        },
        undefined,
      )
      stopTimer = limit.watch((error) => {
        this.#remove(waiter)
        reject(error)
      })
    })
    this.#waiters.push(waiter)
    // The call's deadline ended the wait: leave the queue, or pass on a slot granted meanwhile.
    const leave = () => {
      stopTimer()
      if (waiter.granted) this.#release()
      else this.#remove(waiter)
    }
    await deadline.wait(granted, leave)
    return this.#releaser()
  }

  #releaser(): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      this.#release()
    }
  }

  #release(): void {
    this.#busy--
    while (this.#busy < this.maxConnections && this.#waiters.length > 0) {
      this.#busy++
      this.#waiters.shift()!.grant()
    }
  }

  #remove(waiter: Waiter): void {
    const index = this.#waiters.indexOf(waiter)
    if (index >= 0) this.#waiters.splice(index, 1)
  }
}
