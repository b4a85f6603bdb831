import { UsageError } from '../errors/usage-error.js'

/**
 * A table name for `INSERT INTO` / `DESCRIBE TABLE`, the same on every transport: a plain
 * `table` or `db.table` has each part backquoted; anything else (already quoted, a table
 * function such as `remote(...)`) is taken as SQL the caller wrote. A blank name is refused.
 */
export function quoteTableName(table: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(table)) {
    return table
      .split('.')
      .map((part) => `\`${part}\``)
      .join('.')
  }
  if (/^\s*$/.test(table)) throw new UsageError('insert needs a table name')
  return table
}
