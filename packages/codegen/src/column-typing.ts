import { loadCodecs, mapType, parseTypeCached, type ValueMapping } from '@clickwire/protocol'
import type { ColumnMetadata, TableKind } from './schema-metadata.js'

// mapType reads each family's codec, and those of the rarer families (Dynamic, JSON, ...)
// load on demand: codegen types whole schemas synchronously, so it loads them all up front.
await loadCodecs()

/** Kysely helper types a column's field type may use. */
export type KyselyHelper = 'ColumnType' | 'Generated'

/** How one column is written in its table's interface. */
export interface ColumnTyping {
  /** The TS type of the values a query returns: the mapping table's text, `unknown` where unsupported. */
  readonly valueType: string
  /**
   * The field's type in the table interface: `valueType` itself, or wrapped in Kysely's
   * `ColumnType` / `Generated` to say what inserts may do.
   */
  readonly fieldType: string
  readonly helpers: readonly KyselyHelper[]
  /** Why parts are `unknown`; empty when the column is fully typed. */
  readonly problems: readonly string[]
}

/**
 * Types one column. The value type comes from protocol's `mapType`, which reads the
 * TypeScript type each codec declares for what it decodes, so the type says exactly what
 * `client.query` returns under `mapping`. The wrapper says how the column behaves on insert:
 *
 * | column | field type |
 * |---|---|
 * | ordinary | `T` |
 * | DEFAULT | `Generated<T>`: optional on insert |
 * | MATERIALIZED, ALIAS | `ColumnType<T, never, never>`: selected, never inserted |
 * | EPHEMERAL | `ColumnType<never, T \| undefined, never>`: inserted, never selected |
 * | any column of a view | `ColumnType<T, never, never>` |
 */
export function typeColumn(
  column: ColumnMetadata,
  tableKind: TableKind,
  mapping: ValueMapping,
): ColumnTyping {
  const problems: string[] = []
  let valueType = 'unknown'
  try {
    const mapped = mapType(parseTypeCached(column.type), mapping)
    valueType = mapped.tsType
    problems.push(...mapped.unsupported)
  } catch (error) {
    // A type name this version cannot parse (a newer server's syntax): unknown, not a crash.
    // The parser's message draws a caret on extra lines; a warning is one line.
    problems.push(`cannot read ClickHouse type ${column.type}: ${(error as Error).message.split('\n')[0]}`)
  }
  if (tableKind === 'view' || column.defaultKind === 'MATERIALIZED' || column.defaultKind === 'ALIAS') {
    return {
      valueType,
      fieldType: `ColumnType<${valueType}, never, never>`,
      helpers: ['ColumnType'],
      problems,
    }
  }
  if (column.defaultKind === 'EPHEMERAL') {
    return {
      valueType,
      fieldType: `ColumnType<never, ${valueType} | undefined, never>`,
      helpers: ['ColumnType'],
      problems,
    }
  }
  if (column.defaultKind === 'DEFAULT') {
    return { valueType, fieldType: `Generated<${valueType}>`, helpers: ['Generated'], problems }
  }
  return { valueType, fieldType: valueType, helpers: [], problems }
}
