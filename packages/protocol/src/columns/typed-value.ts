/**
 * A value with the ClickHouse type it should be written as, for columns whose type does
 * not say it: a Variant alternative, a Dynamic value, a JSON path. Without it the encoder
 * infers a type from the JS value (string -> String, integer -> Int64, ...).
 *
 * @example
 * ```ts
 * await ch.insert('t', [{ v: typedValue('UInt8', 7) }, { v: typedValue('Array(String)', ['a']) }])
 * ```
 */
export class TypedValue {
  constructor(
    /** The ClickHouse type name, e.g. `UInt8`, `Array(String)`. */
    readonly type: string,
    readonly value: unknown,
  ) {}
}

/** Tags `value` with the ClickHouse type to write it as (see {@link TypedValue}). */
export function typedValue(type: string, value: unknown): TypedValue {
  return new TypedValue(type, value)
}
