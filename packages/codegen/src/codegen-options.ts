import { resolveValueMapping, type ValueMapping } from '@clickwire/protocol'

/** Something codegen could not type exactly; the column is typed `unknown` instead. */
export interface CodegenWarning {
  readonly database: string
  readonly table: string
  /** The column, or undefined for a warning about the whole table. */
  readonly column?: string | undefined
  readonly message: string
}

/** Where introspection is: one event per database, then one per table read. */
export type IntrospectionProgress =
  | {
      readonly kind: 'database'
      readonly database: string
      /** 0-based position among the databases asked for. */
      readonly index: number
      readonly databaseCount: number
      /** Tables of this database that will be read (after include / exclude). */
      readonly tableCount: number
    }
  | {
      readonly kind: 'table'
      readonly database: string
      readonly table: string
      /** 0-based position among this database's tables. */
      readonly index: number
      readonly tableCount: number
      readonly columnCount: number
    }

/** Which tables to read. */
export interface IntrospectOptions {
  /**
   * Databases to read, in this order. Default: the connection's database
   * (`SELECT currentDatabase()`).
   */
  readonly databases?: readonly string[] | undefined
  /**
   * Globs (picomatch) of tables to keep; each is matched against the table name and
   * against `database.table`. Default: every table.
   */
  readonly include?: readonly string[] | undefined
  /** Globs of tables to leave out, matched like `include`. */
  readonly exclude?: readonly string[] | undefined
  /** Called as each database and table is read. */
  readonly onProgress?: ((event: IntrospectionProgress) => void) | undefined
}

/** How metadata becomes TypeScript. The value-mapping options are the client's, with its defaults. */
export interface RenderOptions extends Partial<ValueMapping> {
  /**
   * Camel-case table and column keys for Kysely's `CamelCasePlugin` (default false).
   * The client itself never renames columns: rows from `client.query` keep ClickHouse's
   * names, so use this only with Kysely and that plugin.
   */
  readonly camelCase?: boolean | undefined
  /** Called for every column typed `unknown` and every name the options cannot express. */
  readonly onWarning?: ((warning: CodegenWarning) => void) | undefined
}

/** Resolved render options: value mapping checked and defaulted. */
export interface ResolvedRenderOptions {
  readonly mapping: ValueMapping
  readonly camelCase: boolean
  readonly onWarning: (warning: CodegenWarning) => void
}

/** Fills in defaults; throws a UsageError for an unknown mapping choice. */
export function resolveRenderOptions(options: RenderOptions = {}): ResolvedRenderOptions {
  return {
    mapping: resolveValueMapping({ int64: options.int64, dates: options.dates, decimal: options.decimal }),
    camelCase: options.camelCase ?? false,
    onWarning: options.onWarning ?? (() => {}),
  }
}

/** A warning as one line of text: `db.table.column: message`. */
export function formatWarning(warning: CodegenWarning): string {
  const where = [warning.database, warning.table, ...(warning.column === undefined ? [] : [warning.column])]
  return `${where.join('.')}: ${warning.message}`
}
