import { describe, expect, it } from 'vitest'
import { escapeIdentifier, quoteIdentifier, quoteStringLiteral } from './sql-literals.js'

describe('ClickHouse literals', () => {
  it('escape quotes, backslashes and control characters in strings', () => {
    expect(quoteStringLiteral("it's")).toBe("'it\\'s'")
    expect(quoteStringLiteral('a\\b')).toBe("'a\\\\b'")
    expect(quoteStringLiteral('\u0000\b\t\n\f\r\u0001\u007f')).toBe("'\\0\\b\\t\\n\\f\\r\\x01\\x7F'")
    expect(quoteStringLiteral('`"ü😀')).toBe("'`\"ü😀'")
    expect(quoteStringLiteral('plain')).toBe("'plain'")
  })

  it('escape backquotes and backslashes in names, leaving single quotes', () => {
    expect(quoteIdentifier('a`b')).toBe('`a\\`b`')
    expect(quoteIdentifier("it's\\")).toBe("`it's\\\\`")
    expect(escapeIdentifier('new\nline\u0000')).toBe('new\\nline\\0')
  })
})
