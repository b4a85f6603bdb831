import { UsageError } from '../errors/usage-error.js'
import { SqlLexer, type SqlTokenKind } from '../params/sql-lexer.js'
import { firstKeyword } from './statement-kind.js'

/** The `FORMAT <name>` clause that ends a statement: the format and where the clause is in the text. */
export interface FormatClause {
  /** The format name as written (without quotes). */
  readonly format: string
  /** Offset of the `FORMAT` keyword. */
  readonly start: number
  /** Offset just past the format name. */
  readonly end: number
}

interface Token {
  readonly kind: SqlTokenKind
  readonly start: number
  readonly end: number
  /** Parentheses, brackets and braces open around the token. */
  readonly depth: number
}

/** The tokens of `sql` that are not blanks or comments, with their nesting depth (the server's lexer rules). */
function significantTokens(sql: string): Token[] {
  const lexer = new SqlLexer(sql)
  const tokens: Token[] = []
  let depth = 0
  for (;;) {
    const kind = lexer.nextSignificant()
    if (kind === 'end') return tokens
    if (kind === 'close-paren' || kind === 'close-bracket' || kind === 'close-brace')
      depth = Math.max(0, depth - 1)
    tokens.push({ kind, start: lexer.start, end: lexer.position, depth })
    if (kind === 'open-paren' || kind === 'open-bracket' || kind === 'open-brace') depth++
    // An unclosed string or comment swallows the rest, as on the server.
    if (kind === 'error') return tokens
  }
}

function isWord(sql: string, token: Token | undefined, word: string): boolean {
  return token?.kind === 'word' && sql.slice(token.start, token.end).toUpperCase() === word
}

function unquoted(sql: string, token: Token): string {
  const text = sql.slice(token.start, token.end)
  return token.kind === 'quoted-identifier' ? text.slice(1, -1) : text
}

/**
 * The statement's own output clause, `FORMAT <name>` at the top level and at the end of
 * the statement: followed by nothing but semicolons and comments, or by a trailing
 * `SETTINGS ...` clause (`SELECT ... FORMAT JSON SETTINGS max_threads = 1`). Text inside
 * string literals, comments and parentheses (subqueries, function calls) never counts, nor
 * does `format` used as a name: an alias (`AS format`), a qualified column (`t.format`), a
 * function (`format(...)`) or a column in the middle of the statement (`SELECT format FROM t`).
 * Undefined when the statement has no such clause.
 */
export function findFormatClause(sql: string): FormatClause | undefined {
  const tokens = significantTokens(sql)
  // The clause ends the statement, so the last candidate is the one to check.
  for (let i = tokens.length - 2; i >= 0; i--) {
    const keyword = tokens[i]!
    if (keyword.depth !== 0 || !isWord(sql, keyword, 'FORMAT')) continue
    const before = tokens[i - 1]
    if (isWord(sql, before, 'AS') || before?.kind === 'dot') continue
    const name = tokens[i + 1]!
    if (name.kind !== 'word' && name.kind !== 'quoted-identifier') continue
    let next = i + 2
    while (tokens[next]?.kind === 'semicolon') next++
    const rest = tokens[next]
    if (rest !== undefined && !(rest.depth === 0 && isWord(sql, rest, 'SETTINGS') && next === i + 2)) continue
    return { format: unquoted(sql, name), start: keyword.start, end: name.end }
  }
  return undefined
}

/**
 * Refuses a statement for `query()` whose FORMAT clause asks for output other than Native:
 * `query()` decodes the rows itself (Native blocks on both transports), and a server would
 * either ignore the clause (native TCP) or answer in a format the client cannot read
 * (HTTP). `FORMAT Native` is accepted, and so is any INSERT (its FORMAT names the input).
 * Nothing is sent: the UsageError names `queryRaw`, which returns any format as bytes.
 */
export function checkQueryFormat(sql: string): void {
  if (firstKeyword(sql) === 'INSERT') return
  const clause = findFormatClause(sql)
  if (!clause || clause.format.toLowerCase() === 'native') return
  throw queryFormatError(clause.format)
}

/** The UsageError of {@link checkQueryFormat} for a statement that asks for `format`. */
export function queryFormatError(format: string): UsageError {
  return new UsageError(
    `query() reads the rows itself and cannot return FORMAT ${format} output: ` +
      `run the statement without its FORMAT clause through queryRaw(sql, { format: '${format}' }), ` +
      'which returns the bytes of any format',
  )
}

/**
 * A statement as the subquery of `DESCRIBE TABLE (...)`: without the semicolons that may
 * end it and without a FORMAT clause, which a subquery cannot have (a SETTINGS clause after
 * it stays). Comments stay, so the caller puts the text on lines of its own.
 */
export function subqueryText(sql: string): string {
  const clause = findFormatClause(sql)
  const text = clause ? sql.slice(0, clause.start) + sql.slice(clause.end) : sql
  const tokens = significantTokens(text)
  let last = tokens.length - 1
  while (last >= 0 && tokens[last]!.kind === 'semicolon') last--
  return last >= 0 ? text.slice(0, tokens[last]!.end) : ''
}
