import { ClickwireError, type InsertOutcome } from './clickwire-error.js'

const brand = Symbol.for('clickwire.error.abort')

/** The caller's AbortSignal fired. `reason` is the signal's reason. */
export class AbortError extends ClickwireError {
  override name = 'AbortError'
  readonly [brand] = true
  readonly reason: unknown

  constructor(
    reason?: unknown,
    message = 'the operation was aborted',
    options?: { insertOutcome?: InsertOutcome | undefined },
  ) {
    super('ABORT', message, { cause: reason, insertOutcome: options?.insertOutcome })
    this.reason = reason
  }

  static override isInstance(value: unknown): value is AbortError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }

  /** Throws an AbortError if `signal` has fired. */
  static throwIfAborted(signal: AbortSignal | undefined): void {
    if (signal?.aborted) throw new AbortError(signal.reason)
  }
}
