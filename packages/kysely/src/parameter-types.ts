import { SqlFragment, UsageError } from '@clickwire/client'
import type { ParameterTypeFeatures } from './server-profile.js'

const valueTemplate = ['', ''] as const

/**
 * The ClickHouse type a JS value is sent as, for a server with `features`: exactly what the
 * client's `sql` template declares for an interpolated value (the protocol's
 * inferParameterType: number -> Int64 or Float64, string -> String, boolean -> Bool or UInt8,
 * Date -> DateTime64(3, 'UTC') or DateTime('UTC'), arrays -> Array(T), null -> Nullable(Nothing)).
 * Going through the template keeps one inference table for the whole project.
 *
 * @throws {UsageError} when the value has no ClickHouse counterpart (wrap it with `typed`).
 */
export function inferredType(value: unknown, features: ParameterTypeFeatures): string {
  const { query } = new SqlFragment(valueTemplate, [value as never]).compile(features)
  // The template compiles to exactly `{p0:<type>}`.
  return query.slice(4, -1)
}

const typedBrand = Symbol.for('clickwire.kysely.typed')

/** A value with the ClickHouse type it is sent as (see {@link typed}). */
export class TypedValue {
  readonly [typedBrand] = true

  constructor(
    readonly value: unknown,
    readonly type: string,
  ) {
    // The type goes between `{p0:` and `}`: braces, quotes of identifiers, statement ends and
    // line breaks have no business there, and would let the text escape the placeholder.
    if (typeof type !== 'string' || type.trim() === '' || /[{};`\u0000-\u001f]/.test(type)) {
      throw new UsageError(`not a ClickHouse type for a parameter: ${JSON.stringify(type)}`)
    }
  }

  static isInstance(value: unknown): value is TypedValue {
    return (
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[typedBrand] === true
    )
  }
}
