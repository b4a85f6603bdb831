import { quoteSqlString } from '../sql/sql-quoting.js'

/*
 * The packets' names for the SQL-text toolkit (sql/sql-quoting.ts), which query-settings.ts
 * and the internal entry point still import.
 */
export { unescapeSqlText as unescapeText, unquoteSqlString as unquoteLiteral } from '../sql/sql-quoting.js'

/**
 * `text` as `writeQuoted` writes it (`'it\'s'`): a custom setting's value (its Field dump) as
 * clickhouse-client sends it, which the server reads back with `readQuoted`.
 */
export function quoteLiteral(text: string): string {
  return quoteSqlString(text, { escapes: 'server' })
}
