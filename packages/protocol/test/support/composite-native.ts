// Helpers for the composite-type integration tests: Native bodies over HTTP (18.16) and
// through chdb. Not part of the published build.
import './codecs-loaded.js'
import { NativeBlockReader } from '../../src/blocks/native-block-reader.js'
import { type ColumnToWrite, NativeBlockWriter } from '../../src/blocks/native-block-writer.js'
import type { CodecContext } from '../../src/columns/column-codec.js'
import { ByteReader } from '../../src/io/byte-reader.js'
import { ByteWriter } from '../../src/io/byte-writer.js'
import { defaultValueMapping } from '../../src/types/value-mapping.js'

/** The Native format's framing: revision 0, no BlockInfo. */
export const formatContext: CodecContext = { revision: 0, timezone: 'UTC', mapping: defaultValueMapping }

/** Encodes blocks as a Native format body (one writer, so codecs keep their state). */
export function encodeNative(
  blocks: readonly { columns: readonly ColumnToWrite[]; rows: number }[],
): Uint8Array {
  const writer = new ByteWriter()
  const blockWriter = new NativeBlockWriter(formatContext, false)
  for (const block of blocks) blockWriter.write(writer, block.columns, block.rows)
  return writer.copy()
}

/** Decodes a whole Native format body; returns the rows of each column, all blocks concatenated. */
export function decodeNative(bytes: Uint8Array): { names: string[]; types: string[]; columns: unknown[][] } {
  const reader = new ByteReader(bytes)
  const blockReader = new NativeBlockReader(formatContext, false)
  const result = { names: [] as string[], types: [] as string[], columns: [] as unknown[][] }
  while (reader.offset < bytes.length) {
    const block = blockReader.read(reader)
    if (!block)
      throw new Error(`Native body cut at ${reader.offset} of ${bytes.length} (missing ${reader.missing})`)
    block.columns.forEach((column, index) => {
      result.names[index] = column.name
      result.types[index] = column.typeName
      const values = (result.columns[index] ??= [])
      const rows = column.column.values()
      for (let row = 0; row < rows.length; row++) values.push(rows[row])
    })
  }
  return result
}

/** Server coordinates the tests need (a subset of @clickwire/testing's ServerInfo). */
export interface HttpServer {
  readonly httpUrl: string
  readonly users: { readonly default: { readonly user: string; readonly password: string } }
}

/** Runs a query over HTTP and returns the body; throws with the server's text on errors. */
export async function httpQuery(server: HttpServer, sql: string, body?: Uint8Array): Promise<Uint8Array> {
  const { user, password } = server.users.default
  const url = `${server.httpUrl}/?query=${encodeURIComponent(sql)}`
  const response = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Basic ${btoa(`${user}:${password}`)}` },
    body: body ?? '',
  })
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (response.status !== 200)
    throw new Error(`HTTP ${response.status} for ${sql}: ${new TextDecoder().decode(bytes).slice(0, 500)}`)
  return bytes
}

/** A table name no other test uses. */
export function uniqueTable(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
}

/** Parses JSONEachRow output into row objects. */
export function parseJsonEachRow(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}
