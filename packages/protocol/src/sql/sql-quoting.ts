import { UsageError } from '../errors/usage-error.js'
import { hasUtf8Encoding } from '../io/byte-writer.js'
import { decodeUtf8, encodeUtf8 } from '../io/text-decoding.js'

/*
 * Names and strings in ClickHouse SQL text, and reading them back: the one place clickwire
 * quotes. The server reads the same backslash escapes inside string literals ('...') and
 * quoted names (`...`) (readAnyQuotedString in IO/ReadHelpers.cpp): \\ \' \` \b \f \n \r
 * \t \0 \a \v and \xHH for one byte, and a backslash before any other character stands for
 * that character. So the backslash and the quote character are always escaped.
 *
 * A JS string with a lone UTF-16 surrogate is refused: it has no UTF-8 encoding, and the
 * text the server got would hold U+FFFD instead, i.e. another name or value.
 */

/**
 * The control characters (U+0000..U+001F, U+007F) escaped besides the backslash and the quote:
 * - `sql` (default): all of them, as \0 \b \t \n \f \r or \xHH. A query stays printable in
 *   logs, and a NUL never reaches a tool that cuts the text at it (`clickhouse-client --query`).
 * - `server`: only \b \f \n \r \t \0, as the server's own printing does (writeQuotedString,
 *   writeBackQuotedString); the others stay raw. For text that must be the server's exactly:
 *   type names (Variant alternatives are numbered in the order of their printed names) and
 *   custom settings as clickhouse-client writes them. The server reads both the same.
 */
export type SqlEscapes = 'sql' | 'server'

const named: Readonly<Record<number, string>> = {
  0: '\\0',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  12: '\\f',
  13: '\\r',
}

function hexEscape(code: number): string {
  return `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
}

/** Whether the loop must look at a char (most chars of most names need nothing). */
function special(code: number): boolean {
  return code < 0x20 || code === 0x7f || code === 92 || code === 39 || code === 96 || code >= 0x80
}

/**
 * `text` with backslashes, `quote` (if any) and control characters escaped. `binary` text is
 * bytes, one per char (0-255, from a Uint8Array): bytes from 0x80 become \xHH, so bytes that
 * are no UTF-8 reach the server as they are; ordinary text goes out as UTF-8.
 */
function escapeText(
  text: string,
  quote: "'" | '`' | undefined,
  binary: boolean,
  escapes: SqlEscapes,
): string {
  let out = ''
  let last = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (!special(code)) continue
    let replacement: string | undefined
    if (code === 92) replacement = '\\\\'
    else if (code < 0x20 || code === 0x7f)
      replacement = named[code] ?? (escapes === 'sql' ? hexEscape(code) : undefined)
    else if (quote !== undefined && text[i] === quote) replacement = `\\${quote}`
    else if (binary && code >= 0x80) replacement = hexEscape(code)
    if (replacement === undefined) continue
    out += text.slice(last, i) + replacement
    last = i + 1
  }
  return last === 0 ? text : out + text.slice(last)
}

function checkText(text: string, what: string): void {
  if (typeof text !== 'string') throw new UsageError(`${what}: expected a string, got ${typeof text}`)
  if (!hasUtf8Encoding(text))
    throw new UsageError(
      `${what} ${JSON.stringify(text)} contains a lone UTF-16 surrogate, which has no UTF-8 encoding`,
    )
}

/**
 * A backquoted name: `` `my table` ``, `` `a\`b` ``. Refuses the empty name (ClickHouse has no
 * empty identifier) and a lone surrogate.
 */
export function quoteSqlIdentifier(name: string): string {
  checkText(name, 'an identifier')
  if (name === '') throw new UsageError('an identifier cannot be empty')
  return `\`${escapeText(name, '`', false, 'sql')}\``
}

