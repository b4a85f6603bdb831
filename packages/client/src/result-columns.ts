import type { TypedArray } from '@clickwire/protocol'

/** The typed arrays numeric columns come in (64-bit integers as bigint aside). */
export type NumberArray = Exclude<TypedArray, BigInt64Array | BigUint64Array>

/**
 * The values of one column, by the type of one value: a typed array for numbers (a
 * Float64Array for Int64 with `int64: 'number'` or Decimal with `decimal: 'number'`), a
 * BigInt64Array/BigUint64Array for 64-bit integers as bigint, a JS array otherwise
 * (Nullable and LowCardinality columns included, whose values are not all numbers).
 */
export type ColumnValuesOf<Value> = unknown extends Value
  ? ArrayLike<unknown>
  : [Value] extends [number]
    ? NumberArray | number[]
    : [Value] extends [bigint]
      ? BigInt64Array | BigUint64Array | bigint[]
      : Value[]

/** Column values of a result (or one block), by column name. */
export type ResultColumns<Row> = { [Key in keyof Row]: ColumnValuesOf<Row[Key]> }
