import {
  modernParameterFeatures,
  type ParameterTypeFeatures,
  quoteQualifiedName,
  type TypedArray,
  type TypeNode,
  typeToString,
  UsageError,
} from '@clickwire/protocol'
import { inferParameterType } from '@clickwire/protocol/params'
import { fragmentBrand, isSqlFragment } from './sql-fragment-brand.js'

/** Values `sql` accepts inline: each becomes a typed server-side parameter. */
export type SqlValue =
  | string
  | number
  | bigint
  | boolean
  | Date
  | null
  | undefined
  | TypedArray
  | readonly SqlValue[]
  | ReadonlyMap<SqlValue, SqlValue>
  | { readonly [key: string]: SqlValue }

/** What may appear inside `${...}` of a `sql` template. */
export type SqlInterpolation = SqlValue | SqlFragment | SqlIdentifier | SqlRaw | SqlTypedValue

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * `sql.id(...)`: a quoted identifier (`db`.`table`). Refuses an empty name (no identifier
 * is empty) and a name with a lone UTF-16 surrogate (it has no UTF-8 encoding).
 */
export class SqlIdentifier {
  constructor(readonly parts: readonly string[]) {
    if (parts.length === 0) throw new UsageError('sql.id() needs at least one name')
    parts.forEach((part, index) => {
      if (typeof part !== 'string') throw new UsageError('sql.id() takes strings')
      if (part === '') throw new UsageError(`sql.id(): name [${index}] is empty`)
      if (loneSurrogate.test(part))
        throw new UsageError(
          `sql.id(): name [${index}] ${JSON.stringify(part)} contains a lone UTF-16 surrogate, which has no UTF-8 encoding`,
        )
    })
  }
  toSql(): string {
    return quoteQualifiedName(this.parts)
  }
}

/** `sql.raw(...)`: SQL text inserted as it is. Never pass user input here. */
export class SqlRaw {
  constructor(readonly text: string) {
    if (typeof text !== 'string') throw new UsageError('sql.raw() takes a string')
  }
}

/** `sql.typed(value, type)`: a parameter with an explicit ClickHouse type. */
export class SqlTypedValue {
  constructor(
    readonly value: unknown,
    readonly type: string,
  ) {}
}

/** A compiled query: text with `{pN:Type}` placeholders and their values. */
export interface CompiledSql {
  readonly query: string
  readonly params: Record<string, unknown>
}

function isListValue(value: SqlInterpolation): boolean {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView))
}

const openInList = /\bIN\s*\(\s*$/i
const closeList = /^\s*\)/

/**
 * `x IN (${array})`: the array is one parameter of type Array(T), so the list holds a
 * single array and the server fails with a type mismatch that names neither the value nor
 * a fix. Neither `IN (...)` nor `IN {p:Array(T)}` takes an array parameter on 18.16, so the
 * fix named is one that works on every server.
 */
function refuseArrayInList(before: string, after: string): void {
  if (openInList.test(before) && closeList.test(after)) {
    throw new UsageError(
      `sql\`... IN (\${array})\`: an array is one parameter of type Array(T), not a list of values, so the server would compare with a single array value; write has(\${array}, column) to test membership, or IN (\${sql.join(array)}) to send each value as its own parameter`,
    )
  }
}

/**
 * A query built by the `sql` tag. Interpolated values never become SQL text: each is a
 * `{pN:Type}` placeholder with its type inferred from the JS value (number -> Int64 or
 * Float64, bigint -> Int64 or UInt64, string -> String, boolean -> Bool, Date ->
 * DateTime64(3), arrays -> Array(T), null -> Nullable). The client compiles it for the
 * server it talks to (old servers lack Bool and DateTime64; see inferParameterType).
 */
export class SqlFragment {
  readonly [fragmentBrand] = true

  constructor(
    readonly strings: readonly string[],
    readonly values: readonly SqlInterpolation[],
  ) {}

  static isInstance(value: unknown): value is SqlFragment {
    return isSqlFragment(value)
  }

  /** Text and parameters, with types inferred for `features` (a server's capabilities). */
  compile(features: ParameterTypeFeatures = modernParameterFeatures): CompiledSql {
    const params: Record<string, unknown> = {}
    let counter = 0
    const visit = (fragment: SqlFragment): string => {
      let text = fragment.strings[0] ?? ''
      for (let index = 0; index < fragment.values.length; index++) {
        const value = fragment.values[index]
        if (isListValue(value))
          refuseArrayInList(fragment.strings[index] ?? '', fragment.strings[index + 1] ?? '')
        text += render(value) + (fragment.strings[index + 1] ?? '')
      }
      return text
    }
    const placeholder = (value: unknown, type: TypeNode | string) => {
      const name = `p${counter++}`
      params[name] = value
      return `{${name}:${typeof type === 'string' ? type : typeToString(type)}}`
    }
    const render = (value: SqlInterpolation): string => {
      if (SqlFragment.isInstance(value)) return visit(value)
      if (value instanceof SqlIdentifier) return value.toSql()
      if (value instanceof SqlRaw) return value.text
      if (value instanceof SqlTypedValue) return placeholder(value.value, value.type)
      return placeholder(value, inferParameterType(value, features))
    }
    return { query: visit(this), params }
  }

  /** The query text with placeholders (types as a modern server would get them). */
  toString(): string {
    return this.compile().query
  }
}

/**
 * Builds a query whose interpolated values are sent as typed parameters, never spliced
 * into the SQL text.
 *
 * @example
 * ```ts
 * const rs = await ch.query(sql`SELECT * FROM ${sql.id('events')} WHERE id = ${id} AND has(${tags}, tag)`)
 * ```
 */
export function sql(strings: TemplateStringsArray, ...values: SqlInterpolation[]): SqlFragment {
  return new SqlFragment(strings, values)
}

/** A quoted identifier: `sql.id('db', 'table')` is `` `db`.`table` ``. */
sql.id = (...parts: string[]): SqlIdentifier => new SqlIdentifier(parts)

/** SQL text inserted as it is. Never pass user input here. */
sql.raw = (text: string): SqlRaw => new SqlRaw(text)

/** A parameter with an explicit type: `sql.typed(5, 'UInt8')`. */
sql.typed = (value: unknown, type: string): SqlTypedValue => new SqlTypedValue(value, type)

/** Joins fragments or values with a separator (default `, `). */
sql.join = (items: readonly SqlInterpolation[], separator: string | SqlFragment = ', '): SqlFragment => {
  const strings = ['']
  const values: SqlInterpolation[] = []
  items.forEach((item, index) => {
    if (index > 0) {
      if (typeof separator === 'string') strings[strings.length - 1] += separator
      else {
        values.push(separator)
        strings.push('')
      }
    }
    values.push(item)
    strings.push('')
  })
  return new SqlFragment(strings, values)
}
