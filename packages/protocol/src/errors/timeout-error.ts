import { ClickwireError, type InsertOutcome } from './clickwire-error.js'

const brand = Symbol.for('clickwire.error.timeout')

/** A configured time limit ran out (`connect`, `query`, `idle`, `request`, ...). */
export class TimeoutError extends ClickwireError {
  override name = 'TimeoutError'
  readonly [brand] = true
  /** Which limit: `connect`, `query`, `request`, `idle`, `acquire`, ... */
  readonly timeout: string
  readonly timeoutMs: number

  constructor(
    timeout: string,
    timeoutMs: number,
    message?: string,
    options?: { cause?: unknown; insertOutcome?: InsertOutcome | undefined },
  ) {
    super('TIMEOUT', message ?? `${timeout} timeout of ${timeoutMs} ms exceeded`, options)
    this.timeout = timeout
    this.timeoutMs = timeoutMs
  }

  static override isInstance(value: unknown): value is TimeoutError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }
}
