import { type Client, sql } from '@clickwire/client'
import { UsageError } from '@clickwire/protocol'
import type { IntrospectOptions } from './codegen-options.js'
import { type DistributedColumns, introspectDistributed } from './distributed-introspector.js'
import {
  type ColumnMetadata,
  columnDefaultExpressionOf,
  columnDefaultKindOf,
  type SchemaMetadata,
  type TableMetadata,
  tableKindOf,
} from './schema-metadata.js'
import { tableFilter } from './table-filter.js'

/** Columns of the system tables that not every server version has. */
interface SystemColumns {
  /** `system.tables.comment` (21.6+). */
  readonly tableComment: boolean
  /** `system.tables.is_temporary`. */
  readonly isTemporary: boolean
  /** `system.columns.comment` (18.16 has it). */
  readonly columnComment: boolean
  /** `system.columns.position` (21.x+); without it the natural order is the table's column order. */
  readonly position: boolean
  /** `system.tables.engine_full`, where a Distributed table's arguments are. */
  readonly engineFull: boolean
}

async function systemColumns(client: Client): Promise<SystemColumns> {
  const rows = await (
    await client.query<{ table: string; name: string }>(
      `SELECT table, name FROM system.columns WHERE database = 'system' AND table IN ('tables', 'columns')`,
    )
  ).rows()
  const has = (table: string, name: string) => rows.some((row) => row.table === table && row.name === name)
  return {
    tableComment: has('tables', 'comment'),
    isTemporary: has('tables', 'is_temporary'),
    columnComment: has('columns', 'comment'),
    position: has('columns', 'position'),
    engineFull: has('tables', 'engine_full'),
  }
}

/** Above this many kept tables the columns query reads the whole database and filters here. */
const maxTablesInQuery = 1000

/**
 * Reads the tables and columns of databases from `system.tables` and `system.columns`
 * into plain metadata, one database at a time, reporting progress per database and per
 * table. Works on every server from 18.16 on; columns the server lacks (table comments
 * before 21.6) are read as empty. A Distributed table's columns are completed from its
 * local table (on this server, else on a shard through `cluster()`); see `distributed`.
 *
 * @throws {UsageError} when a database does not exist.
 * @throws {ConnectionError} when the server cannot be reached.
 *
 * @example
 * ```ts
 * import { createClient } from '@clickwire/client'
 * import { introspect, render } from '@clickwire/codegen'
 *
 * await using ch = createClient('clickhouse://127.0.0.1:9000/default')
 * const schema = await introspect(ch, { include: ['events_*'] })
 * console.log(render(schema, { int64: 'string' }))
 * ```
 */
export async function introspect(client: Client, options: IntrospectOptions = {}): Promise<SchemaMetadata> {
  const databases = options.databases?.length
    ? [...new Set(options.databases)]
    : [
        (await (await client.query<{ name: string }>('SELECT currentDatabase() AS name')).rows())[0]?.name ??
          'default',
      ]
  const existing = (
    await (await client.query<{ name: string }>('SELECT name FROM system.databases ORDER BY name')).rows()
  ).map((row) => row.name)
  const missing = databases.filter((database) => !existing.includes(database))
  if (missing.length > 0) {
    throw new UsageError(
      `unknown database ${missing.map((name) => JSON.stringify(name)).join(', ')}: the server has ${existing.map((name) => JSON.stringify(name)).join(', ')}`,
    )
  }
  const system = await systemColumns(client)
  const keep = tableFilter(options.include, options.exclude)
  const tables: TableMetadata[] = []
  let clusterFunction: Promise<boolean> | undefined
  const hasClusterFunction = () =>
    (clusterFunction ??= client
      .query<{ n: number }>(`SELECT count() AS n FROM system.table_functions WHERE name = 'cluster'`)
      .then((result) => result.rows())
      .then((rows) => Number(rows[0]?.n ?? 0) > 0))
  for (const [index, database] of databases.entries()) {
    const listed = await (
      await client.query<{ name: string; engine: string; comment?: string; engine_full?: string }>(
        sql`SELECT name, engine${sql.raw(system.tableComment ? ', comment' : '')}${sql.raw(system.engineFull ? ', engine_full' : '')}
            FROM system.tables
            WHERE database = ${database}${sql.raw(system.isTemporary ? ' AND NOT is_temporary' : '')}
            ORDER BY name`,
      )
    ).rows()
    const kept = listed.filter((table) => keep(database, table.name))
    options.onProgress?.({
      kind: 'database',
      database,
      index,
      databaseCount: databases.length,
      tableCount: kept.length,
    })
    if (kept.length === 0) continue
    const columns = await readColumns(client, database, kept, listed.length, system, options)
    for (const table of kept) {
      const own = columns.get(table.name) ?? []
      // The local table adds what a Distributed table does not declare (comments, defaults).
      const distributed: DistributedColumns | undefined =
        table.engine === 'Distributed' && table.engine_full
          ? await introspectDistributed(client, table.engine_full, own, system, hasClusterFunction)
          : undefined
      tables.push({
        database,
        name: table.name,
        engine: table.engine,
        kind: tableKindOf(table.engine),
        comment: table.comment ?? '',
        columns: distributed?.columns ?? own,
        ...(distributed ? { distributed: distributed.distributed } : {}),
      })
    }
  }
  return { databases, tables }
}

/** The columns of the kept tables, by table, streaming and reporting each table as it completes. */
async function readColumns(
  client: Client,
  database: string,
  kept: readonly { name: string }[],
  listedCount: number,
  system: SystemColumns,
  options: IntrospectOptions,
): Promise<Map<string, ColumnMetadata[]>> {
  const names = kept.map((table) => table.name)
  const wanted = new Set(names)
  const narrow = kept.length < listedCount && kept.length <= maxTablesInQuery
  const result = await client.query<{
    table: string
    name: string
    type: string
    default_kind: string
    default_expression: string
    comment?: string
  }>(
    sql`SELECT table, name, type, default_kind, default_expression${sql.raw(system.columnComment ? ', comment' : '')}
        FROM system.columns
        WHERE database = ${database}${narrow ? sql` AND has(${names}, table)` : sql``}
        ${sql.raw(system.position ? 'ORDER BY table, position' : '')}`,
  )
  const byTable = new Map<string, ColumnMetadata[]>()
  let current: string | undefined
  const finished = new Set<string>()
  let done = 0
  const finish = (table: string) => {
    // Once per table, also if a server interleaved the rows of tables.
    if (finished.has(table)) return
    finished.add(table)
    options.onProgress?.({
      kind: 'table',
      database,
      table,
      index: done++,
      tableCount: kept.length,
      columnCount: byTable.get(table)?.length ?? 0,
    })
  }
  for await (const row of result) {
    if (!wanted.has(row.table)) continue
    if (row.table !== current) {
      if (current !== undefined) finish(current)
      current = row.table
    }
    let list = byTable.get(row.table)
    if (!list) byTable.set(row.table, (list = []))
    const defaultKind = columnDefaultKindOf(row.default_kind)
    list.push({
      name: row.name,
      type: row.type,
      defaultKind,
      defaultExpression: columnDefaultExpressionOf(defaultKind, row.default_expression),
      comment: row.comment ?? '',
    })
  }
  if (current !== undefined) finish(current)
  // Tables the server lists without columns still count as read.
  for (const name of names) if (!byTable.has(name)) finish(name)
  return byTable
}
