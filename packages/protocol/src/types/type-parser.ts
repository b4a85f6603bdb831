import { TypeParseError } from '../errors/usage-error.js'
import type { TypeArgument, TypeNode } from './type-node.js'

const aggregateFamilies = new Set(['AggregateFunction', 'SimpleAggregateFunction'])
const settingFamilies = new Set(['JSON', 'Object', 'Dynamic'])

function isIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
}

function isIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || (code >= 48 && code <= 57)
}

const escapes: Record<string, string> = {
  b: '\b',
  f: '\f',
  r: '\r',
  n: '\n',
  t: '\t',
  '0': '\0',
  a: '\x07',
  v: '\v',
}

/** Recursive-descent parser over one type name. Positions in errors are 0-based offsets. */
class Parser {
  position = 0
  constructor(readonly input: string) {}

  fail(expected: string, at = this.position): never {
    throw new TypeParseError(this.input, at, expected)
  }

  skipSpace(): void {
    const input = this.input
    while (this.position < input.length) {
      const code = input.charCodeAt(this.position)
      if (code === 32 || code === 9 || code === 10 || code === 13) this.position++
      else break
    }
  }

  peek(): string {
    this.skipSpace()
    return this.input[this.position] ?? ''
  }

  expect(char: string): void {
    if (this.peek() !== char)
      this.fail(this.position >= this.input.length ? `'${char}' before the end` : `'${char}'`)
    this.position++
  }

  identifier(): string {
    this.skipSpace()
    const start = this.position
    if (!isIdentifierStart(this.input.charCodeAt(start))) this.fail('a name')
    this.position++
    while (isIdentifierPart(this.input.charCodeAt(this.position))) this.position++
    return this.input.slice(start, this.position)
  }

  quoted(quote: "'" | '`'): string {
    this.skipSpace()
    const start = this.position
    if (this.input[this.position] !== quote) this.fail(quote === "'" ? 'a quoted string' : 'a quoted name')
    this.position++
    let value = ''
    for (;;) {
      const char = this.input[this.position]
      if (char === undefined) this.fail(`closing ${quote} of the literal that starts at ${start}`)
      this.position++
      if (char === quote) {
        // A doubled quote stands for itself.
        if (this.input[this.position] === quote) {
          value += quote
          this.position++
          continue
        }
        return value
      }
      if (char === '\\') {
        const next = this.input[this.position]
        if (next === undefined) this.fail('an escaped character')
        this.position++
        if (next === 'x') {
          const hex = this.input.slice(this.position, this.position + 2)
          if (!/^[0-9a-fA-F]{2}$/.test(hex)) this.fail('two hex digits after \\x')
          value += String.fromCharCode(Number.parseInt(hex, 16))
          this.position += 2
        } else value += escapes[next] ?? next
        continue
      }
      value += char
    }
  }

  number(): TypeArgument & { kind: 'number' } {
    this.skipSpace()
    const match = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(this.input.slice(this.position))
    if (!match) this.fail('a number')
    this.position += match[0].length
    return { kind: 'number', value: Number(match[0]), text: match[0] }
  }

  /** A name that may be backquoted and dotted: `a`, `` `b c` ``, `a.b`. */
  path(): string {
    const parts: string[] = []
    for (;;) {
      parts.push(this.peek() === '`' ? this.quoted('`') : this.identifier())
      if (this.input[this.position] === '.') {
        this.position++
        continue
      }
      return parts.join('.')
    }
  }

  type(): TypeNode {
    const name = this.identifier()
    if (this.peek() !== '(') return { name, args: [], parenthesized: false }
    this.position++
    const args: TypeArgument[] = []
    if (this.peek() === ')') {
      this.position++
      return { name, args, parenthesized: true }
    }
    for (let index = 0; ; index++) {
      args.push(this.argument(name, index, args))
      const next = this.peek()
      if (next === ',') {
        this.position++
        continue
      }
      if (next === ')') {
        this.position++
        return { name, args, parenthesized: true }
      }
      this.fail(next === '' ? `')' to close ${name}(` : `',' or ')' in ${name}(...)`)
    }
  }

