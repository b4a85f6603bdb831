import {
  ClickHouseError,
  type ColumnMeta,
  canonicalTypeName,
  parseType,
  type RawStream,
  type ServerInfo,
  type TypeNode,
  versionAtLeast,
} from '@clickwire/protocol'
import type { Table } from 'apache-arrow'
import { loadArrow } from './arrow-loader.js'
import type { ArrowTypeMapOf } from './arrow-type-map.js'
import type { QueryCallOptions, RawQueryCallOptions } from './clickwire-client.js'
import type { ResultSet } from './result-set.js'
import type { SqlFragment } from './sql-template.js'

/**
 * The ClickHouse families whose ArrowStream column (with {@link serverArrowSettings}) is
 * the one `arrow()` builds from Native: the same Arrow type and the same values. Others
 * differ (DateTime is a Uint32 there, UUID a FixedSizeBinary(16), LowCardinality no
 * dictionary) or were not checked, and keep the Native path.
 */
const identicalFamilies: ReadonlySet<string> = new Set([
  'Int8',
  'Int16',
  'Int32',
  'Int64',
  'UInt8',
  'UInt16',
  'UInt32',
  'UInt64',
  'Float32',
  'Float64',
  'Bool',
  'String',
  'FixedString',
  'Date',
  'Date32',
])

/**
 * The output settings that shape ArrowStream, pinned on every such request so that a
 * server's or profile's defaults cannot change the schema. apache-arrow (JS) reads no
 * compressed IPC buffers, hence no compression.
 */
export const serverArrowSettings: Readonly<Record<string, string | number>> = {
  output_format_arrow_compression_method: 'none',
  output_format_arrow_string_as_string: 1,
  output_format_arrow_fixed_string_as_fixed_byte_array: 1,
  output_format_arrow_low_cardinality_as_dictionary: 0,
  output_format_arrow_use_signed_indexes_for_dictionary: 1,
  output_format_arrow_use_64_bit_indexes_for_dictionary: 0,
}

/**
 * Servers that have ArrowStream and every setting above (ArrowStream itself came in 20.x;
 * the last of the settings later): older ones take the Native path.
 */
export function serverHasArrowStream(version: string): boolean {
  return versionAtLeast(version, 24, 1)
}

/** Whether a column of this type reads the same from the server's ArrowStream. */
export function identicalOverArrowStream(type: TypeNode): boolean {
  const family = canonicalTypeName(type.name)
  if (family === 'Nullable') {
    const inner = type.args[0]
    return inner?.kind === 'type' && identicalFamilies.has(canonicalTypeName(inner.type.name))
  }
  return identicalFamilies.has(family)
}

/** What {@link queryArrowTable} calls on the client. */
export interface ArrowQueryHost {
  readonly http: boolean
  query<Row>(query: string | SqlFragment, options: QueryCallOptions): Promise<ResultSet<Row>>
  queryRaw(query: string | SqlFragment, options: RawQueryCallOptions): Promise<RawStream>
  serverInfo(): Promise<ServerInfo>
  /** `DESCRIBE TABLE (query)`, with the query's parameters. */
  describe(
    query: string | SqlFragment,
    options: QueryCallOptions,
  ): Promise<ResultSet<{ name: string; type: string }>>
}

/**
 * A query's result as the Table `(await query()).arrow()` gives. Over HTTP, on a server
 * with ArrowStream, when every result column is of a type that reads the same from it
 * ({@link identicalOverArrowStream}), the server's ArrowStream is read into apache-arrow
 * instead of Native blocks converted in JS: the result's types come first from a
 * `DESCRIBE` (one more short request). Otherwise (native, older servers, other types, a
 * statement DESCRIBE does not take) it is the Native path, unchanged.
 */
export async function queryArrowTable<Row>(
  host: ArrowQueryHost,
  query: string | SqlFragment,
  options: QueryCallOptions,
): Promise<Table<ArrowTypeMapOf<Row>>> {
  if (host.http && serverHasArrowStream((await host.serverInfo()).version)) {
    const meta = await resultColumns(host, query, options)
    if (meta && meta.length > 0 && meta.every((column) => identicalOverArrowStream(column.typeNode))) {
      const { ArrowConverter, serverArrowTable } = await loadArrow()
      const converter = new ArrowConverter(meta, (await host.serverInfo()).timezone)
      const raw = await host.queryRaw(query, {
        ...options,
        format: 'ArrowStream',
        settings: { ...options.settings, ...serverArrowSettings },
      })
      const table = await serverArrowTable(raw, converter)
      if (table) return table as unknown as Table<ArrowTypeMapOf<Row>>
    }
  }
  return (await host.query<Row>(query, options)).arrow()
}

/** The result's columns as DESCRIBE gives them, or undefined when it cannot describe the statement. */
async function resultColumns(
  host: ArrowQueryHost,
  query: string | SqlFragment,
  options: QueryCallOptions,
): Promise<ColumnMeta[] | undefined> {
  let rows: { name: string; type: string }[]
  try {
    const result = await host.describe(query, { ...options, queryId: undefined })
    rows = await result.rows()
  } catch (error) {
    // A statement DESCRIBE refuses runs over Native, which reports its own error; a lost
    // connection, a timeout or an abort is the caller's at once.
    if (!(error instanceof ClickHouseError)) throw error
    return undefined
  }
  return rows.map(({ name, type }) => ({ name, type, typeNode: parseType(type) }))
}
