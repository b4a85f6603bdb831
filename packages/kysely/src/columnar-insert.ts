import { quoteQualifiedName, TypedValue } from '@clickwire/protocol'
import type { OperationNode, RootOperationNode } from 'kysely'
import { splitClauses } from './clause-node.js'

/** One columnar insert: rows that name the same columns, as one array of values per column. */
export interface ColumnarBatch {
  readonly columns: readonly string[]
  readonly values: Record<string, unknown[]>
  readonly rows: number
}

/** A plain `insertInto(t).values(rows)`, ready for the client's columnar insert. */
export interface ColumnarInsert {
  /** `db`.`table`, quoted. */
  readonly table: string
  /** Rows grouped by the columns they give (rows that leave some out get the server's defaults). */
  readonly batches: readonly ColumnarBatch[]
  /** SETTINGS given with the `settings` helper, sent with the insert. */
  readonly settings: Readonly<Record<string, string | number | boolean>>
}

const missing = Symbol('missing')

interface Kinded {
  readonly kind: string
}

/** The plain value of a values-list item, `missing` for DEFAULT, undefined when it is an expression. */
function plainValue(item: OperationNode): unknown {
  if (item.kind === 'DefaultInsertValueNode') return missing
  // `sql.val(x)` and `typed(x, T)` wrap the value in a RawNode with nothing around it.
  if (item.kind === 'RawNode') {
    const { sqlFragments, parameters } = item as unknown as {
      sqlFragments: string[]
      parameters: OperationNode[]
    }
    const only = parameters[0]
    return parameters.length === 1 && sqlFragments.every((text) => text === '') && only
      ? plainValue(only)
      : undefined
  }
  if (item.kind !== 'ValueNode') return undefined
  const { value } = item as unknown as { value: unknown }
  return value instanceof TypedValue ? value.value : value
}

/** The parts of Kysely's InsertQueryNode read here. */
interface InsertShape {
  readonly into?: { kind: string; table: { schema?: { name: string }; identifier: { name: string } } }
  readonly columns?: readonly { column: { name: string } }[]
  readonly values?: Kinded & { values?: readonly (Kinded & { values: readonly unknown[] })[] }
  readonly endModifiers?: readonly OperationNode[]
  readonly with?: unknown
  readonly explain?: unknown
  readonly returning?: unknown
  readonly output?: unknown
  readonly onConflict?: unknown
  readonly onDuplicateKey?: unknown
  readonly top?: unknown
  readonly orAction?: unknown
  readonly replace?: boolean
  readonly ignore?: boolean
  readonly defaultValues?: boolean
}

const layouts = new WeakMap<object, ColumnarInsert | null>()

/**
 * Recognizes an insert whose rows are plain values (no expressions, no INSERT ... SELECT,
 * no WITH) and lays it out as columns, so the driver can send it as Native blocks through
 * `client.insert` instead of as a SQL text with one placeholder per value. Nodes are
 * immutable, so the layout is computed once per node.
 */
export function columnarInsert(node: RootOperationNode): ColumnarInsert | undefined {
  if (node.kind !== 'InsertQueryNode') return undefined
  let layout = layouts.get(node)
  if (layout === undefined) {
    layout = layOut(node) ?? null
    layouts.set(node, layout)
  }
  return layout ?? undefined
}

function layOut(node: RootOperationNode): ColumnarInsert | undefined {
  const insert = node as unknown as InsertShape
  const { into, columns, values } = insert
  if (into?.kind !== 'TableNode' || !columns?.length || values?.kind !== 'ValuesNode') return undefined
  // Anything beyond a plain insert takes the SQL path, where the compiler accepts or refuses it.
  if (
    insert.with ||
    insert.explain ||
    insert.returning ||
    insert.output ||
    insert.onConflict ||
    insert.onDuplicateKey ||
    insert.top ||
    insert.orAction ||
    insert.replace ||
    insert.ignore ||
    insert.defaultValues
  ) {
    return undefined
  }
  const { clauses, rest } = splitClauses(insert.endModifiers)
  if (rest.length > 0) return undefined
  const names = columns.map((column) => column.column.name)
  const groups = new Map<string, { present: number[]; rows: unknown[][] }>()
  for (const row of values.values ?? []) {
    let cells: unknown[]
    if (row.kind === 'PrimitiveValueListNode') {
      cells = row.values.map((value) => (value instanceof TypedValue ? value.value : value))
    } else if (row.kind === 'ValueListNode') {
      cells = []
      for (const item of row.values as readonly OperationNode[]) {
        const value = plainValue(item)
        if (value === undefined) return undefined
        cells.push(value)
      }
    } else return undefined
    const present: number[] = []
    cells.forEach((cell, index) => {
      if (cell !== missing) present.push(index)
    })
    if (present.length === 0) return undefined
    const key = present.join(',')
    let group = groups.get(key)
    if (!group) {
      group = { present, rows: [] }
      groups.set(key, group)
    }
    group.rows.push(cells)
  }
  const batches: ColumnarBatch[] = []
  for (const { present, rows } of groups.values()) {
    const batchColumns = present.map((index) => names[index]!)
    const columnValues: Record<string, unknown[]> = {}
    present.forEach((index, position) => {
      const column = new Array<unknown>(rows.length)
      for (let row = 0; row < rows.length; row++) column[row] = rows[row]![index]
      columnValues[batchColumns[position]!] = column
    })
    batches.push({ columns: batchColumns, values: columnValues, rows: rows.length })
  }
  const settings: Record<string, string | number | boolean> = {}
  for (const { data } of clauses) {
    if (data.clause !== 'settings') return undefined
    for (const [name, , value] of data.settings) settings[name] = value
  }
  const schema = into.table.schema?.name
  const name = into.table.identifier.name
  const table = quoteQualifiedName(schema === undefined ? [name] : [schema, name])
  return { table, batches, settings }
}
