/**
 * The mark of a `sql` fragment, apart from the `sql` tag itself: the client checks for it
 * on every query, and importing the tag's module for that would put the parameter type
 * inference in every bundle, used or not.
 */
export const fragmentBrand = Symbol.for('clickwire.sql.fragment')

/** Whether `value` is a fragment made by the `sql` tag (of any copy of this package). */
export function isSqlFragment(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[fragmentBrand] === true
  )
}
