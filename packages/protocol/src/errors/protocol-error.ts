import { ClickwireError } from './clickwire-error.js'

const brand = Symbol.for('clickwire.error.protocol')

/**
 * Bytes that do not follow the protocol: malformed, truncated or unexpected input. The
 * message names where decoding failed (packet, column, field). A connection that raised
 * one is never reused.
 */
export class ProtocolError extends ClickwireError {
  override name = 'ProtocolError'
  readonly [brand] = true
  /** Where in the input it failed, e.g. `Data packet > column [3] "x" Array(String) > offsets`. */
  readonly path: string

  constructor(message: string, options?: { cause?: unknown; path?: string }) {
    super('PROTOCOL', options?.path ? `${message} (at ${options.path})` : message, options)
    this.path = options?.path ?? ''
  }

  static override isInstance(value: unknown): value is ProtocolError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }
}
