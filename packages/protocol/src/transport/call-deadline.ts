import { AbortError, TimeoutError } from '../errors/index.js'
import {
  type RequestKind,
  requestAbortError,
  requestClosedError,
  requestTimeoutError,
} from '../errors/request-errors.js'
import { listenForAbort } from './abort-listener.js'

/** The errors a call ends with when its time runs out, its signal fires or the transport closes. */
export interface DeadlineErrors {
  timeout(limitMs: number): Error
  abort(reason: unknown): Error
  closed(): Error
}

/**
 * The limits of one public call (query, insert, command, ping, serverInfo), taken when it
 * starts and shared by every wait on the way, on both transports: a free pooled connection,
 * connecting, a probe (HTTP's server and frames probes, DESCRIBE), sending, receiving. So
 * the call obeys its `timeoutMs` and its signal across all of them, and ends with its own
 * error (its query id in the words of request-errors.ts) whichever of them was running.
 */
export class CallDeadline {
  readonly #deadline: number | undefined

  constructor(
    /** The whole limit in ms from the start of the call; 0 for none. */
    readonly limitMs: number,
    /** The caller's signal. */
    readonly signal: AbortSignal | undefined,
    readonly errors: DeadlineErrors,
    /** Fires when the transport starts closing: waits end at once with `errors.closed()`. */
    readonly closing: AbortSignal | undefined,
    /** Milliseconds now; injectable for tests. */
    private readonly now: () => number = () => performance.now(),
    /**
     * When the call began (`performance.now()`), if before this deadline was made: the
     * limit counts from there, so steps taken before (a wait for the server's version, for
     * a cluster's discovery) leave the rest of the call only the time left.
     */
    startedAt?: number,
  ) {
    this.#deadline = limitMs > 0 ? (startedAt ?? now()) + limitMs : undefined
  }

  /** A query, command or insert: its errors name it and its query id. */
  static forRequest(
    kind: RequestKind,
    queryId: string,
    limitMs: number,
    signal: AbortSignal | undefined,
    closing: AbortSignal | undefined,
    startedAt?: number,
  ): CallDeadline {
    return new CallDeadline(
      limitMs,
      signal,
      {
        timeout: (limit) => requestTimeoutError(kind, queryId, limit),
        abort: (reason) => requestAbortError(kind, queryId, reason),
        closed: () => requestClosedError(kind, queryId),
      },
      closing,
      undefined,
      startedAt,
    )
  }

  /**
   * A call or step without a query id of its own (ping, serverInfo, connecting): its
   * TimeoutError names it (`timeout: what`), with `timeoutMessage` instead of the default
   * message when given.
   */
  static forCall(
    what: 'ping' | 'serverInfo' | 'connect',
    limitMs: number,
    signal: AbortSignal | undefined,
    closing: AbortSignal | undefined,
    timeoutMessage?: (limitMs: number) => string,
  ): CallDeadline {
    return new CallDeadline(
      limitMs,
      signal,
      {
        timeout: (limit) => new TimeoutError(what, limit, timeoutMessage?.(limit)),
        abort: (reason) => new AbortError(reason),
        closed: () => new AbortError(undefined, 'the client is closed'),
      },
      closing,
    )
  }

  /**
   * The transport's own background work (a probe, a KILL QUERY): no limit unless given;
   * `closing` undefined for work that outlives close() (a kill close() waits for).
   */
  static background(closing: AbortSignal | undefined, signal?: AbortSignal, limitMs = 0): CallDeadline {
    return new CallDeadline(
      limitMs,
      signal,
      {
        timeout: (limit) => new TimeoutError('request', limit),
        abort: (reason) => (reason instanceof Error ? reason : new AbortError(reason)),
        closed: () => new AbortError(undefined, 'the client is closed'),
      },
      closing,
    )
  }

  /** Milliseconds left, at least 1 while a limit is set; 0 when there is no limit. */
  remaining(): number {
    if (this.#deadline === undefined) return 0
    return Math.max(1, Math.ceil(this.#deadline - this.now()))
  }

  get expired(): boolean {
    return this.#deadline !== undefined && this.now() >= this.#deadline
  }

  timeoutError(): Error {
    return this.errors.timeout(this.limitMs)
  }

  abortError(): Error {
    return this.errors.abort(this.signal?.reason)
  }

  /** Throws the call's error when its signal fired, its time is up or the transport is closing. */
  check(): void {
    if (this.signal?.aborted) throw this.abortError()
    if (this.closing?.aborted) throw this.errors.closed()
    if (this.expired) throw this.timeoutError()
  }

  /**
   * `promise`, or this call's error as soon as its time runs out, its signal fires or the
   * transport closes. `stop` then runs, to end the work waited for when it is this call's
   * own (close the socket a Hello or Pong was awaited on); without it (work shared with
   * other calls, such as a probe) only this call stops waiting and the work goes on. A
   * rejection of `promise` after the wait ended is expected and dropped.
   */
  wait<T>(promise: Promise<T>, stop?: () => void): Promise<T> {
    try {
      this.check()
    } catch (error) {
      promise.catch(() => {})
      stop?.()
      return Promise.reject(error)
    }
    return new Promise<T>((resolve, reject) => {
      let ended = false
      const fail = (error: Error) => {
        end()
        stop?.()
        reject(error)
      }
      const unwatch = this.watch(fail)
      const stopListening = this.closing
        ? listenForAbort(this.closing, () => fail(this.errors.closed()))
        : undefined
      const end = () => {
        ended = true
        unwatch()
        stopListening?.()
      }
      promise.then(
        (value) => {
          if (ended) return
          end()
          resolve(value)
        },
        (error: unknown) => {
          if (ended) return
          end()
          reject(error)
        },
      )
    })
  }

  /**
   * Calls `onEnd` once with this call's error when its time runs out or its signal fires
   * (nothing for a signal that fired already), for work that runs on its own, such as a
   * request body or an insert streaming, rather than a promise to wait for. Returns the
   * function that stops watching: call it when the work settles. close() is left to the
   * transport, which waits for the work it stops (a KILL QUERY) before it resolves.
   */
  watch(onEnd: (error: Error) => void): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined
    let stopListening: (() => void) | undefined
    let watching = true
    const unwatch = () => {
      watching = false
      if (timer !== undefined) clearTimeout(timer)
      stopListening?.()
    }
    const end = (error: Error) => {
      if (!watching) return
      unwatch()
      onEnd(error)
    }
    if (this.signal) stopListening = listenForAbort(this.signal, () => end(this.abortError()))
    const left = this.remaining()
    if (left > 0) timer = setTimeout(() => end(this.timeoutError()), left)
    return unwatch
  }
}
