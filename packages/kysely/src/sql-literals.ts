/*
 * ClickHouse reads backslash escapes inside both string literals ('...') and quoted
 * identifiers (`...`): `\\`, `\'`, `` \` ``, `\n`, `\t`, `\0`, `\xHH` and so on (readAnyQuotedString
 * in IO/ReadHelpers.cpp). So a backslash must always be escaped, the quote character too, and
 * control characters are written as escapes so that the text stays printable and a NUL never
 * reaches a tool that would cut the query at it.
 */

const named: Readonly<Record<number, string>> = {
  0: '\\0',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  12: '\\f',
  13: '\\r',
}

function escapeText(text: string, quote: "'" | '`'): string {
  let out = ''
  let last = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    let replacement: string | undefined
    if (code === 92) replacement = '\\\\'
    else if (text[i] === quote) replacement = `\\${quote}`
    else if (code < 0x20 || code === 0x7f)
      replacement = named[code] ?? `\\x${code.toString(16).padStart(2, '0').toUpperCase()}`
    if (replacement === undefined) continue
    out += text.slice(last, i) + replacement
    last = i + 1
  }
  return last === 0 ? text : out + text.slice(last)
}

/** A ClickHouse string literal: `'it\'s'`. */
export function quoteStringLiteral(text: string): string {
  return `'${escapeText(text, "'")}'`
}

/** The inside of a backquoted identifier (without the backquotes). */
export function escapeIdentifier(name: string): string {
  return escapeText(name, '`')
}

/** A backquoted identifier: `` `my table` ``. */
export function quoteIdentifier(name: string): string {
  return `\`${escapeIdentifier(name)}\``
}
