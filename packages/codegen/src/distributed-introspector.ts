import { ClickHouseError, type Client, sql } from '@clickwire/client'
import { quoteSqlString } from '@clickwire/protocol'
import { parseDistributedEngine } from '@clickwire/protocol/cluster'
import {
  type ColumnMetadata,
  columnDefaultExpressionOf,
  columnDefaultKindOf,
  type DistributedMetadata,
} from './schema-metadata.js'

/** What the columns queries may ask of `system.columns` on this server. */
export interface ColumnsQueryFeatures {
  readonly columnComment: boolean
  readonly position: boolean
}

/** A Distributed table with its columns completed from its local table. */
export interface DistributedColumns {
  readonly columns: readonly ColumnMetadata[]
  readonly distributed: DistributedMetadata
}

/**
 * Reads the local table under a Distributed table and completes the Distributed table's
 * columns from it. One created with its own column list declares neither the local
 * comments nor the local MATERIALIZED / ALIAS / DEFAULT columns (one created `AS` the local
 * table, or on 26.x without columns, lists them all). The local table is read
 * on this server first, then on the shards through `cluster()` (18.16 has it;
 * `clusterAllReplicas` is 20.x+), shards that cannot be reached skipped. Undefined when
 * `engineFull` is not a Distributed engine codegen can read.
 *
 * @param hasClusterFunction - resolves whether the server has the `cluster()` table function.
 */
export async function introspectDistributed(
  client: Client,
  engineFull: string,
  columns: readonly ColumnMetadata[],
  features: ColumnsQueryFeatures,
  hasClusterFunction: () => Promise<boolean>,
): Promise<DistributedColumns | undefined> {
  const parsed = parseDistributedEngine(engineFull)
  if (parsed === undefined) return undefined
  // The metadata's convention: '' for a database given as an expression, and for no key.
  const engine = { ...parsed, database: parsed.database ?? '', shardingKey: parsed.shardingKey ?? '' }
  const about = { cluster: engine.cluster, database: engine.database, table: engine.table }
  const without = (problem: string): DistributedColumns => ({
    columns,
    distributed: {
      ...about,
      shardingKey: engine.shardingKey,
      localSource: '',
      problem,
      localOnlyColumns: [],
    },
  })
  if (engine.database === '')
    return without(`its database argument (${engineFull}) is an expression codegen does not evaluate`)
  const local = `${engine.database}.${engine.table}`
  let localSource: 'node' | 'shard' = 'node'
  let localColumns = await readLocalColumns(client, 'system.columns', engine, features)
  if (localColumns.length === 0) {
    if (!(await hasClusterFunction()))
      return without(
        `the local table ${local} is not on this server, which has no cluster() table function to read it from a shard`,
      )
    try {
      localColumns = await readLocalColumns(
        client,
        `cluster(${quoteSqlString(engine.cluster)}, system.columns)`,
        engine,
        features,
      )
    } catch (error) {
      if (!ClickHouseError.isInstance(error)) throw error
      return without(
        `the local table ${local} is not on this server, and reading it through cluster() failed: ${(error as Error).message}`,
      )
    }
    if (localColumns.length === 0)
      return without(
        `the local table ${local} is neither on this server nor on a reachable shard of cluster ${engine.cluster}`,
      )
    localSource = 'shard'
  }
  const merged = mergeLocalColumns(columns, localColumns)
  return {
    columns: merged.columns,
    distributed: {
      ...about,
      shardingKey: engine.shardingKey,
      localSource,
      problem: '',
      localOnlyColumns: merged.localOnlyColumns,
    },
  }
}

async function readLocalColumns(
  client: Client,
  source: string,
  engine: { readonly database: string; readonly table: string },
  features: ColumnsQueryFeatures,
): Promise<ColumnMetadata[]> {
  const rows = await (
    await client.query<{
      name: string
      type: string
      default_kind: string
      default_expression: string
      comment?: string
    }>(
      // Literals, not parameters: the initiator forwards the query text to the shards as it is.
      sql`SELECT name, type, default_kind, default_expression${sql.raw(features.columnComment ? ', comment' : '')}
          FROM ${sql.raw(source)}
          WHERE database = ${sql.raw(quoteSqlString(engine.database))} AND table = ${sql.raw(quoteSqlString(engine.table))}
          ${sql.raw(features.position ? 'ORDER BY position' : '')}`,
      { settings: { skip_unavailable_shards: 1 } },
    )
  ).rows()
  // Through cluster() every shard that has the table answers: keep each column once.
  const seen = new Set<string>()
  const columns: ColumnMetadata[] = []
  for (const row of rows) {
    if (seen.has(row.name)) continue
    seen.add(row.name)
    const defaultKind = columnDefaultKindOf(row.default_kind)
    columns.push({
      name: row.name,
      type: row.type,
      defaultKind,
      defaultExpression: columnDefaultExpressionOf(defaultKind, row.default_expression),
      comment: row.comment ?? '',
    })
  }
  return columns
}

/**
 * The Distributed table's columns with what the local table adds: its comment where the
 * Distributed column has none, and the local declaration where type or default differ. The
 * Distributed table's own types and kinds stay: a SELECT returns them and an INSERT is checked
 * against them. With no columns of its own, the local table's columns stand in.
 */
export function mergeLocalColumns(
  own: readonly ColumnMetadata[],
  local: readonly ColumnMetadata[],
): { columns: ColumnMetadata[]; localOnlyColumns: string[] } {
  if (own.length === 0) return { columns: [...local], localOnlyColumns: [] }
  const byName = new Map(local.map((column) => [column.name, column]))
  const columns = own.map((column): ColumnMetadata => {
    const match = byName.get(column.name)
    if (match === undefined) return { ...column, local: null }
    const comment = column.comment !== '' ? column.comment : match.comment
    const differs =
      match.type !== column.type ||
      match.defaultKind !== column.defaultKind ||
      match.defaultExpression !== column.defaultExpression
    return differs
      ? {
          ...column,
          comment,
          local: {
            type: match.type,
            defaultKind: match.defaultKind,
            defaultExpression: match.defaultExpression,
          },
        }
      : { ...column, comment }
  })
  const declared = new Set(own.map((column) => column.name))
  return { columns, localOnlyColumns: local.filter((c) => !declared.has(c.name)).map((c) => c.name) }
}
