import { UsageError } from '../errors/usage-error.js'
import type { TypeNode } from '../types/type-node.js'
import type { ParameterValue } from './parameter-model.js'
import { toParameterValue } from './parameter-value.js'
import { type QueryPlaceholder, scanPlaceholders } from './placeholder-scanner.js'

/** Parameter values by placeholder name, as users pass them. */
export type QueryParameters = Readonly<Record<string, unknown>>

/** A placeholder with its checked value. */
export interface BoundPlaceholder {
  readonly name: string
  readonly type: TypeNode
  readonly start: number
  readonly end: number
  readonly value: ParameterValue
  /** See QueryPlaceholder.literalOnly. */
  readonly literalOnly?: boolean | undefined
}

/**
 * Pairs each placeholder of `sql` with its value from `params` and checks the value against the
 * declared type.
 *
 * - A placeholder without a value is a UsageError naming it. (Recent servers treat a missing
 *   Nullable parameter as NULL; older ones and the client-side path cannot, so clickwire asks
 *   for an explicit `null` everywhere.) An own property set to `undefined` counts as null.
 * - Values without a placeholder are ignored, as ClickHouse ignores them.
 * - A brace group whose type clickwire cannot read is left alone as SQL text, unless `params`
 *   has a value of that name: then the user meant a placeholder, and the error says why it
 *   could not be used.
 */
export function bindPlaceholders(
  sql: string,
  params: QueryParameters,
  placeholders: readonly QueryPlaceholder[] = scanPlaceholders(sql),
): BoundPlaceholder[] {
  const bound: BoundPlaceholder[] = []
  for (const placeholder of placeholders) {
    const { name, type, start, end } = placeholder
    const given = Object.hasOwn(params, name)
    if (type === undefined) {
      if (given && placeholder.typeError) throw placeholder.typeError
      continue
    }
    const label = `{${name}:${placeholder.typeText}}`
    if (!given) throw new UsageError(`no value for placeholder ${label} at offset ${start}`)
    const value = toParameterValue(type, params[name], { placeholder: label, path: '' })
    bound.push({ name, type, start, end, value, literalOnly: placeholder.literalOnly })
  }
  return bound
}

/**
 * Refuses a query whose `{name:Type}` placeholders have no values when no params are given
 * at all. Sent as it is, the server would answer with a SYNTAX_ERROR (or an "unknown query
 * parameter" error, depending on its version) that does not say which value is missing;
 * this names it, before anything is sent, the same on both transports.
 *
 * @throws {UsageError} naming the first placeholder, with its type.
 */
export function requirePlaceholderValues(sql: string): void {
  // Most statements without params have no brace at all: nothing to scan.
  if (sql.includes('{')) bindPlaceholders(sql, {})
}
