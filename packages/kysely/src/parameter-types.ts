import { UsageError } from '@clickwire/client'
import { type ParameterTypeFeatures, typeToString } from '@clickwire/protocol'
import { commonParameterType, inferParameterType } from '@clickwire/protocol/params'

/**
 * The ClickHouse type a JS value is sent as, for a server with `features`: protocol's
 * inferParameterType, the table the client's `sql` template uses too (number -> Int64 or
 * Float64, string -> String, boolean -> Bool or UInt8, Date -> DateTime64(3, 'UTC') or
 * DateTime('UTC'), arrays -> Array(T), null -> Nullable(Nothing)).
 *
 * @throws {UsageError} when the value has no ClickHouse counterpart (wrap it with `typed`).
 */
export function inferredType(value: unknown, features: ParameterTypeFeatures): string {
  return typeToString(inferParameterType(value, features))
}

/** The one type all of `values` (a column of an INSERT's rows) are sent as. */
export function commonType(values: readonly unknown[], features: ParameterTypeFeatures): string {
  return typeToString(commonParameterType(values, features))
}

/**
 * The declared type of a typed value, checked to stay inside its placeholder: it goes
 * between `{p0:` and `}`, where braces, quotes of identifiers, statement ends and line
 * breaks have no business, and would let the text escape the placeholder.
 */
export function placeholderType(type: unknown): string {
  if (typeof type !== 'string' || type.trim() === '' || /[{};`\u0000-\u001f]/.test(type)) {
    throw new UsageError(`not a ClickHouse type for a parameter: ${JSON.stringify(type)}`)
  }
  return type
}
