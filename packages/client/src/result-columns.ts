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

type TypedArray = NumberArray | BigInt64Array | BigUint64Array

function isTypedArray(value: ArrayLike<unknown>): value is TypedArray {
  return ArrayBuffer.isView(value) && !(value instanceof DataView)
}

/**
 * Joins the values of one column across blocks: typed arrays of one kind into one typed
 * array (one `set` per block), anything else into one JS array.
 */
export function concatValues(parts: readonly ArrayLike<unknown>[]): ArrayLike<unknown> {
  if (parts.length === 1) return parts[0]!
  const first = parts[0]
  if (first === undefined) return []
  if (isTypedArray(first) && parts.every((part) => part.constructor === first.constructor)) {
    let total = 0
    for (const part of parts) total += part.length
    const Constructor = first.constructor as new (length: number) => TypedArray
    const joined = new Constructor(total)
    let at = 0
    for (const part of parts) {
      ;(joined as { set(array: ArrayLike<unknown>, offset: number): void }).set(part, at)
      at += part.length
    }
    return joined
  }
  let total = 0
  for (const part of parts) total += part.length
  const joined = new Array<unknown>(total)
  let at = 0
  for (const part of parts) for (let i = 0; i < part.length; i++) joined[at++] = part[i]
  return joined
}
