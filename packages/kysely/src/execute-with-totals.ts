import type { Compilable, Kysely } from 'kysely'
import type { ClickHouseQueryResult } from './clickhouse-connection.js'

/**
 * Runs a query and returns its rows together with what ClickHouse sends besides them: the
 * WITH TOTALS row, the extremes (with the `extremes` setting) and the query id. `execute()`
 * returns the rows only, as Kysely defines it.
 *
 * @example
 * ```ts
 * const { rows, totals } = await executeWithTotals(
 *   db,
 *   db.selectFrom('events').select(['kind', (eb) => eb.fn.countAll<bigint>().as('n')]).groupBy('kind').$call(withTotals()),
 * )
 * // rows: [{ kind: 'buy', n: 2n }, { kind: 'view', n: 5n }]; totals: { kind: '', n: 7n }
 * ```
 */
export async function executeWithTotals<O>(
  // biome-ignore lint/suspicious/noExplicitAny: any database; the query carries the row type.
  db: Kysely<any>,
  query: Compilable<O>,
): Promise<ClickHouseQueryResult<O>> {
  return (await db.executeQuery(query)) as ClickHouseQueryResult<O>
}
