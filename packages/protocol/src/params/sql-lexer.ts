/*
 * A lexer that only tells tokens apart as far as placeholders need: it mirrors ClickHouse's
 * src/Parsers/Lexer.cpp so that braces inside string literals ('...', with backslash escapes
 * and doubled quotes), quoted identifiers ("..." and `...`), hex/binary strings (x'..', b'..'),
 * heredocs ($$...$$, $tag$...$tag$), and comments (-- and // to the end of the line, `# ` and
 * `#!` to the end of the line, /* ... *\/ nested) are never taken for placeholders.
 * Like the server, an unclosed string or comment swallows the rest of the text.
 */

/** Token kinds, as far as placeholders need them. */
export type SqlTokenKind =
  | 'space'
  | 'comment'
  | 'word'
  | 'number'
  | 'string'
  | 'quoted-identifier'
  | 'open-brace'
  | 'close-brace'
  | 'open-paren'
  | 'close-paren'
  | 'open-bracket'
  | 'close-bracket'
  | 'colon'
  | 'semicolon'
  | 'dot'
  | 'other'
  | 'error'
  | 'end'

const singles: Readonly<Record<string, SqlTokenKind>> = {
  '(': 'open-paren',
  ')': 'close-paren',
  '[': 'open-bracket',
  ']': 'close-bracket',
  '{': 'open-brace',
  '}': 'close-brace',
  ';': 'semicolon',
  ',': 'other',
  '+': 'other',
  '*': 'other',
  '%': 'other',
  '?': 'other',
  '@': 'other',
  '|': 'other',
  '=': 'other',
  '!': 'other',
  '<': 'other',
  '>': 'other',
  '\\': 'other',
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13)
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57
}

function isHexDigit(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102)
}

function isWordChar(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
}

/** Tokens after which a '.' is member access, not the start of a number. */
const beforeDot = new Set<SqlTokenKind>([
  'close-paren',
  'close-bracket',
  'word',
  'quoted-identifier',
  'number',
])

/** A cursor over SQL text that reads one token at a time (`next`), mirroring the server's lexer. */
export class SqlLexer {
  position = 0
  kind: SqlTokenKind = 'end'
  start = 0
  /** The last token that was not whitespace or a comment. */
  previous: SqlTokenKind = 'end'

  constructor(readonly sql: string) {}

  code(at: number): number {
    return at < this.sql.length ? this.sql.charCodeAt(at) : -1
  }

  /** Reads one token; returns its kind (also left in `kind`, with its span in `start`..`position`). */
  next(): SqlTokenKind {
    const kind = this.read()
    this.kind = kind
    if (kind !== 'space' && kind !== 'comment') this.previous = kind
    return kind
  }

  /** Reads the next token that is not whitespace or a comment. */
  nextSignificant(): SqlTokenKind {
    for (;;) {
      const kind = this.next()
      if (kind !== 'space' && kind !== 'comment') return kind
    }
  }

  private read(): SqlTokenKind {
    const sql = this.sql
    const end = sql.length
    let pos = this.position
    this.start = pos
    if (pos >= end) return 'end'
    const code = sql.charCodeAt(pos)
    const char = sql[pos]!
    if (isSpace(code)) {
      while (pos < end && isSpace(sql.charCodeAt(pos))) pos++
      return this.until(pos, 'space')
    }
    if (isDigit(code)) return this.number()
    switch (char) {
      case "'":
        return this.quoted(39, 'string')
      case '"':
        return this.quoted(34, 'quoted-identifier')
      case '`':
        return this.quoted(96, 'quoted-identifier')
      case '.': {
        if (pos > 0 && (!isDigit(this.code(pos + 1)) || beforeDot.has(this.previous)))
          return this.until(pos + 1, 'dot')
        pos++
        while (isDigit(this.code(pos)) || this.code(pos) === 95) pos++
        pos = this.exponent(pos, false)
        return this.until(pos, 'number')
      }
      case '-':
        if (sql[pos + 1] === '>') return this.until(pos + 2, 'other')
        if (sql[pos + 1] === '-') return this.lineComment(pos + 2)
        return this.until(pos + 1, 'other')
      case '/':
        if (sql[pos + 1] === '/') return this.lineComment(pos + 2)
        if (sql[pos + 1] === '*') return this.blockComment(pos + 2)
        return this.until(pos + 1, 'other')
      case '#':
        // Only `# ` and `#!` start a comment; `#x` is an error token to the server.
        if (sql[pos + 1] === ' ' || sql[pos + 1] === '!') return this.lineComment(pos + 2)
        return this.until(pos + 1, 'other')
      case ':':
        return sql[pos + 1] === ':' ? this.until(pos + 2, 'other') : this.until(pos + 1, 'colon')
      case '$':
        return this.dollar()
    }
    const single = singles[char]
    if (single) return this.until(pos + 1, single)
    if (
      (char === 'x' || char === 'X' || char === 'b' || char === 'B') &&
      sql[pos + 1] === "'" &&
      pos + 2 < end
    ) {
      return this.hexOrBinaryString(char === 'x' || char === 'X')
    }
    if (isWordChar(code)) return this.word(pos + 1)
    return this.until(pos + 1, 'other')
  }

