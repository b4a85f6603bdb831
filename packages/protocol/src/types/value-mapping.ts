import { UsageError } from '../errors/usage-error.js'

/**
 * How ClickHouse values become JS values. The same options, with the same names and
 * defaults, are taken by every clickwire package (decoders, client, codegen, kysely).
 *
 * The defaults are exact: nothing is rounded, truncated or shifted in time.
 */
export interface ValueMapping {
  /**
   * Integers of 64 bits and wider (Int64, UInt64, Int128, UInt128, Int256, UInt256) and
   * Interval* values.
   * - `bigint` (default): exact.
   * - `number`: a JS number; values past 2^53 lose precision.
   * - `string`: decimal text, exact.
   */
  readonly int64: 'bigint' | 'number' | 'string'
  /**
   * Date, Date32, DateTime, DateTime64.
   * - `string` (default): ClickHouse's own text, exact and in the column's time zone:
   *   `2017-01-04`, `2017-01-04 10:20:30`, `2017-01-04 10:20:30.123456789`.
   * - `date`: a JS `Date` (the instant; Date and Date32 at UTC midnight). DateTime64
   *   beyond millisecond precision is truncated to milliseconds.
   */
  readonly dates: 'string' | 'date'
  /**
   * Decimal(P, S) of every width.
   * - `string` (default): exact decimal text with S fraction digits, e.g. `-12.50`.
   * - `number`: a JS number; may round.
   */
  readonly decimal: 'string' | 'number'
}

/** The defaults: every value exact. */
export const defaultValueMapping: ValueMapping = Object.freeze({
  int64: 'bigint',
  dates: 'string',
  decimal: 'string',
})

/** Fills in defaults and checks option values. */
export function resolveValueMapping(options: Partial<ValueMapping> | undefined): ValueMapping {
  const given = Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined))
  const mapping = { ...defaultValueMapping, ...given } as ValueMapping
  if (!['bigint', 'number', 'string'].includes(mapping.int64))
    throw new UsageError(`int64 must be bigint, number or string`)
  if (!['string', 'date'].includes(mapping.dates)) throw new UsageError(`dates must be string or date`)
  if (!['string', 'number'].includes(mapping.decimal))
    throw new UsageError(`decimal must be string or number`)
  return Object.freeze(mapping)
}
