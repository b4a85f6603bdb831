/**
 * Building TypeScript type text, for the `tsType` every codec declares: unions, arrays and
 * object types written the way codegen prints them.
 */

/** `T[]`, parenthesized when T is a union. */
export function arrayOf(element: string): string {
  return isUnion(element) ? `(${element})[]` : `${element}[]`
}

/** Positions of the `|` in `text` outside brackets, braces and string literals. */
function topLevelBars(text: string): number[] {
  const bars: number[] = []
  let depth = 0
  let quote = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quote) {
      if (char === '\\') i++
      else if (char === '"') quote = false
    } else if (char === '"') quote = true
    else if (char === '(' || char === '[' || char === '{' || char === '<') depth++
    else if (char === ')' || char === ']' || char === '}' || char === '>') depth--
    else if (char === '|' && depth === 0) bars.push(i)
  }
  return bars
}

function isUnion(text: string): boolean {
  return topLevelBars(text).length > 0
}

function splitUnion(text: string): string[] {
  const parts: string[] = []
  let start = 0
  for (const bar of topLevelBars(text)) {
    parts.push(text.slice(start, bar).trim())
    start = bar + 1
  }
  parts.push(text.slice(start).trim())
  return parts
}

/** A union of members (themselves unions or not), each once in first-seen order, `null` last. */
export function unionOf(members: readonly string[]): string {
  const seen = new Set<string>()
  let hasNull = false
  for (const member of members) {
    for (const part of splitUnion(member)) {
      if (part === 'null') hasNull = true
      else seen.add(part)
    }
  }
  const parts = [...seen]
  if (hasNull) parts.push('null')
  return parts.length === 0 ? 'never' : parts.join(' | ')
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** An object key as TypeScript accepts it: bare when an identifier, else a string literal. */
export function tsPropertyKey(name: string): string {
  return identifier.test(name) ? name : JSON.stringify(name)
}

/** `{ a: A; "b c": B }` of named fields; `{}` without any. */
export function objectOf(fields: readonly (readonly [name: string, tsType: string])[]): string {
  if (fields.length === 0) return '{}'
  return `{ ${fields.map(([name, tsType]) => `${tsPropertyKey(name)}: ${tsType}`).join('; ')} }`
}

/** A union of string literal types, one per name (`"a" | "b"`), escaped as TypeScript reads them. */
export function literalUnionOf(names: readonly string[]): string {
  return names.length === 0 ? 'string' : unionOf(names.map((name) => JSON.stringify(name)))
}
