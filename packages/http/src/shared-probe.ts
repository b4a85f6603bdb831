import type { CallDeadline } from '@clickwire/protocol'
import { AbortError } from '@clickwire/protocol'

interface Run<T> {
  readonly promise: Promise<T>
  readonly controller: AbortController
  waiters: number
}

/**
 * Work many calls wait for and only one should do (asking the server its version, whether
 * compressed frames work, a result's column types): the first caller starts it, later ones
 * join, and each waits within its own deadline. A caller that gives up (its timeout, its
 * signal) stops only its own wait; the work is aborted once nobody waits for it any more,
 * so it never outlives every caller, and a later caller starts it afresh. A result is kept
 * for good; a failure is not.
 */
export class SharedProbe<T> {
  #value: { readonly value: T } | undefined
  #run: Run<T> | undefined

  constructor(
    /** Starts the work; it should stop when `signal` fires. */
    private readonly start: (signal: AbortSignal) => Promise<T>,
  ) {}

  /** The result, when the work has succeeded before. */
  get known(): T | undefined {
    return this.#value?.value
  }

  /** The result, waiting within `deadline` for the work (started now if nobody runs it). */
  async get(deadline: CallDeadline): Promise<T> {
    if (this.#value) return this.#value.value
    deadline.check()
    const run = this.#run ?? this.#begin()
    run.waiters++
    try {
      return await deadline.wait(run.promise)
    } finally {
      run.waiters--
      if (run.waiters === 0 && this.#run === run) {
        // Nobody waits any more: the work stops, and the next caller starts it again.
        this.#run = undefined
        run.controller.abort(new AbortError(undefined, 'no caller waits for the probe any more'))
      }
    }
  }

  #begin(): Run<T> {
    const controller = new AbortController()
    const run: Run<T> = { promise: this.start(controller.signal), controller, waiters: 0 }
    this.#run = run
    run.promise.then(
      (value) => {
        if (this.#run === run) this.#run = undefined
        this.#value ??= { value }
      },
      () => {
        if (this.#run === run) this.#run = undefined
      },
    )
    return run
  }
}