  private until(position: number, kind: SqlTokenKind): SqlTokenKind {
    this.position = position
    return kind
  }

  private word(pos: number): SqlTokenKind {
    while (pos < this.sql.length && (isWordChar(this.sql.charCodeAt(pos)) || this.sql[pos] === '$')) pos++
    return this.until(pos, 'word')
  }

  private quoted(quote: number, kind: SqlTokenKind): SqlTokenKind {
    const sql = this.sql
    let pos = this.position + 1
    for (;;) {
      if (pos >= sql.length) return this.until(sql.length, 'error')
      const code = sql.charCodeAt(pos)
      if (code === quote) {
        if (sql.charCodeAt(pos + 1) === quote) {
          pos += 2
          continue
        }
        return this.until(pos + 1, kind)
      }
      if (code === 92) {
        if (pos + 1 >= sql.length) return this.until(sql.length, 'error')
        pos += 2
        continue
      }
      pos++
    }
  }

  private hexOrBinaryString(hex: boolean): SqlTokenKind {
    let pos = this.position + 2
    while (pos < this.sql.length) {
      const code = this.sql.charCodeAt(pos)
      if (hex ? !isHexDigit(code) : code !== 48 && code !== 49) break
      pos++
    }
    if (this.sql[pos] !== "'") return this.until(this.sql.length, 'error')
    return this.until(pos + 1, 'string')
  }

  private lineComment(pos: number): SqlTokenKind {
    const newline = this.sql.indexOf('\n', pos)
    return this.until(newline === -1 ? this.sql.length : newline, 'comment')
  }

  private blockComment(pos: number): SqlTokenKind {
    const sql = this.sql
    let depth = 1
    while (pos + 2 <= sql.length) {
      if (sql[pos] === '/' && sql[pos + 1] === '*') {
        depth++
        pos += 2
      } else if (sql[pos] === '*' && sql[pos + 1] === '/') {
        pos += 2
        if (--depth === 0) return this.until(pos, 'comment')
      } else pos++
    }
    return this.until(sql.length, 'error')
  }

  private dollar(): SqlTokenKind {
    const sql = this.sql
    const pos = this.position
    // A heredoc's tag is everything up to the next '$', whatever it contains.
    const tagEnd = sql.indexOf('$', pos + 1)
    if (tagEnd !== -1) {
      const tag = sql.slice(pos, tagEnd + 1)
      const close = sql.indexOf(tag, tagEnd + 1)
      if (close !== -1) return this.until(close + tag.length, 'string')
    }
    if (!isWordChar(this.code(pos + 1))) return this.until(pos + 1, 'other')
    return this.word(pos + 1)
  }

  private number(): SqlTokenKind {
    const sql = this.sql
    let pos = this.position
    if (this.previous === 'dot') {
      // `x.1.2` is tuple access: only plain integers follow a dot.
      pos++
      while (isDigit(this.code(pos)) || this.code(pos) === 95) pos++
    } else {
      let hex = false
      const second = sql[pos + 1]
      if (sql[pos] === '0' && pos + 2 < sql.length && (second === 'x' || second === 'X')) {
        if (isHexDigit(sql.charCodeAt(pos + 2))) {
          hex = true
          pos += 2
        } else pos++
      } else if (sql[pos] === '0' && pos + 2 < sql.length && (second === 'b' || second === 'B')) {
        pos += sql[pos + 2] === '0' || sql[pos + 2] === '1' ? 2 : 1
      } else pos++
      const digit = hex ? isHexDigit : isDigit
      while (digit(this.code(pos)) || this.code(pos) === 95) pos++
      if (sql[pos] === '.') {
        pos++
        while (digit(this.code(pos)) || this.code(pos) === 95) pos++
      }
      pos = this.exponent(pos, hex)
    }
    if (pos < sql.length && isWordChar(sql.charCodeAt(pos))) {
      // `1abc` is a bare word to the server (a `1.5abc` is an error; either way not a name).
      const numeric = sql.slice(this.position, pos)
      while (pos < sql.length && isWordChar(sql.charCodeAt(pos))) pos++
      return this.until(pos, /^[0-9A-Za-z_]*$/.test(numeric) ? 'word' : 'other')
    }
    return this.until(pos, 'number')
  }

  private exponent(pos: number, hex: boolean): number {
    const sql = this.sql
    const char = sql[pos]
    if (pos + 1 < sql.length && (hex ? char === 'p' || char === 'P' : char === 'e' || char === 'E')) {
      pos++
      if (pos + 1 < sql.length && (sql[pos] === '-' || sql[pos] === '+')) pos++
      while (isDigit(this.code(pos)) || this.code(pos) === 95) pos++
    }
    return pos
  }
}
