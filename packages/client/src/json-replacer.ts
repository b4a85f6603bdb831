/**
 * The replacer that makes `JSON.stringify` work on query results, exactly:
 * `JSON.stringify(rows, jsonReplacer)`. Without it, any 64-bit value (a `count()`, a
 * UInt64 column) makes `JSON.stringify` throw on its BigInt.
 *
 * The text is what ClickHouse's own JSON formats print (`FORMAT JSONEachRow`) with its
 * settings for exact JSON, `output_format_json_quote_64bit_integers = 1` (the default of
 * older servers, 18.16 among them), `output_format_json_quote_decimals = 1` and
 * `output_format_decimal_trailing_zeros = 1`, given the default value mapping:
 *
 * - Int64, UInt64, Int128…UInt256 and Interval values (bigints) become decimal strings:
 *   `"18446744073709551615"`, as the server quotes them.
 * - Decimals are already exact strings with every digit of their scale (`"-1.500"` for
 *   `toDecimal64(-1.5, 3)`), as the server quotes them with trailing zeros kept; 26.x by
 *   default drops them (`-1.5`, the same number), 18.16 always keeps them.
 * - Dates, times, UUID, IPv4/6 and Enum are the server's own text; Nullable NULL is `null`;
 *   arrays, tuples (arrays, or objects for named tuples) and JSON objects nest as usual.
 * - A Map becomes an object keyed by each key's text (`{"1":"x"}`), as the server prints
 *   Map; typed arrays (from `columns()`) become arrays.
 * - NaN and ±Infinity become `null`, as the server prints them by default
 *   (`output_format_json_quote_denormals = 0`).
 *
 * Where a JS value cannot say what the server would: a Float32 is written as the double
 * it decodes to (`0.10000000149011612` where the server prints `0.1`; both read back as
 * the same Float32), `-0` is written `0`, and with the `dates: 'date'` mapping a `Date`
 * is written as its ISO instant (JSON.stringify applies `Date#toJSON` first).
 *
 * @example
 * ```ts
 * const rows = await (await ch.query('SELECT count() AS n FROM system.numbers LIMIT 3')).rows()
 * JSON.stringify(rows, jsonReplacer) // '[{"n":"3"}]'
 * ```
 */
export function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Map) return mapObject(value)
  // A typed array would otherwise become {"0":…,"1":…}.
  if (ArrayBuffer.isView(value) && !(value instanceof DataView))
    return Array.from(value as unknown as ArrayLike<unknown>)
  return value
}

/** A Map as the object ClickHouse prints for it: each key's text, values left to the replacer. */
function mapObject(map: Map<unknown, unknown>): Record<string, unknown> {
  const object: Record<string, unknown> = {}
  for (const [key, value] of map) {
    const name = typeof key === 'object' && key !== null ? JSON.stringify(key, jsonReplacer) : String(key)
    // defineProperty: a key named `__proto__` is an own property, never the prototype.
    Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true })
  }
  return object
}
