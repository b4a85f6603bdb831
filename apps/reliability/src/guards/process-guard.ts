/**
 * Records every `unhandledRejection` and `uncaughtException` the process sees while a
 * suite runs, so a test can assert that none fired. Vitest reports them too, but only
 * after the fact and without telling which test caused them; this makes "no unhandled
 * rejection" an assertion of the test that provoked the fault.
 */
export interface ProcessGuard {
  /** What fired so far, as text (error name and message). */
  readonly events: readonly string[]
  /** Forgets what fired so far. */
  clear(): void
  /** Removes the listeners. */
  dispose(): void
}

/**
 * Installs the listeners.
 *
 * @example
 * ```ts
 * const guard = installProcessGuard()
 * afterAll(() => guard.dispose())
 * it('...', async () => { ...; expect(guard.events).toEqual([]) })
 * ```
 */
export function installProcessGuard(): ProcessGuard {
  const events: string[] = []
  const describe = (kind: string, reason: unknown) => {
    const error = reason as Error | undefined
    events.push(`${kind}: ${error?.name ?? typeof reason}: ${error?.message ?? String(reason)}`)
  }
  const onRejection = (reason: unknown) => describe('unhandledRejection', reason)
  const onException = (error: unknown) => describe('uncaughtException', error)
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  return {
    events,
    clear: () => {
      events.length = 0
    },
    dispose: () => {
      process.off('unhandledRejection', onRejection)
      process.off('uncaughtException', onException)
    },
  }
}
