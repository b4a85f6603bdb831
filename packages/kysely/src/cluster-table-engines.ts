import { quoteSqlString } from '@clickwire/protocol'
import type { ColumnDefinitionNode, CreateTableNode } from 'kysely'

/*
 * The engines of the tables the schema builder creates on a cluster without one given.
 *
 * Kysely's Migrator keeps its history in two tables it creates itself (named by the
 * Migrator's options, so the dialect cannot know the names): `kysely_migration (name
 * varchar(255) primary key, timestamp varchar(255))` and `kysely_migration_lock (id
 * varchar(255) primary key, is_locked integer default 0)`, both with IF NOT EXISTS. On a
 * cluster they must hold the same rows on every node, whichever node a migrator talks to,
 * so they are recognised by that shape and created as one ReplicatedMergeTree table
 * replicated to all nodes of the cluster (not per shard: the ZooKeeper path has no {shard}).
 */

/** The ZooKeeper directory all of a cluster's Migrator tables are replicated under. */
export function migratorZooKeeperPrefix(cluster: string): string {
  return `/clickhouse/kysely/${cluster}/`
}

/*
 * The paths name the table as created, not with the {table} macro: 18.16 keeps the engine's
 * arguments unexpanded in the table's metadata and expands them again at each start, so a
 * renamed table would look for its replica under its new name. {database} is expanded by
 * each server (18.16 has it); ClickHouse has no RENAME DATABASE to move it.
 */

/**
 * The engine of a Migrator table `table` on `cluster`: one replica per node, named
 * `{shard}-{replica}`, unique on the cluster even where replica macros repeat from shard to shard.
 */
export function migratorTableEngine(cluster: string, table: string): string {
  const path = quoteSqlString(`${migratorZooKeeperPrefix(cluster)}{database}/${table}`)
  return `ReplicatedMergeTree(${path}, '{shard}-{replica}')`
}

/** The engine of other tables created on a cluster without one: replicated within each shard. */
export function shardTableEngine(table: string): string {
  return `ReplicatedMergeTree(${quoteSqlString(`/clickhouse/tables/{shard}/{database}/${table}`)}, '{replica}')`
}
function columnShape(column: ColumnDefinitionNode): string {
  const type = column.dataType as { kind: string; dataType?: string }
  return `${column.column.column.name}:${type.kind === 'DataTypeNode' ? type.dataType : '?'}:${column.primaryKey ? 'pk' : ''}`
}

const migratorShapes = new Set([
  'name:varchar(255):pk,timestamp:varchar(255):',
  'id:varchar(255):pk,is_locked:integer:',
])

/** Whether a CREATE TABLE is one of Kysely's Migrator tables (by its exact shape). */
export function isMigratorTable(node: CreateTableNode): boolean {
  if (!node.ifNotExists || node.temporary || node.selectQuery || node.endModifiers?.length) return false
  if (node.constraints?.length) return false
  return migratorShapes.has(node.columns.map(columnShape).join(','))
}
