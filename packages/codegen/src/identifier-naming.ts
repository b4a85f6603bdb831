import { tsPropertyKey } from '@clickwire/protocol'

/**
 * Names in generated code: property keys, interface names, and the camel-case keys of
 * Kysely's `CamelCasePlugin`.
 */

export { tsPropertyKey }

/**
 * Type names the generated file uses or that TypeScript code commonly means by a global;
 * a table whose interface would take one of these gets a `Table` suffix, so `map` becomes
 * `MapTable` and `Map<K, V>` in a column type still means the global Map.
 */
const reservedTypeNames = new Set([
  'DB',
  'ColumnType',
  'Generated',
  'Array',
  'Date',
  'Map',
  'Object',
  'Promise',
  'Record',
  'Set',
  'String',
  'Number',
  'Boolean',
  'BigInt',
  'Symbol',
  'Uint8Array',
  'Function',
  'Error',
])

/**
 * PascalCase type name from name parts (`['analytics', 'page_views']` ->
 * `AnalyticsPageViews`). Letters keep their case inside a word (`OnTime` stays), words
 * break at anything that is not a letter or digit, and a name that would start with a
 * digit or be empty gets a `Table` prefix.
 */
export function pascalCaseName(parts: readonly string[]): string {
  const words = parts.flatMap((part) => part.split(/[^\p{L}\p{N}]+/u)).filter((word) => word !== '')
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')
  if (name === '' || /^\p{N}/u.test(name)) return `Table${name}`
  return name
}

/**
 * Unique interface names for tables, in the given order: reserved names get a `Table`
 * suffix, and a name already taken gets the first free number (`Events`, `Events2`).
 */
export function uniqueTypeNames(names: readonly string[]): string[] {
  const taken = new Set<string>()
  return names.map((wanted) => {
    const base = reservedTypeNames.has(wanted) ? `${wanted}Table` : wanted
    let name = base
    for (let suffix = 2; taken.has(name); suffix++) name = `${base}${suffix}`
    taken.add(name)
    return name
  })
}

/**
 * snake_case -> camelCase exactly as Kysely's `CamelCasePlugin` (default options) turns
 * result column names into keys: each `_` is dropped and the character after it is upper-cased.
 */
export function kyselyCamelCase(name: string): string {
  let out = name.slice(0, 1)
  for (let i = 1; i < name.length; i++) {
    const char = name[i]!
    if (char === '_') continue
    out += name[i - 1] === '_' ? char.toUpperCase() : char
  }
  return out
}

/**
 * camelCase -> snake_case exactly as Kysely's `CamelCasePlugin` (default options) turns
 * keys back into identifiers in queries: the first character is lower-cased, and an
 * upper-case letter gets a `_` before it unless the character before it is upper-case too.
 */
export function kyselySnakeCase(name: string): string {
  if (name === '') return name
  // Index into whole-string case conversions, as the plugin does, so characters whose
  // case mapping changes the length behave the same way here.
  const upper = name.toUpperCase()
  const lower = name.toLowerCase()
  let out = lower[0]!
  for (let i = 1; i < name.length; i++) {
    const char = name[i]
    const isUpper = char === upper[i] && upper[i] !== lower[i]
    const previousIsUpper = name[i - 1] === upper[i - 1] && upper[i - 1] !== lower[i - 1]
    if (isUpper) out += previousIsUpper ? lower[i] : `_${lower[i]}`
    else out += char
  }
  return out
}

/**
 * The key of `name` under `CamelCasePlugin`, or undefined when no key reaches it: the
 * plugin only reaches names that survive camel -> snake unchanged, which excludes names
 * with upper-case letters (`FlightDate` becomes `flight_date` in queries) and some
 * underscore runs (`a__b`).
 */
export function camelCaseKey(name: string): string | undefined {
  const key = kyselyCamelCase(name)
  return kyselySnakeCase(key) === name ? key : undefined
}
