/**
 * A runtime predicate from TypeScript type text, for the shapes codegen writes: `number`,
 * `bigint`, `string`, `boolean`, `null`, `unknown`, `never`, `Date`, `Uint8Array`,
 * `Record<string, unknown>`, string literals, unions, `T[]`, tuples `[A, B]`, object
 * types `{ a: A; "b c": B }` and `Map<K, V>`. It checks what `typeof` / `instanceof` can:
 * a test of runtime values against generated types, not a type checker.
 */
export type ValuePredicate = (value: unknown) => boolean

class TypeTextParser {
  private at = 0
  constructor(private readonly text: string) {}

  parse(): ValuePredicate {
    const predicate = this.union()
    this.space()
    if (this.at !== this.text.length) this.fail('end of type')
    return predicate
  }

  private fail(expected: string): never {
    throw new Error(`cannot read type text ${JSON.stringify(this.text)} at ${this.at}: expected ${expected}`)
  }

  private space(): void {
    while (this.text[this.at] === ' ') this.at++
  }

  private eat(token: string): boolean {
    this.space()
    if (this.text.startsWith(token, this.at)) {
      this.at += token.length
      return true
    }
    return false
  }

  private expect(token: string): void {
    if (!this.eat(token)) this.fail(JSON.stringify(token))
  }

  private union(): ValuePredicate {
    const members = [this.postfix()]
    while (this.eat('|')) members.push(this.postfix())
    return members.length === 1 ? members[0]! : (value) => members.some((member) => member(value))
  }

  /** A primary followed by any number of `[]`. */
  private postfix(): ValuePredicate {
    let predicate = this.primary()
    while (this.eat('[]')) {
      const element = predicate
      predicate = (value) => Array.isArray(value) && value.every((item) => element(item))
    }
    return predicate
  }

  private primary(): ValuePredicate {
    this.space()
    if (this.eat('(')) {
      const inner = this.union()
      this.expect(')')
      return inner
    }
    if (this.text[this.at] === '"') return this.literal()
    if (this.eat('[')) return this.tuple()
    if (this.eat('{')) return this.object()
    const name = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(this.text.slice(this.at))?.[0]
    if (!name) this.fail('a type')
    this.at += name.length
    switch (name) {
      case 'number':
        return (value) => typeof value === 'number'
      case 'bigint':
        return (value) => typeof value === 'bigint'
      case 'string':
        return (value) => typeof value === 'string'
      case 'boolean':
        return (value) => typeof value === 'boolean'
      case 'null':
        return (value) => value === null
      case 'unknown':
        return () => true
      case 'never':
        return () => false
      case 'Date':
        return (value) => value instanceof Date && !Number.isNaN(value.getTime())
      case 'Uint8Array':
        return (value) => value instanceof Uint8Array
      case 'Record': {
        this.expect('<')
        this.expect('string')
        this.expect(',')
        const entry = this.union()
        this.expect('>')
        return (value) => isPlainObject(value) && Object.values(value).every((item) => entry(item))
      }
      case 'Map': {
        this.expect('<')
        const key = this.union()
        this.expect(',')
        const entry = this.union()
        this.expect('>')
        return (value) => value instanceof Map && [...value].every(([k, v]) => key(k) && entry(v))
      }
      default:
        return this.fail(`a known type name, not ${name}`)
    }
  }

  private literal(): ValuePredicate {
    const start = this.at
    this.at++
    while (this.at < this.text.length && this.text[this.at] !== '"') {
      if (this.text[this.at] === '\\') this.at++
      this.at++
    }
    if (this.text[this.at] !== '"') this.fail('closing quote')
    this.at++
    const expected = JSON.parse(this.text.slice(start, this.at)) as string
    return (value) => value === expected
  }

  private tuple(): ValuePredicate {
    const elements: ValuePredicate[] = []
    if (!this.eat(']')) {
      do elements.push(this.union())
      while (this.eat(','))
      this.expect(']')
    }
    return (value) =>
      Array.isArray(value) &&
      value.length === elements.length &&
      elements.every((element, i) => element(value[i]))
  }

  private object(): ValuePredicate {
    const fields: [string, ValuePredicate][] = []
    if (!this.eat('}')) {
      do {
        this.space()
        let key: string
        if (this.text[this.at] === '"') {
          const start = this.at
          this.literal()
          key = JSON.parse(this.text.slice(start, this.at)) as string
        } else {
          const name = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(this.text.slice(this.at))?.[0]
          if (!name) this.fail('a key')
          this.at += name.length
          key = name
        }
        this.expect(':')
        fields.push([key, this.union()])
      } while (this.eat(';'))
      this.expect('}')
    }
    return (value) =>
      isPlainObject(value) &&
      Object.keys(value).length === fields.length &&
      fields.every(([key, field]) => Object.hasOwn(value, key) && field(value[key]))
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** The predicate of a type text; throws for shapes it does not know, so no check passes silently. */
export function typeTextPredicate(text: string): ValuePredicate {
  return new TypeTextParser(text).parse()
}
