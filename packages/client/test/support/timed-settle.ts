/**
 * How long past its limit a call may settle in a test: generous, for a loaded machine (other
 * suites on the same cores) runs every timer, callback and teardown late, and no assertion
 * may need a quiet machine. A hang still fails; lower bounds stay exact, since a limit never
 * fires early however loaded the machine.
 */
export const loadSlackMs = 5_000

/** How a call settled, when, and how late the event loop ran meanwhile. */
export interface Settled {
  readonly error: Error | undefined
  /** Milliseconds from the call to its settling. */
  readonly elapsed: number
  /**
   * How late a plain timer of `limitMs`, started with the call, fired (0 when on time). On a
   * loaded machine the event loop runs late for every timer, and a deadline can be no more
   * punctual than a timer: bounds add this to their slack, so they check the client and not
   * the machine's load.
   */
  readonly lag: number
}

/** Runs `run`, and a control timer of `limitMs` beside it (see {@link Settled.lag}). */
export async function timedSettle(run: () => Promise<unknown>, limitMs: number): Promise<Settled> {
  const started = Date.now()
  const control = new Promise<number>((resolve) =>
    setTimeout(() => resolve(Date.now() - started - limitMs), limitMs),
  )
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught as Error,
  )
  const elapsed = Date.now() - started
  return { error, elapsed, lag: Math.max(0, await control) }
}
