import { describeValue } from '../columns/column-codec.js'
import { UsageError } from '../errors/usage-error.js'
import { quoteSqlString } from '../sql/sql-quoting.js'
import { type TypeNode, typeToString } from '../types/type-node.js'

/**
 * A parameter value checked against its declared type and reduced to what both ways of
 * sending it need. The server-side path prints `text` (escaped or quoted, see
 * server-parameters.ts); the client-side path prints `sql` (see parameter-substitution.ts).
 * Both are made from the same checked value, which is how the two paths stay identical.
 */
export type ParameterValue = NullParameter | ScalarParameter | CompositeParameter

export interface NullParameter {
  readonly kind: 'null'
}

export interface ScalarParameter {
  readonly kind: 'scalar'
  /** The value as the type's text reader expects it, before any escaping: `it's`, `2017-01-04`, `-12.5`. */
  readonly text: string
  /** `text` holds one byte per char (from a Uint8Array); bytes from 0x80 are written as `\xHH`. */
  readonly binary: boolean
  /** Inside Array/Tuple/Map text the value is single-quoted (strings, dates) or bare (numbers, `true`). */
  readonly quoted: boolean
  /** An `Identifier` parameter: the server uses the text as-is, without unescaping it. */
  readonly identifier: boolean
  /** A SQL expression for the value, for client-side substitution. */
  readonly sql: string
  /**
   * The type `sql` evaluates to, as `typeToString` prints it. When it differs from the type
   * the value is substituted as, the printer wraps `sql` in `CAST(... AS type)`. `String` for
   * a string literal that ClickHouse casts exactly to the declared type or any Nullable or
   * LowCardinality of it; empty when a CAST is always needed.
   */
  readonly sqlType: string
}

export interface CompositeParameter {
  readonly kind: 'array' | 'tuple' | 'map'
  /** Elements; for maps, keys and values alternate. */
  readonly items: readonly ParameterValue[]
}

export const nullParameter: NullParameter = Object.freeze({ kind: 'null' })

/** Where a value sits, for error messages: `parameter {ids:Array(UInt64)} [2]`. */
export interface ParameterPath {
  readonly placeholder: string
  readonly path: string
}

/** The error for a value that does not fit its declared type. */
export function parameterError(
  at: ParameterPath,
  type: TypeNode | string,
  value: unknown,
  why = '',
): UsageError {
  const typeName = typeof type === 'string' ? type : typeToString(type)
  return new UsageError(
    `parameter ${at.placeholder}${at.path}: ${describeValue(value)} is not a valid ${typeName}${why ? ` (${why})` : ''}`,
  )
}

/**
 * A scalar substituted as a string literal of its text, which ClickHouse's CAST reads exactly
 * as the declared type (checked live on 18.16 for integers, decimals, dates, UUID, enums,
 * FixedString, and their Nullable and LowCardinality forms).
 */
export function castableScalar(text: string, quoted: boolean, binary = false): ScalarParameter {
  const sql = quoteSqlString(text, { binary })
  return { kind: 'scalar', text, binary, quoted, identifier: false, sql, sqlType: 'String' }
}

/** A scalar substituted as the SQL expression `sql`, which evaluates to type `sqlType` ('' forces a CAST). */
export function expressionScalar(
  text: string,
  quoted: boolean,
  sql: string,
  sqlType: string,
): ScalarParameter {
  return { kind: 'scalar', text, binary: false, quoted, identifier: false, sql, sqlType }
}

/** Turns one JS value into a checked scalar of `type`, or throws a UsageError. */
export type ScalarHandler = (type: TypeNode, value: unknown, at: ParameterPath) => ScalarParameter
