import {
  AbortError,
  errorCodeName,
  ClickHouseError as ServerError,
  TimeoutError,
  UsageError,
} from '@clickwire/protocol'

const brand = Symbol.for('clickwire.compat.clickhouse-error')

/**
 * A server error in @clickhouse/client's shape: `code` is the number as a string (`'60'`),
 * `type` the code's name (`'UNKNOWN_TABLE'`), `message` the server's text without its
 * `Code: 60. DB::Exception:` prefix. The clickwire error it came from is its `cause`
 * (with `queryId`, the server's stack trace, ...).
 *
 * @example
 * ```ts
 * import { ClickHouseError } from '@clickwire/client/compat'
 *
 * try { await ch.query({ query: 'SELECT * FROM missing' }) }
 * catch (e) { if (e instanceof ClickHouseError && e.type === 'UNKNOWN_TABLE') console.log(e.code) } // '60'
 * ```
 */
export class ClickHouseError extends Error {
  override name = 'ClickHouseError'
  readonly [brand] = true
  /** The ClickHouse error code, as a string of its number. */
  readonly code: string
  /** The code's upper-case name, e.g. `UNKNOWN_TABLE`, when known. */
  readonly type: string | undefined

  constructor(
    fields: { message: string; code: string; type: string | undefined },
    options?: { cause?: unknown },
  ) {
    super(fields.message, options)
    this.code = fields.code
    this.type = fields.type
  }

  /** True for a ClickHouseError of any copy of this package. */
  static isInstance(value: unknown): value is ClickHouseError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return ClickHouseError.isInstance(value)
  }
}

/** The server's message without `Code: N. DB::Exception: ` and the trailing `(NAME) (version ...)`. */
function serverMessage(message: string): string {
  return message
    .replace(/^Code: \d+[.,]\s*(e\.displayText\(\) = )?DB::Exception:\s*/, '')
    .replace(/,? e\.what\(\) = DB::Exception\s*$/, '')
    .replace(/\s*\(version [^)]*\)\s*$/, '')
    .replace(/\s*\([A-Z][A-Z0-9_]+\)\s*$/, '')
}

/**
 * Our error as @clickhouse/client users catch it: a server error becomes a compat
 * ClickHouseError; an abort and a timeout get its messages ("The user aborted a request.",
 * "Timeout error."), ours kept as `cause`; anything else is thrown as it is.
 */
export function compatError(error: unknown): unknown {
  if (ServerError.isInstance(error)) {
    return new ClickHouseError(
      {
        message: serverMessage(error.message),
        code: String(error.code),
        type: error.codeName ?? errorCodeName(error.code),
      },
      { cause: error },
    )
  }
  if (AbortError.isInstance(error)) {
    const wrapped = new Error(`The user aborted a request. (${error.message})`, { cause: error })
    wrapped.name = 'AbortError'
    return wrapped
  }
  if (TimeoutError.isInstance(error)) {
    const wrapped = new Error(`Timeout error. (${error.message})`, { cause: error })
    wrapped.name = 'TimeoutError'
    return wrapped
  }
  const missing = UsageError.isInstance(error) ? missingPlaceholder.exec(error.message) : null
  if (missing) {
    // The client checks placeholders before sending (the same on both transports and on
    // servers that cannot bind parameters); a @clickhouse/client user catches the server's
    // UNKNOWN_QUERY_PARAMETER for it, so it gets that code, with the text servers write.
    return new ClickHouseError(
      { message: `Substitution \`${missing[1]}\` is not set`, code: '456', type: 'UNKNOWN_QUERY_PARAMETER' },
      { cause: error },
    )
  }
  return error
}

/** The UsageError of a `{name:Type}` without a value (from @clickwire/protocol's parameter binding). */
const missingPlaceholder = /^no value for placeholder \{([^:}]+):/

/** Runs `work`, rethrowing its failure as {@link compatError}. */
export async function compatCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw compatError(error)
  }
}
