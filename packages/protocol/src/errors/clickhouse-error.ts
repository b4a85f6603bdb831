import { ClickwireError } from './clickwire-error.js'

const brand = Symbol.for('clickwire.error.clickhouse')

/** An exception the server reported, with ClickHouse's own code and name. */
export class ClickHouseError extends ClickwireError {
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

  constructor(
    fields: {
      code: number
      type: string
      message: string
      serverStackTrace?: string
      nested?: ClickHouseError | undefined
      queryId?: string | undefined
    },
    options?: { cause?: unknown },
  ) {
    super('CLICKHOUSE', fields.message, options)
    this.code = fields.code
    this.type = fields.type
    this.serverStackTrace = fields.serverStackTrace ?? ''
    this.nested = fields.nested
    this.queryId = fields.queryId
  }

  static override isInstance(value: unknown): value is ClickHouseError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }
}
