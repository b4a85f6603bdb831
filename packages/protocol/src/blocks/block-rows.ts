import type { NativeBlock } from './native-block.js'

/** A row as an object keyed by column name. */
export type RowObject = Record<string, unknown>

type RowBuilder = (columns: readonly ArrayLike<unknown>[], row: number) => RowObject

const builders = new Map<string, RowBuilder>()
let codeGenerationAllowed = true

/**
 * A builder of row objects for one list of column names. Where the runtime allows code
 * generation, it is a constructor with the properties spelled out, so every row gets the
 * same hidden class and V8 builds it as fast as an object literal; where it does not
 * (CSP, some edge runtimes), a plain loop does the same job more slowly.
 *
 * `__proto__` as a column name is defined as an own property, never as the prototype.
 */
export function rowBuilder(names: readonly string[]): RowBuilder {
  const key = names.join('\u0000')
  let builder = builders.get(key)
  if (builder) return builder
  builder = (codeGenerationAllowed && compiledBuilder(names)) || loopBuilder(names)
  if (builders.size > 1000) builders.clear()
  builders.set(key, builder)
  return builder
}

function compiledBuilder(names: readonly string[]): RowBuilder | undefined {
  const assignments = names.map((name, index) =>
    name === '__proto__'
      ? `Object.defineProperty(this, "__proto__", { value: c[${index}][r], enumerable: true, writable: true, configurable: true });`
      : `this[${JSON.stringify(name)}] = c[${index}][r];`,
  )
  try {
    const Row = new Function('c', 'r', assignments.join('\n')) as unknown as new (
      columns: readonly ArrayLike<unknown>[],
      row: number,
    ) => RowObject
    // Rows should look like plain objects (prototype Object.prototype, constructor Object).
    Row.prototype = Object.prototype
    return (columns, row) => new Row(columns, row)
  } catch {
    codeGenerationAllowed = false
    return undefined
  }
}

function loopBuilder(names: readonly string[]): RowBuilder {
  return (columns, row) => {
    const object: RowObject = {}
    for (let index = 0; index < names.length; index++) {
      const name = names[index]!
      const value = columns[index]![row]
      if (name === '__proto__') {
        Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true })
      } else object[name] = value
    }
    return object
  }
}

/** Each column's values, computed once (the JS values of the whole block). */
export function blockValues(block: NativeBlock): ArrayLike<unknown>[] {
  return block.columns.map((column) => column.column.values())
}

/**
 * The rows of a block as objects. Each column's values are computed once and rows are
 * assembled from them, so nothing is decoded twice. Later columns win on duplicate names.
 */
export function rowObjects(block: NativeBlock): RowObject[] {
  const columns = blockValues(block)
  const build = rowBuilder(block.columns.map((column) => column.name))
  const rows = new Array<RowObject>(block.rows)
  for (let row = 0; row < block.rows; row++) rows[row] = build(columns, row)
  return rows
}

/** The rows of a block as arrays of values, in column order. */
export function rowArrays(block: NativeBlock): unknown[][] {
  const columns = blockValues(block)
  const width = columns.length
  const rows = new Array<unknown[]>(block.rows)
  for (let row = 0; row < block.rows; row++) {
    const values = new Array<unknown>(width)
    for (let index = 0; index < width; index++) values[index] = columns[index]![row]
    rows[row] = values
  }
  return rows
}
