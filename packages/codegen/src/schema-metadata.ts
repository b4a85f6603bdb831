/**
 * What introspection reads from a server, as plain data: no client, no TypeScript text.
 * Rendering works on this alone, so it can be built by hand (tests, other sources) and
 * serialized as JSON.
 */

/**
 * How a column gets its value, from `system.columns.default_kind`:
 * - `''`: an ordinary column; an insert must give it.
 * - `DEFAULT`: computed when an insert leaves it out.
 * - `MATERIALIZED`: always computed; never inserted, not in `SELECT *`.
 * - `ALIAS`: computed on read, never stored; never inserted, not in `SELECT *`.
 * - `EPHEMERAL`: (ClickHouse 22.2+) only given on insert, never read back.
 */
export type ColumnDefaultKind = '' | 'DEFAULT' | 'MATERIALIZED' | 'ALIAS' | 'EPHEMERAL'

/** One column of a table or view. */
export interface ColumnMetadata {
  readonly name: string
  /** The ClickHouse type as the server prints it, e.g. `Nullable(Decimal(9, 2))`. */
  readonly type: string
  readonly defaultKind: ColumnDefaultKind
  /** The DEFAULT / MATERIALIZED / ALIAS expression, `''` when there is none. */
  readonly defaultExpression: string
  /**
   * `system.columns.comment`, `''` when there is none. For a Distributed table that hides
   * it, the local table's comment.
   */
  readonly comment: string
  /**
   * For a column of a Distributed table: the local table's column where its type or default
   * differs from the Distributed table's own (which is what a SELECT returns and an INSERT
   * takes, so the TypeScript type follows the Distributed table); `null` when the local table
   * has no such column; undefined when they agree or the local table was not read.
   */
  readonly local?: LocalColumnMetadata | null | undefined
}

/** How the local table under a Distributed table declares one of its columns. */
export interface LocalColumnMetadata {
  readonly type: string
  readonly defaultKind: ColumnDefaultKind
  readonly defaultExpression: string
}

/** What a Distributed table is over, from its engine arguments and its local table. */
export interface DistributedMetadata {
  readonly cluster: string
  /** The local table's database and name. */
  readonly database: string
  readonly table: string
  /** The sharding key expression, `''` when there is none. */
  readonly shardingKey: string
  /**
   * Where the local table's columns were read: `node` (the server codegen connects to),
   * `shard` (another node of the cluster, through the `cluster()` table function), or `''`
   * when they could not be read (see `problem`).
   */
  readonly localSource: 'node' | 'shard' | ''
  /** Why the local table could not be read, `''` when it was. */
  readonly problem: string
  /** Columns of the local table that the Distributed table does not declare. */
  readonly localOnlyColumns: readonly string[]
}

/**
 * What can be done with a table's rows:
 * - `table`: select and insert.
 * - `view`: select only (View, MaterializedView, LiveView, WindowView, Dictionary, and the
 *   engines that refuse writes: Merge, GenerateRandom).
 */
export type TableKind = 'table' | 'view'

/** One table, view or dictionary. */
export interface TableMetadata {
  readonly database: string
  readonly name: string
  /** The engine as `system.tables.engine` names it, e.g. `MergeTree`, `View`. */
  readonly engine: string
  readonly kind: TableKind
  /** `system.tables.comment` where the server has it (21.6+), else `''`. */
  readonly comment: string
  readonly columns: readonly ColumnMetadata[]
  /** For a Distributed table (engine arguments readable): what it is over. */
  readonly distributed?: DistributedMetadata | undefined
}

/** Everything rendering needs. */
export interface SchemaMetadata {
  /** The databases asked for, in the order given; a table key is qualified when there are several. */
  readonly databases: readonly string[]
  /** Tables grouped by database in the order of `databases`, each group sorted by name. */
  readonly tables: readonly TableMetadata[]
}

/**
 * Engines whose rows cannot be inserted through the table itself. Merge and GenerateRandom
 * refuse an INSERT ("Method write is not supported by storage Merge", NOT_IMPLEMENTED).
 */
const readOnlyEngines = new Set([
  'View',
  'MaterializedView',
  'LiveView',
  'WindowView',
  'Dictionary',
  'Merge',
  'GenerateRandom',
])

/** The kind of a table from its engine name. */
export function tableKindOf(engine: string): TableKind {
  return readOnlyEngines.has(engine) ? 'view' : 'table'
}

const defaultKinds: readonly string[] = ['', 'DEFAULT', 'MATERIALIZED', 'ALIAS', 'EPHEMERAL']

/**
 * A `default_expression` as the renderer should show it. For an EPHEMERAL column declared
 * without an expression, 26.x reports the one it fills in, `defaultValueOfTypeName('String')`,
 * which nobody wrote: read as none.
 */
export function columnDefaultExpressionOf(kind: ColumnDefaultKind, expression: string): string {
  return kind === 'EPHEMERAL' && /^defaultValueOfTypeName\('.*'\)$/s.test(expression) ? '' : expression
}

/** A `default_kind` as read from the server; unknown future kinds count as computed (read-only). */
export function columnDefaultKindOf(text: string): ColumnDefaultKind {
  return (defaultKinds.includes(text) ? text : 'MATERIALIZED') as ColumnDefaultKind
}
