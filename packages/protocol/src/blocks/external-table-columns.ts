import { codecsReady } from '../columns/codec-registry.js'
import type { ColumnInput } from '../columns/column-codec.js'
import { UsageError } from '../errors/usage-error.js'
import type { ExternalTable } from '../transport/transport-contract.js'
import { parseTypeCached } from '../types/type-parser.js'
import type { ColumnToWrite } from './native-block-writer.js'

/**
 * An external table's values as the columns of one Native block, whichever shape its data
 * came in (rows as objects, or one value array per column). Both transports send this
 * block: native in a Data packet, HTTP as a multipart file in the Native format. The codecs
 * of rarer types (Dynamic, JSON, ...) are loaded before it returns.
 */
export async function externalTableColumns(
  table: ExternalTable,
): Promise<{ readonly columns: ColumnToWrite[]; readonly rows: number }> {
  const columns = table.columns.map((column): ColumnToWrite => {
    const values: ArrayLike<unknown> | undefined = Array.isArray(table.data)
      ? (table.data as readonly Record<string, unknown>[]).map((row) => row[column.name])
      : (table.data as Readonly<Record<string, ColumnInput>>)[column.name]
    if (values === undefined)
      throw new UsageError(`external table ${table.name} has no values for ${column.name}`)
    return { name: column.name, type: column.type, values: values as ColumnInput }
  })
  await codecsReady(table.columns.map((column) => parseTypeCached(column.type)))
  return { columns, rows: columns[0]?.values.length ?? 0 }
}
