import {
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Kysely,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely'

/** A column as ClickHouse describes it. */
export interface ClickHouseColumnMetadata extends ColumnMetadata {
  /** `DEFAULT`, `MATERIALIZED`, `ALIAS`, or '' (and `EPHEMERAL` on newer servers). */
  readonly defaultKind: string
  /** The default's expression text, '' without one. */
  readonly defaultExpression: string
}

/** A table or view as ClickHouse describes it. */
export interface ClickHouseTableMetadata extends TableMetadata {
  /** `MergeTree`, `ReplacingMergeTree`, `View`, `Distributed`, ... */
  readonly engine: string
  /** Always false: Kysely 0.29 asks; ClickHouse's nearest thing (table engines over other systems) is in `engine`. */
  readonly isForeign: boolean
  readonly columns: ClickHouseColumnMetadata[]
}

// Kysely's default names for its migration tables (imported from 'kysely/migration' since
// 0.29, so spelled out to work with both). Our lock table starts with the lock table's name.
const internalTablePrefixes = ['kysely_migration', 'kysely_migration_lock']

const viewEngines = new Set(['View', 'MaterializedView', 'LiveView', 'WindowView'])

/** Whether a type admits NULL: Nullable(T), also inside LowCardinality. */
function isNullableType(type: string): boolean {
  return type.startsWith('Nullable(') || type.startsWith('LowCardinality(Nullable(')
}

interface TableRow {
  database: string
  name: string
  engine: string
}

interface ColumnRow {
  table: string
  name: string
  type: string
  default_kind: string
  default_expression: string
  comment: string
}

/**
 * Reads databases, tables, views and columns from `system.databases`, `system.tables` and
 * `system.columns`. Tables are those of the current database (the client's `database`), as
 * Kysely's MySQL introspector does with `database()`; each carries its database as `schema`.
 */
export class ClickHouseIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>

  constructor(db: Kysely<unknown>) {
    // System tables have fixed column names: plugins such as CamelCasePlugin must not touch them.
    this.#db = db.withoutPlugins()
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`SELECT name FROM system.databases ORDER BY name`.execute(
      this.#db,
    )
    return rows.map((row) => ({ name: row.name }))
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<ClickHouseTableMetadata[]> {
    const [tables, columns] = await Promise.all([
      sql<TableRow>`SELECT database, name, engine FROM system.tables
        WHERE database = currentDatabase() AND is_temporary = 0 ORDER BY name`.execute(this.#db),
      // system.columns lists columns in table order.
      sql<ColumnRow>`SELECT table, name, type, default_kind, default_expression, comment FROM system.columns
        WHERE database = currentDatabase()`.execute(this.#db),
    ])
    const byTable = new Map<string, ClickHouseColumnMetadata[]>()
    for (const column of columns.rows) {
      let list = byTable.get(column.table)
      if (!list) {
        list = []
        byTable.set(column.table, list)
      }
      list.push({
        name: column.name,
        dataType: column.type,
        isNullable: isNullableType(column.type),
        isAutoIncrementing: false,
        hasDefaultValue: column.default_kind !== '',
        defaultKind: column.default_kind,
        defaultExpression: column.default_expression,
        ...(column.comment ? { comment: column.comment } : {}),
      })
    }
    return tables.rows
      .filter(
        (table) =>
          options.withInternalKyselyTables ||
          !internalTablePrefixes.some((prefix) => table.name.startsWith(prefix)),
      )
      .map((table) => ({
        name: table.name,
        schema: table.database,
        engine: table.engine,
        isView: viewEngines.has(table.engine),
        isForeign: false,
        columns: byTable.get(table.name) ?? [],
      }))
  }

  /** Kysely 0.28's older name for {@link getTables}. */
  async getMetadata(options?: DatabaseMetadataOptions): Promise<{ tables: ClickHouseTableMetadata[] }> {
    return { tables: await this.getTables(options) }
  }
}
