import { describe, expect, it } from 'vitest'
import { UsageError } from '../errors/usage-error.js'
import {
  escapeSqlText,
  quoteQualifiedName,
  quoteSqlIdentifier,
  quoteSqlIdentifierIfNeeded,
  quoteSqlString,
  unescapeSqlText,
  unquoteSqlString,
} from './sql-quoting.js'

const lone = ['\uD800', 'a\uDBFFb', '\uDC00', 'x\uDFFF']

describe('quoteSqlIdentifier', () => {
  it('backquotes every name, escaping backquotes, backslashes and control characters', () => {
    expect(quoteSqlIdentifier('plain')).toBe('`plain`')
    expect(quoteSqlIdentifier('a`b')).toBe('`a\\`b`')
    expect(quoteSqlIdentifier("it's\\")).toBe("`it's\\\\`")
    expect(quoteSqlIdentifier('new\nline\u0000')).toBe('`new\\nline\\0`')
    expect(quoteSqlIdentifier('\b\t\f\r\u0001\u001f\u007f')).toBe('`\\b\\t\\f\\r\\x01\\x1F\\x7F`')
    expect(quoteSqlIdentifier('we`ird\\name')).toBe('`we\\`ird\\\\name`')
    expect(quoteSqlIdentifier('ü € 😀 "x"')).toBe('`ü € 😀 "x"`')
    expect(quoteSqlIdentifier('1st')).toBe('`1st`')
  })

  it('refuses the empty name and lone surrogates', () => {
    expect(() => quoteSqlIdentifier('')).toThrow(new UsageError('an identifier cannot be empty'))
    for (const name of lone)
      expect(() => quoteSqlIdentifier(name)).toThrow(
        new UsageError(
          `an identifier ${JSON.stringify(name)} contains a lone UTF-16 surrogate, which has no UTF-8 encoding`,
        ),
      )
    expect(() => quoteSqlIdentifier(1 as never)).toThrow(
      new UsageError('an identifier: expected a string, got number'),
    )
  })

  it('quotes each part of a qualified name', () => {
    expect(quoteQualifiedName(['db', 'events'])).toBe('`db`.`events`')
    expect(quoteQualifiedName(['my db', 'a.b`c'])).toBe('`my db`.`a.b\\`c`')
    expect(() => quoteQualifiedName([])).toThrow(UsageError)
    expect(() => quoteQualifiedName(['db', ''])).toThrow(new UsageError('an identifier cannot be empty'))
  })
})

describe('quoteSqlIdentifierIfNeeded', () => {
  it('leaves plain names bare and quotes the rest as the server prints them in types', () => {
    expect(quoteSqlIdentifierIfNeeded('a_1')).toBe('a_1')
    expect(quoteSqlIdentifierIfNeeded('_')).toBe('_')
    expect(quoteSqlIdentifierIfNeeded('b c')).toBe('`b c`')
    expect(quoteSqlIdentifierIfNeeded('1st')).toBe('`1st`')
    expect(quoteSqlIdentifierIfNeeded('é')).toBe('`é`')
    expect(quoteSqlIdentifierIfNeeded('')).toBe('``')
    expect(quoteSqlIdentifierIfNeeded('a`\\b')).toBe('`a\\`\\\\b`')
    // The server's escapes: \b \f \n \r \t \0 only; other control characters stay raw.
    expect(quoteSqlIdentifierIfNeeded('\n\t\u0000\u0001\u007f')).toBe('`\\n\\t\\0\u0001\u007f`')
    expect(() => quoteSqlIdentifierIfNeeded('\uD800')).toThrow(/lone UTF-16 surrogate/)
  })
})

describe('quoteSqlString', () => {
  it('single-quotes, escaping quotes, backslashes and control characters', () => {
    expect(quoteSqlString('')).toBe("''")
    expect(quoteSqlString('plain')).toBe("'plain'")
    expect(quoteSqlString("it's")).toBe("'it\\'s'")
    expect(quoteSqlString('a\\b')).toBe("'a\\\\b'")
    expect(quoteSqlString("it's \\ here")).toBe("'it\\'s \\\\ here'")
    expect(quoteSqlString('\u0000\b\t\n\f\r\u0001\u007f')).toBe("'\\0\\b\\t\\n\\f\\r\\x01\\x7F'")
    expect(quoteSqlString('`"ü😀')).toBe("'`\"ü😀'")
  })

  it('writes the server escapes only, when asked (custom settings, type names)', () => {
    expect(quoteSqlString('\b\f\n\r\t\0\\\'"é', { escapes: 'server' })).toBe("'\\b\\f\\n\\r\\t\\0\\\\\\'\"é'")
    expect(quoteSqlString('\u0001\u007f', { escapes: 'server' })).toBe("'\u0001\u007f'")
  })

  it('writes bytes from 0x80 of binary text as \\xHH', () => {
    const bytes = String.fromCharCode(0, 0x27, 0x5c, 0x41, 0x80, 0xc3, 0xff)
    expect(quoteSqlString(bytes, { binary: true })).toBe("'\\0\\'\\\\A\\x80\\xC3\\xFF'")
  })

  it('refuses lone surrogates in text (binary text has none)', () => {
    for (const text of lone)
      expect(() => quoteSqlString(text)).toThrow(
        new UsageError(
          `a string ${JSON.stringify(text)} contains a lone UTF-16 surrogate, which has no UTF-8 encoding`,
        ),
      )
    expect(quoteSqlString('\uD83D\uDE00')).toBe("'😀'")
  })
})

describe('escapeSqlText', () => {
  it('escapes backslashes and control characters for the TSV reader, leaving quotes', () => {
    expect(escapeSqlText("it's `x`")).toBe("it's `x`")
    expect(escapeSqlText('a\tb\nc\\d\u0000')).toBe('a\\tb\\nc\\\\d\\0')
    expect(escapeSqlText(String.fromCharCode(0x80, 0x7f), true)).toBe('\\x80\\x7F')
    expect(() => escapeSqlText('\uDC00')).toThrow(/lone UTF-16 surrogate/)
  })
})

describe('reading quoted text back', () => {
  it('undoes every escape the quoters write', () => {
    const texts = ['', "it's", 'a\\b', '\u0000\b\t\n\f\r\u0001\u007f', '`"ü😀', 'new\nline']
    for (const text of texts) {
      expect(unquoteSqlString(quoteSqlString(text))).toBe(text)
      expect(unquoteSqlString(quoteSqlString(text, { escapes: 'server' }))).toBe(text)
      expect(unescapeSqlText(quoteSqlIdentifier(`x${text}`).slice(1, -1), '`')).toBe(`x${text}`)
    }
    expect(unquoteSqlString("'a''b\\x41\\xc3\\xa9\\a\\v\\q'")).toBe("a'bAé\u0007\u000bq")
    expect(unquoteSqlString("'a'b'")).toBeUndefined()
    expect(unquoteSqlString("'\\'")).toBeUndefined()
    expect(unquoteSqlString('plain')).toBeUndefined()
  })
})
