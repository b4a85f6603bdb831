import { UsageError } from '../errors/usage-error.js'
import type { TypeNode } from '../types/type-node.js'
import { parseType } from '../types/type-parser.js'
import { canonicalParameterType, type TypeToken, typeTextFromTokens } from './parameter-type-names.js'
import { SqlLexer, type SqlTokenKind } from './sql-lexer.js'

/** A `{name:Type}` placeholder found in SQL text. Offsets are UTF-16 indexes into the JS string. */
export interface QueryPlaceholder {
  readonly name: string
  /**
   * The declared type, canonicalized (`INT` -> `Int32`); undefined when the text between the
   * colon and the closing brace is not a type clickwire can read (see `typeError`).
   */
  readonly type: TypeNode | undefined
  /** The type as written, without comments and with spacing normalized. */
  readonly typeText: string
  /** Why `type` is undefined. */
  readonly typeError?: UsageError | undefined
  /**
   * Right after LIMIT or OFFSET (or `LIMIT n,`), where old servers accept only a number
   * literal: client-side substitution writes a bare integer there.
   */
  readonly literalOnly?: boolean | undefined
  /** Offset of the opening brace. */
  readonly start: number
  /** Offset just past the closing brace. */
  readonly end: number
}

const tokenKinds: Partial<Record<SqlTokenKind, TypeToken['kind']>> = {
  word: 'word',
  number: 'number',
  string: 'string',
  'quoted-identifier': 'quoted-identifier',
}

/**
 * Reads a placeholder whose `{` the lexer just returned; the lexer is left after the `}` when
 * it matches, and must be rewound by the caller otherwise. Mirrors ParserSubstitution: a bare
 * word, a colon (not `::`), a type, a closing brace; whitespace and comments may sit between.
 */
function readPlaceholder(lexer: SqlLexer, start: number): QueryPlaceholder | undefined {
  if (lexer.nextSignificant() !== 'word') return undefined
  const name = lexer.sql.slice(lexer.start, lexer.position)
  if (lexer.nextSignificant() !== 'colon') return undefined
  const tokens: TypeToken[] = []
  let depth = 0
  for (;;) {
    const kind = lexer.nextSignificant()
    if (kind === 'close-brace' && depth === 0) break
    if (kind === 'open-paren') depth++
    else if (kind === 'close-paren' && --depth < 0) return undefined
    if (
      kind === 'end' ||
      kind === 'error' ||
      kind === 'open-brace' ||
      kind === 'close-brace' ||
      kind === 'semicolon' ||
      kind === 'open-bracket' ||
      kind === 'close-bracket'
    ) {
      return undefined
    }
    tokens.push({
      kind: tokenKinds[kind] ?? 'punctuation',
      text: lexer.sql.slice(lexer.start, lexer.position),
    })
  }
  if (tokens.length === 0) return undefined
  const typeText = typeTextFromTokens(tokens)
  const end = lexer.position
  try {
    return { name, type: canonicalParameterType(parseType(typeText)), typeText, start, end }
  } catch (error) {
    const typeError = new UsageError(
      `cannot read the type of placeholder {${name}:${typeText}} at offset ${start}: ${(error as Error).message}`,
      { cause: error },
    )
    return { name, type: undefined, typeText, typeError, start, end }
  }
}

/**
 * Finds the `{name:Type}` query-parameter placeholders in SQL text, in order, skipping string
 * literals, quoted identifiers, heredocs and comments exactly as ClickHouse's lexer does. A `{`
 * that does not open the exact `{identifier:Type}` shape (a map literal, JSON in a string, a
 * format string) is left alone.
 *
 * @example
 * ```ts
 * scanPlaceholders("SELECT {d:Date}, '{not:String}' -- {nor:String}")
 * // [{ name: 'd', typeText: 'Date', type: { name: 'Date', ... }, start: 7, end: 15 }]
 * ```
 */
export function scanPlaceholders(sql: string): QueryPlaceholder[] {
  const placeholders: QueryPlaceholder[] = []
  const lexer = new SqlLexer(sql)
  // Cheap exit for the common query without any brace.
  if (!sql.includes('{')) return placeholders
  // The last significant tokens, to tell whether a placeholder follows LIMIT / OFFSET.
  let lastWord = ''
  let beforeLast = ''
  let third = ''
  for (;;) {
    const kind = lexer.next()
    if (kind === 'end') return placeholders
    if (kind !== 'open-brace') {
      if (kind !== 'space' && kind !== 'comment') {
        third = beforeLast
        beforeLast = lastWord
        lastWord =
          kind === 'word'
            ? sql.slice(lexer.start, lexer.position).toUpperCase()
            : kind === 'other' && sql[lexer.start] === ','
              ? ','
              : kind
      }
      continue
    }
    const start = lexer.start
    const resume = lexer.position
    const placeholder = readPlaceholder(lexer, start)
    if (placeholder) {
      const literalOnly =
        lastWord === 'LIMIT' ||
        lastWord === 'OFFSET' ||
        (lastWord === ',' &&
          ((beforeLast === 'number' && third === 'LIMIT') || beforeLast === 'limit-placeholder'))
      placeholders.push(literalOnly ? { ...placeholder, literalOnly } : placeholder)
      third = beforeLast
      beforeLast = lastWord
      lastWord = literalOnly ? 'limit-placeholder' : 'placeholder'
    } else {
      lexer.position = resume
      lexer.previous = 'open-brace'
    }
  }
}
