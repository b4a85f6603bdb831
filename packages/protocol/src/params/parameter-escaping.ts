/**
 * The four ways parameter text is written out, each matching the reader on the server side:
 *
 * - {@link escapeParameterText}: a whole top-level parameter value, read with the type's
 *   "escaped" (TSV) text deserializer. A raw tab or newline would end the value early, and a
 *   backslash starts an escape, so those are escaped.
 * - {@link quoteParameterText}: a value inside an Array/Tuple/Map parameter (read with the
 *   "quoted" deserializer) and a string literal in SQL. Both readers share ClickHouse's
 *   backslash escapes (`\\`, `\'`, `\n`, `\t`, `\r`, `\0`, `\b`, `\f`, `\xHH`).
 * - {@link quoteWireValue}: a parameter in the native Query packet, undone by `readQuoted`.
 * - {@link quoteSqlIdentifier}: an `Identifier` parameter substituted into SQL.
 *
 * Control characters are always escaped: it costs nothing, keeps queries printable in logs,
 * and lets them pass through `clickhouse-client --query`, where a NUL cannot travel.
 * A `binary` text holds one byte per char (0-255, from a Uint8Array); bytes from 0x80 are
 * written as `\xHH` so arbitrary, non-UTF-8 bytes survive every path.
 */

const namedEscapes: Readonly<Record<number, string>> = {
  0: '\\0',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  12: '\\f',
  13: '\\r',
  39: "\\'",
  92: '\\\\',
}

function hexEscape(code: number): string {
  return `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
}

/** Escapes backslashes, control characters, `'` when `quote` is set, and bytes >= 0x80 of binary text. */
function escapeText(text: string, quote: boolean, binary: boolean): string {
  let out = ''
  let last = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    let replacement: string | undefined
    if (code < 0x20 || code === 0x7f) replacement = namedEscapes[code] ?? hexEscape(code)
    else if (code === 92) replacement = '\\\\'
    else if (code === 39) {
      if (quote) replacement = "\\'"
    } else if (binary && code >= 0x80) replacement = hexEscape(code)
    if (replacement === undefined) continue
    out += text.slice(last, i) + replacement
    last = i + 1
  }
  return last === 0 ? text : out + text.slice(last)
}

/** Text of a top-level parameter value for the server's escaped (TSV) reader. */
export function escapeParameterText(text: string, binary = false): string {
  return escapeText(text, false, binary)
}

/** A single-quoted literal: an element inside a composite parameter value, or a SQL string. */
export function quoteParameterText(text: string, binary = false): string {
  return `'${escapeText(text, true, binary)}'`
}

/**
 * A parameter value as the native Query packet carries it: the server reads parameters like
 * custom settings (name, flags, string) and then applies `readQuoted` to each value string
 * (TCPHandler's `convertToQueryParameters`), so the value text travels single-quoted with
 * `\\` and `\'` escaped. Everything else may stay raw inside the quotes.
 */
export function quoteWireValue(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`
}

/** A backquoted SQL identifier. */
export function quoteSqlIdentifier(name: string): string {
  return `\`${name.replace(/[\\`]/g, '\\$&')}\``
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Whether a JS string can be encoded as UTF-8: lone surrogate halves cannot (TextEncoder would
 * silently turn them into U+FFFD, so the server would see a different value).
 */
export function isWellFormedText(text: string): boolean {
  return !loneSurrogate.test(text)
}
