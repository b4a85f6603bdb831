import { ClickwireError } from './clickwire-error.js'

const brand = Symbol.for('clickwire.error.usage')

/**
 * The caller asked for something that cannot work: a value that does not fit its column
 * type, an unknown option, a malformed type name. Nothing was sent to the server.
 */
export class UsageError extends ClickwireError {
  override name = 'UsageError'
  readonly [brand] = true

  constructor(message: string, options?: { cause?: unknown }) {
    super('USAGE', message, options)
  }

  static override isInstance(value: unknown): value is UsageError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }
}

/** A type name that does not parse; `position` is the 0-based offset of the problem. */
export class TypeParseError extends UsageError {
  override name = 'TypeParseError'
  readonly input: string
  readonly position: number

  constructor(input: string, position: number, expected: string) {
    const caret = `${' '.repeat(Math.min(position, input.length) + 2)}^`
    super(`cannot parse type name at position ${position}: ${expected}\n  ${input}\n${caret}`)
    this.input = input
    this.position = position
  }
}
