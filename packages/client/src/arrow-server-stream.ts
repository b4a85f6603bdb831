import type { RawStream } from '@clickwire/protocol'
import {
  makeData,
  RecordBatch,
  RecordBatchReader,
  type Schema,
  Struct,
  type Table,
  tableFromIPC,
} from 'apache-arrow'
import { arrowIpcParts } from './arrow-ipc-messages.js'
import type { ArrowConverter } from './arrow-table.js'

/**
 * The result of a query the server wrote as ArrowStream (asked with
 * {@link serverArrowSettings}), as the Table `arrow()` gives over Native: undefined, with
 * the query stopped and nothing more read, when the server's schema is not the one the
 * Native conversion (`converter`) builds (the caller then runs the query over Native).
 */
export async function serverArrowTable(
  raw: RawStream,
  converter: ArrowConverter,
): Promise<Table | undefined> {
  const parts: Uint8Array[] = []
  let checked = false
  for await (const part of arrowIpcParts(raw)) {
    parts.push(part)
    // The first message is the schema, which has no body: its prefix and its metadata.
    if (!checked && parts.length === 2) {
      checked = true
      const schema = RecordBatchReader.from(parts).open().schema
      if (!sameSchema(schema, converter.schema)) {
        await raw.cancel()
        return undefined
      }
    }
  }
  if (!checked) return converter.table([])
  // Batches as arrow() makes them: none for a block without rows, the converter's schema.
  const batches = tableFromIPC(parts).batches.filter((batch) => batch.numRows > 0)
  return converter.table(batches.map((batch) => retyped(batch, converter.schema)))
}

/**
 * The batch with the types of `schema`, buffers shared. apache-arrow decodes IPC into its
 * generic classes (`Int_` of 32 bits), arrow() builds the named ones (`Int32`): equal in
 * every field, but `instanceof` and apache-arrow's own Table check tell them apart.
 */
function retyped(batch: RecordBatch, schema: Schema): RecordBatch {
  const fields = schema.fields
  const children = batch.data.children.map((child, index) => child.clone(fields[index]!.type))
  const data = makeData({ type: new Struct(fields), length: batch.numRows, nullCount: 0, children })
  return new RecordBatch(schema, data)
}

/**
 * Field names, types (widths, units, zones, sign), nullability and metadata, in order: what
 * makes two tables' schemas print and behave alike.
 */
export function sameSchema(a: Schema, b: Schema): boolean {
  return (
    a.fields.length === b.fields.length &&
    sameMetadata(a.metadata, b.metadata) &&
    a.fields.every((field, index) => {
      const other = b.fields[index]!
      return (
        field.name === other.name &&
        field.nullable === other.nullable &&
        field.typeId === other.typeId &&
        String(field.type) === String(other.type) &&
        sameMetadata(field.metadata, other.metadata)
      )
    })
  )
}

function sameMetadata(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([key, value]) => b.get(key) === value)
}