  argument(family: string, index: number, previous: readonly TypeArgument[]): TypeArgument {
    const char = this.peek()
    const code = char.charCodeAt(0)
    if (char === '') this.fail(`an argument of ${family}`)
    if (char === "'") {
      const value = this.quoted("'")
      if (this.peek() === '=') {
        this.position++
        const number = this.number()
        if (!Number.isInteger(number.value)) this.fail('an integer enum value')
        return { kind: 'enum', name: value, value: number.value }
      }
      // Enums may omit values; ClickHouse then numbers them from 1.
      if (family.startsWith('Enum')) return { kind: 'enum', name: value, value: index + 1 }
      return { kind: 'string', value }
    }
    if ((code >= 48 && code <= 57) || char === '-' || char === '+' || char === '.') return this.number()
    if (aggregateFamilies.has(family) && !previous.some((arg) => arg.kind === 'function')) {
      return this.aggregateFunction()
    }
    if (char === '`') return this.named()
    if (!isIdentifierStart(code)) this.fail(`an argument of ${family}`)
    const start = this.position
    const word = this.path()
    const after = this.peek()
    if (settingFamilies.has(family)) {
      if (word === 'SKIP') {
        this.skipSpace()
        if (
          this.input.startsWith('REGEXP', this.position) &&
          !isIdentifierPart(this.input.charCodeAt(this.position + 6))
        ) {
          this.position += 6
          return { kind: 'skip', path: this.quoted("'"), regexp: true }
        }
        return { kind: 'skip', path: this.path(), regexp: false }
      }
      if (after === '=') {
        this.position++
        const valueChar = this.peek()
        const value: TypeArgument =
          valueChar === "'" ? { kind: 'string', value: this.quoted("'") } : this.number()
        return { kind: 'setting', name: word, value }
      }
    }
    if (after === '(' || after === ',' || after === ')' || after === '') {
      if (word.includes('.')) this.fail('a type after the name', this.position)
      this.position = start
      return { kind: 'type', type: this.type() }
    }
    // `name Type`: a named element.
    return { kind: 'type', name: word, type: this.type() }
  }

  named(): TypeArgument {
    const name = this.path()
    return { kind: 'type', name, type: this.type() }
  }

  aggregateFunction(): TypeArgument {
    const name = this.identifier()
    const params: TypeArgument[] = []
    if (this.peek() === '(') {
      this.position++
      if (this.peek() !== ')') {
        for (;;) {
          const char = this.peek()
          if (char === "'") params.push({ kind: 'string', value: this.quoted("'") })
          else if (isIdentifierStart(char.charCodeAt(0)))
            params.push({ kind: 'function', name: this.identifier(), params: [] })
          else params.push(this.number())
          if (this.peek() === ',') {
            this.position++
            continue
          }
          break
        }
      }
      this.expect(')')
    }
    return { kind: 'function', name, params }
  }
}

/**
 * Parses a type name as ClickHouse prints it (column types, `{x:Type}` placeholders).
 *
 * @throws {TypeParseError} with the 0-based position of the problem.
 * @example
 * ```ts
 * parseType("Array(Nullable(LowCardinality(String)))")
 * parseType("Tuple(a UInt8, `b c` String)")
 * ```
 */
export function parseType(text: string): TypeNode {
  const parser = new Parser(text)
  const node = parser.type()
  parser.skipSpace()
  if (parser.position < text.length) parser.fail('the end of the type name')
  return node
}

const cache = new Map<string, TypeNode>()

/** {@link parseType} with a cache: blocks repeat the same column types. */
export function parseTypeCached(text: string): TypeNode {
  let node = cache.get(text)
  if (node === undefined) {
    node = parseType(text)
    if (cache.size > 10_000) cache.clear()
    cache.set(text, node)
  }
  return node
}
