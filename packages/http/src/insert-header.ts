import {
  type ColumnMeta,
  ConnectionError,
  type NativeBlock,
  parseTypeCached,
  quoteTableName,
  UsageError,
} from '@clickwire/protocol'

/*
 * The header of an insert over HTTP: names, types and defaults of the columns the rows go
 * to. The native protocol has the server send it for every INSERT; over HTTP it comes from
 * `DESCRIBE TABLE`, asked for every insert too (never cached), so the header is the table
 * as it is when the rows are sent: after an ALTER TABLE, or a DROP and CREATE with other
 * types, the next insert sees the new columns, as over native.
 */

/** The statement that describes the table an insert goes to. */
export function describeTableSql(table: string): string {
  return `DESCRIBE TABLE ${quoteTableName(table)}`
}

/** The columns of a `DESCRIBE TABLE` answer (Native blocks), with their defaults. */
export async function describedColumns(blocks: AsyncIterable<NativeBlock>): Promise<ColumnMeta[]> {
  const out: ColumnMeta[] = []
  for await (const block of blocks) {
    const byName = new Map(block.columns.map((column) => [column.name, column.column]))
    const names = byName.get('name')
    const types = byName.get('type')
    if (!names || !types) throw new ConnectionError('DESCRIBE TABLE answered without name and type columns')
    const kinds = byName.get('default_type')
    const expressions = byName.get('default_expression')
    for (let row = 0; row < block.rows; row++) {
      const type = String(types.get(row))
      out.push({
        name: String(names.get(row)),
        type,
        typeNode: parseTypeCached(type),
        defaultKind: (kinds ? String(kinds.get(row)) : '') as ColumnMeta['defaultKind'],
        defaultExpression: expressions ? String(expressions.get(row)) : '',
      })
    }
  }
  return out
}

/** The header for an insert, or the named columns the table does not have. */
export type InsertHeader =
  | { readonly header: readonly ColumnMeta[]; readonly missing?: undefined }
  | { readonly header?: undefined; readonly missing: readonly string[] }

/**
 * The header for inserting into `columns` (in that order) of a table with columns `all`,
 * or, without names, into every column a row may give (no default, or a plain DEFAULT).
 * Named columns the table lacks are returned as `missing`: the caller lets the server
 * refuse them with its own error, as the native protocol does.
 */
export function insertHeader(
  table: string,
  all: readonly ColumnMeta[],
  columns: readonly string[] | undefined,
): InsertHeader {
  if (!columns) {
    const insertable = all.filter((column) => !column.defaultKind || column.defaultKind === 'DEFAULT')
    if (insertable.length === 0) throw new UsageError(`table ${table} has no column that can be inserted`)
    return { header: insertable }
  }
  const byName = new Map(all.map((column) => [column.name, column]))
  const missing = columns.filter((name) => !byName.has(name))
  if (missing.length > 0) return { missing }
  return { header: columns.map((name) => byName.get(name)!) }
}
