import { ClickwireError, type InsertOutcome } from './clickwire-error.js'

const brand = Symbol.for('clickwire.error.connection')

/** The network failed: refused, reset, closed mid-stream, TLS rejected, DNS unknown. */
export class ConnectionError extends ClickwireError {
  override name = 'ConnectionError'
  readonly [brand] = true
  /** The system error code when there was one, e.g. `ECONNRESET`. */
  readonly code: string | undefined
  /** `host:port` the error happened on. */
  readonly address: string | undefined

  constructor(
    message: string,
    options?: {
      cause?: unknown
      code?: string | undefined
      address?: string | undefined
      insertOutcome?: InsertOutcome | undefined
    },
  ) {
    super('CONNECTION', message, options)
    this.code = options?.code ?? (options?.cause as { code?: string } | undefined)?.code
    this.address = options?.address
  }

  static override isInstance(value: unknown): value is ConnectionError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }
}
