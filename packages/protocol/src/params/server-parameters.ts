import { UsageError } from '../errors/usage-error.js'
import { escapeSqlText, quoteSqlString } from '../sql/sql-quoting.js'
import type { TypeNode } from '../types/type-node.js'
import { type BoundPlaceholder, bindPlaceholders, type QueryParameters } from './parameter-binding.js'
import type { ParameterValue } from './parameter-model.js'
import { canonicalParameterType } from './parameter-type-names.js'
import { toParameterValue } from './parameter-value.js'

/*
 * Server-side parameters. The server keeps the SQL as written and replaces each placeholder
 * itself (src/Interpreters/ReplaceQueryParameterVisitor.cpp): it reads the parameter's text
 * with the declared type's *escaped* text reader (`deserializeTextEscaped`, the TSV field
 * reader), insists that the whole text is consumed, and puts the value in as a typed literal
 * (`CAST(value, 'Type')`; a String stays a plain literal). So the text is:
 *
 * - a top-level scalar: its text with TSV escapes (`\\`, `\t`, `\n`, ...), unquoted, even
 *   for strings; NULL is `\N`;
 * - an Array/Tuple/Map: `[..]`, `(..)`, `{k:v}` with elements in the quoted text form
 *   ('strings' and 'dates' quoted with backslash escapes, numbers and booleans bare, NULL);
 * - an `Identifier`: the name itself, which the server never unescapes.
 *
 * The same text goes everywhere: HTTP `param_<name>=<text>` (the handler stores the decoded
 * URL value as is), `SET param_<name> = '<text>'`, and the native Query packet.
 */

/** The text of a value inside a composite (the quoted text form). */
function nestedText(value: ParameterValue): string {
  switch (value.kind) {
    case 'null':
      return 'NULL'
    case 'scalar':
      return value.quoted ? quoteSqlString(value.text, { binary: value.binary }) : value.text
    case 'array':
      return `[${value.items.map(nestedText).join(',')}]`
    case 'tuple':
      return `(${value.items.map(nestedText).join(',')})`
    case 'map': {
      const pairs: string[] = []
      for (let i = 0; i < value.items.length; i += 2) {
        pairs.push(`${nestedText(value.items[i]!)}:${nestedText(value.items[i + 1]!)}`)
      }
      return `{${pairs.join(',')}}`
    }
  }
}

/** The text of a whole parameter value, as the server's escaped reader expects it. */
export function parameterValueText(value: ParameterValue): string {
  if (value.kind === 'null') return '\\N'
  if (value.kind !== 'scalar') return nestedText(value)
  return value.identifier ? value.text : escapeSqlText(value.text, value.binary)
}

/**
 * The text a server-side parameter of `type` carries for a JS value.
 *
 * @example
 * ```ts
 * parameterText(parseType('Array(String)'), ["it's", 'a\tb']) // "['it\\'s','a\\tb']"
 * parameterText(parseType('String'), 'a\tb')                 // 'a\\tb'
 * ```
 */
export function parameterText(type: TypeNode, value: unknown, name = 'value'): string {
  const canonical = canonicalParameterType(type)
  return parameterValueText(toParameterValue(canonical, value, { placeholder: `{${name}}`, path: '' }))
}

/** One server-side parameter: the placeholder name and the value's text. */
export interface ServerParameter {
  readonly name: string
  readonly text: string
}

/**
 * The server-side parameters for `sql`: one per placeholder name, in order of first use.
 * Values without a placeholder are left out (the server would ignore them). A name used
 * with two types must have the same text for both, since the server reads one text per name.
 */
export function serverParameters(
  sql: string,
  params: QueryParameters,
  bound: readonly BoundPlaceholder[] = bindPlaceholders(sql, params),
): ServerParameter[] {
  const texts = new Map<string, string>()
  for (const placeholder of bound) {
    const text = parameterValueText(placeholder.value)
    const previous = texts.get(placeholder.name)
    if (previous === undefined) texts.set(placeholder.name, text)
    else if (previous !== text) {
      throw new UsageError(
        `parameter ${placeholder.name} is used with types whose text forms differ (${JSON.stringify(previous)} and ${JSON.stringify(text)}); use one type or two names`,
      )
    }
  }
  return Array.from(texts, ([name, text]) => ({ name, text }))
}

/**
 * Flags of a parameter in the native Query packet: parameters are written like settings in
 * the "strings with flags" format (name, VarUInt flags, string value) and marked CUSTOM
 * (0x02, BaseSettingsHelpers::Flags), so the server keeps names it does not know as settings.
 */
export const nativeParameterFlags = 0x02

/**
 * The parameters of a native Query packet (revision 54459, `Revision.withParameters`, and
 * later), after the query text: for each `[name, value]`, write the name, the VarUInt
 * {@link nativeParameterFlags} and the value as strings, then an empty name to end the list.
 * Verified in ClickHouse's own client (Connection::sendQuery writes them as custom settings,
 * whose value string is the Field dump, a quoted string) and server (TCPHandler reads them
 * with `Settings::read` and applies `readQuoted` to each value).
 *
 * A name that is also the name of a server setting (`limit`, `max_threads`, ...) goes into
 * that setting instead and then fails to unquote, going by BaseSettings::read and TCPHandler
 * (not checked live): prefer other names over the native protocol.
 */
export function nativeQueryParameters(
  sql: string,
  params: QueryParameters,
): Array<[name: string, value: string]> {
  return serverParameters(sql, params).map(({ name, text }) => [name, quoteSqlString(text)])
}

/** HTTP query-string fields for the parameters: `param_<name>` = text (to be URL-encoded by the caller). */
export function httpQueryParameters(
  sql: string,
  params: QueryParameters,
): Array<[key: string, value: string]> {
  return serverParameters(sql, params).map(({ name, text }) => [`param_${name}`, text])
}
