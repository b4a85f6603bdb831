import picomatch from 'picomatch'

/** Which tables of a database introspection keeps. */
export type TableFilter = (database: string, table: string) => boolean

/**
 * The storage tables of materialized views (`.inner.mv`, `.inner_id.<uuid>`): queried
 * through their view, so left out unless an include glob names them.
 */
function isInnerTable(table: string): boolean {
  return table.startsWith('.inner.') || table.startsWith('.inner_id.')
}

/**
 * A filter from include and exclude globs. A glob matches a table when it matches the
 * table name or `database.table`, so `events_*` and `analytics.*` both work. Without
 * includes every table is kept except the inner tables of materialized views.
 *
 * @example
 * ```ts
 * const keep = tableFilter(['events_*'], ['*_tmp'])
 * keep('default', 'events_2024') // true
 * keep('default', 'events_tmp') // false
 * ```
 */
export function tableFilter(include: readonly string[] = [], exclude: readonly string[] = []): TableFilter {
  // `dot` so that `*` also matches names that start with a dot, like other names.
  const options = { dot: true }
  const matchers = (globs: readonly string[]) => globs.map((glob) => picomatch(glob, options))
  const includes = matchers(include)
  const excludes = matchers(exclude)
  const matches = (list: readonly ((name: string) => boolean)[], database: string, table: string) =>
    list.some((match) => match(table) || match(`${database}.${table}`))
  return (database, table) => {
    const included = includes.length === 0 ? !isInnerTable(table) : matches(includes, database, table)
    return included && !matches(excludes, database, table)
  }
}
