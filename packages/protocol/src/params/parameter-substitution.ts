import { UsageError } from '../errors/usage-error.js'
import { type TypeNode, typeArguments, typeToString } from '../types/type-node.js'
import { bindPlaceholders, type QueryParameters } from './parameter-binding.js'
import type { ParameterValue, ScalarParameter } from './parameter-model.js'
import { canonicalParameterType } from './parameter-type-names.js'
import { nestedElementType, toParameterValue } from './parameter-value.js'
import { utf8Length } from './text-parameters.js'

/*
 * Client-side substitution, for servers that cannot take parameters (HTTP before `param_`,
 * native protocol before revision 54459). Each placeholder becomes an expression of exactly
 * the declared type, evaluating to exactly the value the server-side path would give, the way
 * ReplaceQueryParameterVisitor itself turns a parameter into `CAST(literal, 'Type')`:
 *
 * - String: a plain string literal (no CAST, as the server does);
 * - other scalars: `CAST('text' AS Type)` where CAST reads the text exactly, a CAST of a numeric
 *   literal for floats, `toDateTime('text', 'tz')` / `toDateTime64(...)` for date-times (see
 *   numeric-parameters.ts and time-parameters.ts for why);
 * - NULL: `CAST(NULL AS Nullable(T))`;
 * - Array, Tuple, Map: `CAST([..] AS Array(T))`, `CAST(tuple(..) AS Tuple(..))`,
 *   `CAST(map(..) AS Map(K, V))` around typed elements, so empty and nested values keep the
 *   declared type too;
 * - Identifier: a backquoted name.
 *
 * Types are printed canonically (`{x:INT}` becomes `Int32`), which old servers also know.
 * The rewrite is one pass over the original text: a value that looks like a placeholder is
 * never substituted again. Column names of unaliased parameter expressions differ between
 * the two paths (and between server versions); give such columns an alias.
 */

function castTo(sql: string, type: string): string {
  return `CAST(${sql} AS ${type})`
}

function wrapped(type: TypeNode): TypeNode | undefined {
  return type.name === 'Nullable' || type.name === 'LowCardinality' ? typeArguments(type)[0] : undefined
}

/** The SQL expression of `value` as type `type`. */
function literal(type: TypeNode, value: ParameterValue): string {
  const typeText = typeToString(type)
  switch (value.kind) {
    case 'null':
      return castTo('NULL', typeText)
    case 'scalar':
      return value.sqlType === typeText ? value.sql : castTo(value.sql, typeText)
  }
  const inner = wrapped(type)
  if (inner) return castTo(literal(inner, value), typeText)
  if (value.kind === 'array') {
    const element = type.name === 'Nested' ? nestedElementType(type) : typeArguments(type)[0]!
    // Long IN lists stay compact: an array of strings casts element by element, exactly as
    // each string would (checked on 18.16), so `CAST(['1', '2'] AS Array(UInt64))` suffices.
    const compact =
      !wrapped(element) && value.items.every((item) => item.kind === 'scalar' && item.sqlType === 'String')
    const items = value.items.map((item) =>
      compact ? (item as ScalarParameter).sql : literal(element, item),
    )
    return castTo(`[${items.join(', ')}]`, typeText)
  }
  const types = typeArguments(type)
  if (value.kind === 'tuple') {
    return castTo(`tuple(${value.items.map((item, i) => literal(types[i]!, item)).join(', ')})`, typeText)
  }
  const parts = value.items.map((item, i) => literal(types[i % 2]!, item))
  return castTo(`map(${parts.join(', ')})`, typeText)
}

/**
 * The SQL that stands for a JS value as a parameter of `type`, for client-side substitution.
 *
 * @example
 * ```ts
 * parameterLiteral(parseType('Date'), '2017-01-04')          // "CAST('2017-01-04' AS Date)"
 * parameterLiteral(parseType('Array(UInt64)'), [1n, 2n])     // "CAST(['1', '2'] AS Array(UInt64))"
 * ```
 */
export function parameterLiteral(type: TypeNode, value: unknown, name = 'value'): string {
  const canonical = canonicalParameterType(type)
  return literal(canonical, toParameterValue(canonical, value, { placeholder: `{${name}}`, path: '' }))
}

/** Characters that would fuse with a substituted expression into one token. */
const fusing = /[0-9A-Za-z_$'"`]/

/**
 * Replaces every `{name:Type}` placeholder of `sql` with a SQL expression of the declared type
 * holding the value from `params`, for servers that cannot take query parameters. The result
 * gives the same values and types as sending `params` as server-side parameters.
 *
 * @throws {UsageError} for a placeholder without a value, or a value that does not fit its type.
 * @example
 * ```ts
 * substituteParameters('SELECT * FROM t WHERE d < {d:Date}', { d: '2017-01-04' })
 * // "SELECT * FROM t WHERE d < CAST('2017-01-04' AS Date)"
 * ```
 */
export function substituteParameters(
  sql: string,
  params: QueryParameters,
  /** The server's `max_query_size` in bytes (default: ClickHouse's, 262144). */
  maxQuerySize = defaultMaxQuerySize,
): string {
  const bound = bindPlaceholders(sql, params)
  if (bound.length === 0) return sql
  let out = ''
  let last = 0
  for (const placeholder of bound) {
    const expression =
      placeholder.literalOnly && placeholder.value.kind === 'scalar' && /^-?\d+$/.test(placeholder.value.text)
        ? placeholder.value.text
        : literal(placeholder.type, placeholder.value)
    out += sql.slice(last, placeholder.start)
    if (fusing.test(out[out.length - 1] ?? '')) out += ' '
    out += expression
    if (fusing.test(sql[placeholder.end] ?? '')) out += ' '
    last = placeholder.end
  }
  out += sql.slice(last)
  // Past max_query_size the server fails with a syntax error that quotes the text, values
  // included: refuse before sending, saying why, and quoting none of it.
  const size = utf8Length(out)
  if (size > maxQuerySize) {
    throw new UsageError(
      `the query is ${size} bytes once its {name:Type} parameters are written into its text (this server takes no server-side parameters), past max_query_size = ${maxQuerySize}: raise max_query_size in the settings, or send large values as an external table or through insert()`,
    )
  }
  return out
}

/** ClickHouse's default `max_query_size`, the same in 18.16 and 26.x. */
export const defaultMaxQuerySize = 262_144

/**
 * The `max_query_size` the given settings ask for (later ones win), else the default: the
 * limit a client-side substitution must stay within.
 */
export function maxQuerySizeOf(
  ...settings: readonly (Readonly<Record<string, unknown>> | undefined)[]
): number {
  let limit = defaultMaxQuerySize
  for (const each of settings) {
    const value = each?.max_query_size
    if (value === undefined || value === null) continue
    const number = Number(value)
    if (Number.isFinite(number) && number > 0) limit = number
  }
  return limit
}