/** Dotted parts of a qualified name, each backquoted: `` `db`.`table` ``. */
export function quoteQualifiedName(parts: readonly string[]): string {
  if (parts.length === 0) throw new UsageError('a qualified name needs at least one part')
  return parts.map(quoteSqlIdentifier).join('.')
}

const plainIdentifier = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * A name as the server writes it in a type name (backQuoteIfNeed): bare when it is a plain
 * identifier, else backquoted with the server's escapes (`Tuple(a UInt8, \`b c\` String)`).
 */
export function quoteSqlIdentifierIfNeeded(name: string): string {
  if (plainIdentifier.test(name)) return name
  checkText(name, 'an identifier')
  return `\`${escapeText(name, '`', false, 'server')}\``
}

/** Options of {@link quoteSqlString}. */
export interface SqlStringOptions {
  /** The text is bytes, one per char (0-255): bytes from 0x80 are written as \xHH. */
  readonly binary?: boolean | undefined
  /** Which control characters are escaped (default `sql`: all). */
  readonly escapes?: SqlEscapes | undefined
}

/**
 * A single-quoted string literal: `'it\'s'`. Also what the server reads as a quoted value:
 * an element of an Array/Tuple/Map parameter, a parameter in the native Query packet
 * (`readQuoted`), a custom setting.
 */
export function quoteSqlString(text: string, options: SqlStringOptions = {}): string {
  if (!options.binary) checkText(text, 'a string')
  return `'${escapeText(text, "'", options.binary === true, options.escapes ?? 'sql')}'`
}

/**
 * Text for the server's escaped (TSV) reader, without quotes: a top-level parameter value.
 * A raw tab or newline would end the value early and a backslash starts an escape, so those
 * are escaped (every control character is); quotes stay as they are.
 */
export function escapeSqlText(text: string, binary = false): string {
  if (!binary) checkText(text, 'a string')
  return escapeText(text, undefined, binary, 'sql')
}

const unescapes: Readonly<Record<string, number>> = {
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  '0': 0x00,
  a: 0x07,
  v: 0x0b,
}

/**
 * Undoes ClickHouse's backslash escapes (`readEscapedString`, the TSV field reader, and the
 * inside of quoted strings): \b \f \n \r \t \0 \a \v, `\xHH` for one byte, and a backslash
 * before any other character stands for that character. With `quote`, a doubled quote
 * character stands for one. Undefined when the text ends inside an escape or holds a lone
 * `quote`. `\xHH` stands for one byte, so the result is rebuilt from bytes and decoded as UTF-8.
 */
export function unescapeSqlText(text: string, quote?: string): string | undefined {
  if (!text.includes('\\') && (quote === undefined || !text.includes(quote))) return text
  const bytes: number[] = []
  const pushText = (part: string) => {
    for (const byte of encodeUtf8(part)) bytes.push(byte)
  }
  let i = 0
  while (i < text.length) {
    const char = text[i]!
    if (char === quote) {
      if (text[i + 1] !== quote) return undefined
      pushText(quote)
      i += 2
    } else if (char === '\\') {
      const next = text[i + 1]
      if (next === undefined) return undefined
      if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
        bytes.push(Number.parseInt(text.slice(i + 2, i + 4), 16))
        i += 4
        continue
      }
      const byte = unescapes[next]
      if (byte !== undefined) bytes.push(byte)
      else pushText(next)
      i += 2
    } else {
      const code = text.codePointAt(i)!
      const width = code > 0xffff ? 2 : 1
      pushText(text.slice(i, i + width))
      i += width
    }
  }
  return decodeUtf8(Uint8Array.from(bytes))
}

/** The text of a single-quoted literal, as `readQuoted` reads it, or undefined when `literal` is not one whole quoted string. */
export function unquoteSqlString(literal: string): string | undefined {
  if (literal.length < 2 || literal[0] !== "'" || literal[literal.length - 1] !== "'") return undefined
  return unescapeSqlText(literal.slice(1, -1), "'")
}
