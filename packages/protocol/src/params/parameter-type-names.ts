import { canonicalTypeName } from '../types/type-aliases.js'
import type { TypeArgument, TypeNode } from '../types/type-node.js'

/**
 * Type names in placeholders are written by people, so they may use SQL-standard spellings
 * that ClickHouse's ParserDataType accepts (`DOUBLE PRECISION`, `INT UNSIGNED`, `INT(11)`,
 * `VARCHAR(255)`) and that older servers may not know. Placeholder types are canonicalized so
 * values are checked against the real type, and substituted literals name a type every server
 * knows. The server-side path sends the SQL unchanged, so the server resolves the alias itself.
 */

/** Multi-word names, as ClickHouse's ParserDataType groups them, and the family each stands for. */
const multiWordNames: ReadonlyArray<readonly [words: readonly string[], canonical: string]> = [
  [['DOUBLE', 'PRECISION'], 'Float64'],
  [['NATIONAL', 'CHARACTER', 'LARGE', 'OBJECT'], 'String'],
  [['NATIONAL', 'CHARACTER', 'VARYING'], 'String'],
  [['NATIONAL', 'CHAR', 'VARYING'], 'String'],
  [['NATIONAL', 'CHARACTER'], 'String'],
  [['NATIONAL', 'CHAR'], 'String'],
  [['BINARY', 'LARGE', 'OBJECT'], 'String'],
  [['BINARY', 'VARYING'], 'String'],
  [['CHARACTER', 'LARGE', 'OBJECT'], 'String'],
  [['CHARACTER', 'VARYING'], 'String'],
  [['CHAR', 'LARGE', 'OBJECT'], 'String'],
  [['CHAR', 'VARYING'], 'String'],
  [['NCHAR', 'LARGE', 'OBJECT'], 'String'],
  [['NCHAR', 'VARYING'], 'String'],
]

/** MySQL integer names that take `SIGNED`/`UNSIGNED` (after an optional display width). */
const signedIntegers: Readonly<Record<string, readonly [signed: string, unsigned: string]>> = {
  TINYINT: ['Int8', 'UInt8'],
  INT1: ['Int8', 'UInt8'],
  SMALLINT: ['Int16', 'UInt16'],
  MEDIUMINT: ['Int32', 'UInt32'],
  INT: ['Int32', 'UInt32'],
  INTEGER: ['Int32', 'UInt32'],
  BIGINT: ['Int64', 'UInt64'],
}

/** Aliases ClickHouse registers that `canonicalTypeName` does not cover. */
const extraAliases: Readonly<Record<string, string>> = {
  signed: 'Int64',
  unsigned: 'UInt64',
  year: 'UInt16',
  bit: 'UInt64',
  set: 'UInt64',
  single: 'Float32',
}

/** One lexical token of a type name, as the placeholder scanner hands them over. */
export interface TypeToken {
  readonly kind: 'word' | 'number' | 'string' | 'quoted-identifier' | 'punctuation'
  readonly text: string
}

function upperWord(tokens: readonly TypeToken[], index: number): string | undefined {
  const token = tokens[index]
  return token?.kind === 'word' ? token.text.toUpperCase() : undefined
}

/**
 * Joins the tokens of a type into text `parseType` reads, merging multi-word SQL names into
 * one canonical family name on the way. Comments and line breaks are already gone.
 */
export function typeTextFromTokens(tokens: readonly TypeToken[]): string {
  const merged: TypeToken[] = []
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    const upper = upperWord(tokens, i)
    if (upper !== undefined) {
      const multi = multiWordNames.find(([words]) =>
        words.every((word, k) => upperWord(tokens, i + k) === word),
      )
      if (multi) {
        merged.push({ kind: 'word', text: multi[1] })
        i += multi[0].length - 1
        continue
      }
      const integer = signedIntegers[upper]
      if (integer) {
        // `INT(11) UNSIGNED`: the display width is ignored by ClickHouse.
        let next = i + 1
        if (tokens[next]?.text === '(') {
          let close = next + 1
          if (tokens[close]?.kind === 'number') close++
          if (tokens[close]?.text === ')') next = close + 1
        }
        const sign = upperWord(tokens, next)
        if (sign === 'SIGNED' || sign === 'UNSIGNED') {
          merged.push({ kind: 'word', text: integer[sign === 'SIGNED' ? 0 : 1] })
          i = next
          continue
        }
      }
    }
    merged.push(token)
  }
  let text = ''
  let previous: TypeToken | undefined
  for (const token of merged) {
    if (previous && previous.kind !== 'punctuation' && token.kind !== 'punctuation') text += ' '
    text += token.text
    previous = token
  }
  return text
}

const numericFamilies = /^(U?Int(8|16|32|64|128|256)|Float(32|64)|BFloat16|String)$/

function canonicalName(name: string): string {
  return extraAliases[name.toLowerCase()] ?? canonicalTypeName(name)
}

function canonicalArgument(arg: TypeArgument): TypeArgument {
  return arg.kind === 'type' ? { ...arg, type: canonicalParameterType(arg.type) } : arg
}

/**
 * Resolves aliases (`INT` -> `Int32`, `TEXT` -> `String`), drops the display widths and
 * precisions ClickHouse ignores (`INT(11)`, `FLOAT(12)`, `VARCHAR(255)`), and names a plain
 * `Enum` by its width (`Enum8` when every value fits a signed byte, as ClickHouse decides).
 */
export function canonicalParameterType(node: TypeNode): TypeNode {
  let name = canonicalName(node.name)
  if (numericFamilies.test(name) && node.args.every((arg) => arg.kind === 'number')) {
    return { name, args: [], parenthesized: false }
  }
  if (name === 'Enum') {
    const fitsByte = node.args.every((arg) => arg.kind !== 'enum' || (arg.value >= -128 && arg.value <= 127))
    name = fitsByte ? 'Enum8' : 'Enum16'
  }
  return { name, args: node.args.map(canonicalArgument), parenthesized: node.parenthesized }
}
