import type { DataType, TypeMap } from 'apache-arrow'

/**
 * The apache-arrow schema type of `arrow()` for rows of type `Row`: one Arrow column per
 * key of `Row` (so `table.getChild('id')` knows its names), each an Arrow `DataType`. The
 * Arrow type of a column follows the ClickHouse type, not the JS one (a `string` may be a
 * Utf8, a Timestamp or a Decimal; see the README's Arrow table), so it is not narrowed
 * further. Untyped rows (`RowObject`) give Arrow's own `TypeMap`: any name, never `any`.
 *
 * @example
 * ```ts
 * const table = await (await ch.query<{ id: number; name: string }>('SELECT id, name FROM t')).arrow()
 * table.getChild('id') // Vector<DataType> | null; getChild('nope') does not compile
 * ```
 */
export type ArrowTypeMapOf<Row> = string extends keyof Row
  ? TypeMap
  : { [Key in keyof Row & string]: DataType }
