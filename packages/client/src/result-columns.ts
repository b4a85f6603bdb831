/** The typed arrays numeric columns come in. */
export type NumberArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array

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
