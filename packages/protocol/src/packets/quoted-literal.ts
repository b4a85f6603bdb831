import { decodeUtf8, encodeUtf8 } from '../io/text-decoding.js'

/*
 * Single-quoted ClickHouse string literals, the form custom settings and query parameters
 * take inside a Query packet. clickhouse-client stores each parameter as a custom setting
 * of type String; the setting's text is `Field::dump`, i.e. `writeQuoted`, which escapes
 * exactly \b \f \n \r \t \0, the backslash and the quote. The server undoes it with
 * `readQuoted`, which also knows \a \v \xHH and a doubled quote.
 */

const escapes: Readonly<Record<string, string>> = {
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\0': '\\0',
  '\\': '\\\\',
  "'": "\\'",
}

const needsEscape = /[\b\f\n\r\t\0\\']/g

/** `text` as `writeQuoted` writes it: `'it\'s'`. */
export function quoteLiteral(text: string): string {
  return `'${text.replace(needsEscape, (char) => escapes[char]!)}'`
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
export function unescapeText(text: string, quote?: string): string | undefined {
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
export function unquoteLiteral(literal: string): string | undefined {
  if (literal.length < 2 || literal[0] !== "'" || literal[literal.length - 1] !== "'") return undefined
  return unescapeText(literal.slice(1, -1), "'")
}
