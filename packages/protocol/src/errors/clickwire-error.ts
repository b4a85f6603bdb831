const brand = Symbol.for('clickwire.error')

/**
 * What is known about the rows of an insert that failed without the server's answer:
 *
 * - `not-written`: the connection broke (or the deadline or abort hit) before all of the
 *   insert's data was sent, and what was sent is below the squashing thresholds
 *   (`min_insert_block_size_rows` / `_bytes`), so the server stored none of it.
 * - `incomplete`: it broke before all of the data was sent; blocks sent before the break
 *   may be stored (squashing was off, or they were big enough), never part of a block.
 * - `unknown`: all of the data (and the end marker) was sent, but the server's confirmation
 *   never arrived: the insert may have been written. Retrying it may duplicate it.
 */
export type InsertOutcome = 'not-written' | 'incomplete' | 'unknown'

/**
 * Base class of every error clickwire throws. Check with `ClickwireError.isInstance(e)`
 * rather than `instanceof`: the brand is a registered symbol, so the check also holds
 * when two copies of the package are installed side by side.
 *
 * Messages never contain secrets; {@link redactSecrets} is applied to every message.
 */
export class ClickwireError extends Error {
  // Each class names itself with a literal: bundlers rename classes (`_ClickHouseError`,
  // or one letter once minified), so `new.target.name` would not survive a build.
  override name = 'ClickwireError'
  readonly [brand] = true
  /** A stable machine-readable kind: `CLICKHOUSE`, `PROTOCOL`, `CONNECTION`, `TIMEOUT`, `ABORT`, ... */
  readonly kind: string
  /**
   * Set on a connection failure, timeout or abort of an insert: whether its rows can have
   * been written (see {@link InsertOutcome}). Undefined on every other error.
   */
  readonly insertOutcome: InsertOutcome | undefined

  constructor(
    kind: string,
    message: string,
    options?: { cause?: unknown; insertOutcome?: InsertOutcome | undefined },
  ) {
    super(redactSecrets(message), options?.cause === undefined ? undefined : { cause: options.cause })
    this.kind = kind
    this.insertOutcome = options?.insertOutcome
  }

  /** True for any clickwire error, from any copy of the package. */
  static isInstance(value: unknown): value is ClickwireError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }
}

const registeredSecrets = new Set<string>()

/**
 * Registers a secret (a password or token) so that it is masked in every error message
 * clickwire builds from then on, whatever path the text took (a server echo, a URL, a
 * socket error). Secrets shorter than 4 characters are not registered: masking them
 * would garble ordinary text.
 */
export function registerSecret(secret: string | undefined): void {
  if (secret && secret.length >= 4) registeredSecrets.add(secret)
}

/** Masks registered secrets and the password part of URLs in `text`. */
export function redactSecrets(text: string): string {
  let result = text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^:/?#\s@]*:)([^@/\s]*)@/gi, '$1***@')
  result = result.replace(/([?&](?:password|token|access_token)=)[^&#\s]*/gi, '$1***')
  for (const secret of registeredSecrets) {
    if (result.includes(secret)) result = result.split(secret).join('***')
    const encoded = encodeURIComponent(secret)
    if (encoded !== secret && result.includes(encoded)) result = result.split(encoded).join('***')
  }
  return result
}
