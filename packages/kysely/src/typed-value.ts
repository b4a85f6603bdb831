import { TypedValue } from '@clickwire/protocol'
import { type RawBuilder, sql } from 'kysely'
import { placeholderType } from './parameter-types.js'

/**
 * A value sent with an explicit ClickHouse type instead of the inferred one: the compiler
 * writes `{pN:<type>}`. For tuples (never inferred), narrow integer types, Dates as `Date`,
 * Decimals, and anything whose JS value does not say its ClickHouse type.
 *
 * The value first, like Kysely's own `sql.val(value)` and the client's `sql.typed(value,
 * type)`. It makes the protocol's {@link TypedValue} (what `typedValue(type, value)` makes,
 * type first, for Dynamic and Variant columns), and the compiler takes those too.
 *
 * @example
 * ```ts
 * db.selectFrom('events').selectAll().where('day', '=', typed('2024-05-01', 'Date'))
 * // select * from `events` where `day` = {p0:Date}
 * db.selectFrom('points').selectAll().where(sql`(x, y)`, 'in', [typed([1, 2], 'Tuple(UInt8, UInt8)')])
 * ```
 */
export function typed<T>(value: T, type: string): RawBuilder<T> {
  return sql.val(new TypedValue(placeholderType(type), value) as unknown as T)
}
