/**
 * Whether a row of columns of `types` holds only values of its own: numbers, bigints,
 * strings, booleans, Dates and nulls, never a view of the block's memory. An Array column's
 * row value is a typed view into the block, a Tuple's or a Map's may hold one, and so may
 * the rarer types; those stay out. Rows iterated over such columns let the transport reuse
 * each block's memory once the next block is asked for (see ResultSet's iterator).
 */
export function rowsHoldNoViews(types: readonly string[]): boolean {
  return types.every((type) => scalarType.test(type))
}

/**
 * A scalar type, under any LowCardinality(...) and Nullable(...) wrappers, with its
 * arguments (`DateTime64(3, 'UTC')`, `Enum8('a' = 1)`): a composite never starts so.
 */
const scalarType =
  /^(?:(?:LowCardinality|Nullable)\()*(?:U?Int(?:8|16|32|64|128|256)|B?Float(?:16|32|64)|Bool|Decimal(?:32|64|128|256)?|String|FixedString|UUID|IPv[46]|Enum(?:8|16)|Date(?:32)?|DateTime(?:64)?|Nothing)\b(?!\s*\w)/
