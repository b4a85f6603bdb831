// Helpers for the scalar-type integration tests: Native format bodies (revision 0, no
// BlockInfo) over HTTP, and ClickHouse's TSV escaping. Not part of the published build.
import './codecs-loaded.js'
import { NativeBlockReader } from '../../src/blocks/native-block-reader.js'
import { type ColumnToWrite, NativeBlockWriter } from '../../src/blocks/native-block-writer.js'
import type { CodecContext } from '../../src/columns/column-codec.js'
import { ByteReader } from '../../src/io/byte-reader.js'
import { ByteWriter } from '../../src/io/byte-writer.js'
import { defaultValueMapping, type ValueMapping } from '../../src/types/value-mapping.js'

/** The context of the Native format over HTTP: revision 0, the server's zone. */
export function nativeContext(timezone: string, mapping: Partial<ValueMapping> = {}): CodecContext {
  return { revision: 0, timezone, mapping: { ...defaultValueMapping, ...mapping } }
}

/** One Native format block, as `new NativeBlockWriter({ revision: 0, ... }, false)` writes it. */
export function encodeNativeBlock(
  context: CodecContext,
  columns: readonly ColumnToWrite[],
  rows: number,
): Uint8Array {
  const writer = new ByteWriter()
  new NativeBlockWriter(context, false).write(writer, columns, rows)
  return writer.copy()
}

/** A whole Native format body decoded: per column its name, type and the rows of all blocks (via `get`). */
export interface DecodedBody {
  readonly names: string[]
  readonly types: string[]
  readonly columns: unknown[][]
}

export function decodeNativeBody(context: CodecContext, bytes: Uint8Array): DecodedBody {
  const reader = new ByteReader(bytes)
  const blocks = new NativeBlockReader(context, false)
  const body: DecodedBody = { names: [], types: [], columns: [] }
  while (reader.offset < bytes.length) {
    const block = blocks.read(reader)
    if (!block) throw new Error(`Native body cut at ${reader.offset} of ${bytes.length}`)
    block.columns.forEach((entry, index) => {
      body.names[index] = entry.name
      body.types[index] = entry.typeName
      const rows = (body.columns[index] ??= [])
      for (let row = 0; row < entry.column.length; row++) rows.push(entry.column.get(row))
    })
  }
  return body
}

/** What the tests need of a server. */
export interface ScalarServer {
  readonly httpUrl: string
  readonly users: { readonly default: { readonly user: string; readonly password: string } }
}

/** Runs a query over HTTP (optionally with a body) and returns the response bytes; throws on errors. */
export async function httpQuery(server: ScalarServer, sql: string, body?: Uint8Array): Promise<Uint8Array> {
  const { user, password } = server.users.default
  const response = await fetch(`${server.httpUrl}/?query=${encodeURIComponent(sql)}`, {
    method: 'POST',
    headers: { Authorization: `Basic ${btoa(`${user}:${password}`)}` },
    body: body ?? '',
  })
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (response.status !== 200)
    throw new Error(`HTTP ${response.status} for ${sql}: ${new TextDecoder().decode(bytes).slice(0, 400)}`)
  return bytes
}

/** `prefix_<random>`: a table name of one test file's own. */
export function scalarTableName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
}

const escapes: Record<string, string> = {
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\0': '\\0',
  '\\': '\\\\',
  "'": "\\'",
}

/** A string as ClickHouse 18.16 writes it in TSV (writeEscapedString). */
export function tsvEscape(text: string): string {
  return text.replace(/[\b\f\n\r\t\0\\']/g, (char) => escapes[char]!)
}

/** TSV output split into rows of fields (still escaped). */
export function tsvRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'))
}
