import { ClickwireError } from './clickwire-error.js'
import { errorCodeName } from './error-codes.js'
import { parseExceptionText } from './exception-text.js'

const brand = Symbol.for('clickwire.error.clickhouse')

/** An exception the server reported, with ClickHouse's own code and name. */
export class ClickHouseError extends ClickwireError {
  override name = 'ClickHouseError'
  readonly [brand] = true
  /** ClickHouse error code, e.g. 60 for UNKNOWN_TABLE. */
  readonly code: number
  /** ClickHouse's exception class name as sent, e.g. `DB::Exception`. */
  readonly type: string
  /** The server-side stack trace, when the server sent one. */
  readonly serverStackTrace: string
  /** The exception the server nested inside this one, if any. */
  readonly nested: ClickHouseError | undefined
  /** The query id the error belongs to, when known. */
  readonly queryId: string | undefined
  /** ClickHouse's upper-case name of the code, e.g. `UNKNOWN_TABLE`, when the server printed it or clickwire knows it. */
  readonly codeName: string | undefined

  constructor(
    fields: {
      code: number
      type: string
      message: string
      serverStackTrace?: string
      nested?: ClickHouseError | undefined
      queryId?: string | undefined
      codeName?: string | undefined
    },
    options?: { cause?: unknown },
  ) {
    super('CLICKHOUSE', fields.message, options)
    this.code = fields.code
    this.type = fields.type
    this.serverStackTrace = fields.serverStackTrace ?? ''
    this.nested = fields.nested
    this.queryId = fields.queryId
    this.codeName = fields.codeName ?? errorCodeName(fields.code)
  }

  /**
   * The error a server described in text (an HTTP error body, an `exception` column), or
   * undefined when `text` is not of the `Code: <number>` form; see {@link parseExceptionText}.
   */
  static fromText(text: string, queryId?: string): ClickHouseError | undefined {
    const parsed = parseExceptionText(text)
    if (!parsed) return undefined
    return new ClickHouseError({
      code: parsed.code,
      type: parsed.type,
      message: parsed.message,
      serverStackTrace: parsed.stackTrace,
      queryId,
      codeName: parsed.name,
    })
  }

  static override isInstance(value: unknown): value is ClickHouseError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }
}
