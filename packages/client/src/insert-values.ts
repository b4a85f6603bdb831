import {
  type ColumnInput,
  type ColumnMeta,
  ColumnParts,
  describeCodec,
  type InsertBatch,
  type InsertShape,
  type TypeNode,
  typeArguments,
  UsageError,
} from '@clickwire/protocol'
import { withOutcome } from '@clickwire/protocol/insert'
import type { Data } from 'apache-arrow'
import { arrowColumnValues } from './arrow-insert-values.js'
import type { NumberArray } from './result-columns.js'

/** Column name -> one value per row: a JS array or a typed array. */
export type ColumnValues = Readonly<
  Record<string, readonly unknown[] | NumberArray | BigInt64Array | BigUint64Array>
>

/** Anything shaped like an apache-arrow Table or RecordBatch. */
export interface ArrowLike {
  readonly numRows: number
  readonly schema: { readonly fields: readonly { readonly name: string }[] }
  getChild(name: string): { readonly data: readonly Data[] } | null
}

/** A chunk of rows: objects keyed by column name, arrays in column order, columns, or Arrow. */
export type InsertChunk<Row = Record<string, unknown>> =
  // `Row[]` first, though `readonly Row[]` covers it: TypeScript explains a wrong array literal
  // against the first member of the same array kind, so a row of the wrong type is reported as
  // `Type 'string' is not assignable to type 'number'` and not against the column types.
  Row[] | readonly Row[] | readonly (readonly unknown[])[] | ColumnValues | ArrowLike

/**
 * What `insert` takes: rows (objects or arrays), columns, an Arrow table, or an (async)
 * iterable that yields row objects one at a time or whole chunks (arrays of rows, column
 * objects, Arrow tables or record batches).
 */
export type InsertValues<Row = Record<string, unknown>> =
  | InsertChunk<Row>
  | Iterable<Row | InsertChunk<Row>>
  | AsyncIterable<Row | InsertChunk<Row>>

function isArrowLike(value: unknown): value is ArrowLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ArrowLike).numRows === 'number' &&
    typeof (value as ArrowLike).getChild === 'function' &&
    Array.isArray((value as ArrowLike).schema?.fields)
  )
}

function isColumnValues(value: unknown): value is ColumnValues {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isArrowLike(value)) return false
  if (Symbol.iterator in value || Symbol.asyncIterator in value) return false
  const columns = Object.values(value)
  if (columns.length === 0) return false
  const length = (columns[0] as ArrayLike<unknown>)?.length
  return columns.every(
    (column) =>
      typeof column === 'object' &&
      column !== null &&
      (Array.isArray(column) || ArrayBuffer.isView(column)) &&
      (column as ArrayLike<unknown>).length === length,
  )
}

/** A uniform view of one chunk: its column names (when it has them) and a way to cut it. */
interface Chunk {
  readonly names: readonly string[] | undefined
  readonly rows: number
  /** Values of the `header` columns for rows [start, end). */
  slice(header: readonly ColumnMeta[], start: number, end: number): ColumnInput[]
  /**
   * The `header` columns whole, when they are the caller's own arrays: a block then refers
   * to rows [start, end) of them (a ColumnParts range) instead of holding a copy.
   */
  columns?(header: readonly ColumnMeta[]): ColumnInput[]
}

/**
 * Whether a column takes NULL for a key a row leaves out (as for `undefined`): Nullable,
 * LowCardinality(Nullable), Variant and Dynamic. Any other column needs the key.
 */
function takesNullForMissingKey(type: TypeNode): boolean {
  const inner = type.name === 'LowCardinality' ? (typeArguments(type)[0] ?? type) : type
  return inner.name === 'Nullable' || inner.name === 'Variant' || inner.name === 'Dynamic'
}

/**
 * The error for a row that lacks the key of a column the insert sends. ClickHouse fills a
 * column's DEFAULT only when the insert leaves the column out for the whole block (the
 * column list is per insert, not per row), so a missing key cannot mean "use the default".
 */
function missingKeyError(row: number, column: ColumnMeta): UsageError {
  // The same words whether or not the server told the header its defaults (18.16's native
  // header does not), so both transports say the same.
  return new UsageError(
    `row ${row} has no key ${JSON.stringify(column.name)} (column ${column.name} ${column.type}): give every row the same keys; a column's DEFAULT is used only when the insert leaves the column out for every row (leave the key out of all rows, or out of options.columns)`,
  )
}

/**
 * Row objects. With `refuseUnknownKeys` (the columns came from the first row's keys), a
 * later row with a key that is not among them is a UsageError rather than a value
 * silently dropped; with explicit `options.columns`, keys outside them are ignored.
 */
function rowObjectsChunk(rows: readonly Record<string, unknown>[], refuseUnknownKeys: boolean): Chunk {
  return {
    names: rows.length > 0 ? Object.keys(rows[0]!) : undefined,
    rows: rows.length,
    slice(header, start, end) {
      const known = refuseUnknownKeys ? new Set(header.map((column) => column.name)) : undefined
      for (let row = start; row < end; row++) {
        const value = rows[row]!
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          throw new UsageError(
            `row ${row}: expected an object like the first row, got ${Array.isArray(value) ? 'an array' : typeof value}`,
          )
        }
        if (known) {
          for (const key in value) {
            if (!known.has(key) && value[key] !== undefined)
              throw new UsageError(
                `row ${row} has a key ${JSON.stringify(key)} that is not a column of this insert (${[...known].join(', ')}): give every row the same keys, or pass options.columns to choose the columns`,
              )
          }
        }
      }
      return header.map((column) => {
        const { name } = column
        const nullable = takesNullForMissingKey(column.typeNode)
        const values = new Array<unknown>(end - start)
        for (let row = start; row < end; row++) {
          const value = rows[row]!
          const cell = value[name]
          if (cell === undefined && !nullable && !(name in value)) throw missingKeyError(row, column)
          values[row - start] = cell
        }
        return values
      })
    },
  }
}

function rowArraysChunk(rows: readonly (readonly unknown[])[]): Chunk {
  return {
    names: undefined,
    rows: rows.length,
    slice(header, start, end) {
      return header.map((_, index) => {
        const values = new Array<unknown>(end - start)
        for (let row = start; row < end; row++) {
          const value = rows[row]
          if (!Array.isArray(value) || value.length !== header.length) {
            throw new UsageError(
              `row ${row}: expected an array of ${header.length} values (the table's columns in order)`,
            )
          }
          values[row - start] = value[index]
        }
        return values
      })
    },
  }
}

function sliceColumn(column: ColumnInput, start: number, end: number): ColumnInput {
  if (start === 0 && end === column.length) return column
  if (ArrayBuffer.isView(column)) return (column as unknown as Uint8Array).subarray(start, end)
  return Array.prototype.slice.call(column, start, end)
}

function columnsChunk(columns: ColumnValues): Chunk {
  const names = Object.keys(columns)
  const whole = (header: readonly ColumnMeta[]) =>
    header.map(({ name }) => {
      const column = columns[name]
      if (column === undefined) throw new UsageError(`no values for column ${JSON.stringify(name)}`)
      return column
    })
  return {
    names,
    rows: columns[names[0]!]!.length,
    slice: (header, start, end) => whole(header).map((column) => sliceColumn(column, start, end)),
    columns: whole,
  }
}

function arrowChunk(table: ArrowLike): Chunk {
  const names = table.schema.fields.map((field) => field.name)
  const cache = new Map<string, ColumnInput>()
  const valuesOf = (column: ColumnMeta): ColumnInput => {
    let values = cache.get(column.name)
    if (!values) {
      const vector = table.getChild(column.name)
      if (!vector) throw new UsageError(`the Arrow table has no column ${JSON.stringify(column.name)}`)
      values = arrowColumnValues(vector, column.typeNode)
      cache.set(column.name, values)
    }
    return values
  }
  return {
    names,
    rows: table.numRows,
    slice: (header, start, end) => header.map((column) => sliceColumn(valuesOf(column), start, end)),
  }
}

function chunkOf(value: unknown, refuseUnknownKeys: boolean): Chunk | undefined {
  if (isArrowLike(value)) return arrowChunk(value)
  if (Array.isArray(value)) {
    if (value.length === 0) return { names: undefined, rows: 0, slice: () => [] }
    return Array.isArray(value[0])
      ? rowArraysChunk(value as unknown[][])
      : rowObjectsChunk(value as Record<string, unknown>[], refuseUnknownKeys)
  }
  if (isColumnValues(value)) return columnsChunk(value)
  return undefined
}

/** The chunks of an insert, with the column names the first chunk announces. */
export interface InsertSource {
  /** Column names to insert into, when the values name them (objects, columns, Arrow). */
  readonly names: readonly string[] | undefined
  /**
   * The values in batches of `blockRows` rows (the last may be smaller), in `header` order:
   * a plain iterable when the values are all in memory (arrays, columns, Arrow), which the
   * transports encode whole before sending any, an async one for an (async) iterable input.
   */
  batches(header: readonly ColumnMeta[]): AsyncIterable<InsertBatch> | Iterable<InsertBatch>
  /** Ends the caller's iterator (its `finally` blocks run) if it was not read to the end. */
  close(): Promise<void>
  /**
   * The error the insert fails with: said not written (`insertOutcome`) when the transport
   * never asked for the rows, as it when it did (the transport said what it knows).
   */
  failure(error: unknown): unknown
}

/**
 * Whether an object whose values are all arrays is one row (rather than a chunk of
 * columns): only when each of its columns can take an array as one value (Array, Tuple,
 * ...; or bytes for String), as its codec's insert shape says. A column of plain numbers
 * or text settles it as columns.
 */
function isOneRow(item: ColumnValues, shapes: ReadonlyMap<string, InsertShape>): boolean {
  for (const [name, value] of Object.entries(item)) {
    const shape = shapes.get(name)
    if (!shape) continue
    const fits = shape === 'array' || (value instanceof Uint8Array && shape === 'bytes')
    if (!fits) return false
  }
  return true
}

/**
 * Chunks of an (async) iterable, in `header` terms; single row objects are gathered into
 * chunks of `blockRows`.
 */
async function* iterableChunks(
  items: AsyncIterable<unknown>,
  header: readonly ColumnMeta[],
  blockRows: number,
  refuseUnknownKeys: boolean,
): AsyncGenerator<Chunk> {
  const shapes = new Map(header.map((column) => [column.name, describeCodec(column.typeNode).insertShape]))
  let pending: Record<string, unknown>[] = []
  for await (const item of items) {
    const chunk =
      isColumnValues(item) && isOneRow(item, shapes) ? undefined : chunkOf(item, refuseUnknownKeys)
    if (chunk) {
      if (pending.length) {
        yield rowObjectsChunk(pending, refuseUnknownKeys)
        pending = []
      }
      if (chunk.rows > 0) yield chunk
    } else if (typeof item === 'object' && item !== null) {
      pending.push(item as Record<string, unknown>)
      if (pending.length >= blockRows) {
        yield rowObjectsChunk(pending, refuseUnknownKeys)
        pending = []
      }
    } else throw new UsageError(`cannot insert ${item === null ? 'null' : typeof item} as a row`)
  }
  if (pending.length) yield rowObjectsChunk(pending, refuseUnknownKeys)
}

/** The column names an item of an iterable carries (an object's keys, a chunk's names). */
function namesOf(item: unknown): readonly string[] | undefined {
  if (isArrowLike(item)) return item.schema.fields.map((field) => field.name)
  if (Array.isArray(item)) {
    const first = item[0]
    return typeof first === 'object' && first !== null && !Array.isArray(first)
      ? Object.keys(first)
      : undefined
  }
  return typeof item === 'object' && item !== null ? Object.keys(item) : undefined
}

/** Rows [start, end) of one chunk waiting to fill a block. */
interface Segment {
  readonly chunk: Chunk
  readonly start: number
  readonly end: number
}

/**
 * The columns of a block made of `segments`: a chunk's own arrays are referred to by range
 * (typed arrays as views), other chunks' rows are sliced out of them. Joined by the block
 * writer only for codecs that cannot encode part by part.
 */
function blockColumns(
  header: readonly ColumnMeta[],
  segments: readonly Segment[],
): (ColumnInput | ColumnParts)[] {
  const sources = segments.map(
    (segment) => segment.chunk.columns?.(header) ?? segment.chunk.slice(header, segment.start, segment.end),
  )
  const ranged = segments.map((segment) => segment.chunk.columns !== undefined)
  return header.map((_, index) => {
    const parts = sources.map((columns) => columns[index]!)
    const starts = segments.map((segment, at) => (ranged[at] ? segment.start : 0))
    const ends = segments.map((segment, at) => (ranged[at] ? segment.end : parts[at]!.length))
    const only = parts[0]!
    if (parts.length === 1 && (ArrayBuffer.isView(only) || (starts[0] === 0 && ends[0] === only.length))) {
      // All of one array or a view of a typed array: no copy either way.
      return sliceColumn(only, starts[0]!, ends[0]!)
    }
    return new ColumnParts(parts, starts, ends)
  })
}

/**
 * Cuts chunks into blocks of exactly `blockRows` rows (the last one smaller): large chunks
 * are sliced (typed arrays as views), small ones are held back and joined until a block is
 * full, so a generator yielding ten rows at a time still sends full blocks. At most one
 * block's worth of rows is held back, so memory stays bounded however long the input is.
 */
export async function* coalesce(
  chunks: AsyncIterable<Chunk>,
  header: readonly ColumnMeta[],
  blockRows: number,
): AsyncGenerator<InsertBatch> {
  let held: Segment[] = []
  let heldRows = 0
  const release = (): InsertBatch => {
    const batch = { rows: heldRows, columns: blockColumns(header, held) }
    held = []
    heldRows = 0
    return batch
  }
  for await (const chunk of chunks) {
    let start = 0
    if (heldRows > 0) {
      const take = Math.min(chunk.rows, blockRows - heldRows)
      held.push({ chunk, start: 0, end: take })
      heldRows += take
      start = take
      if (heldRows === blockRows) yield release()
    }
    for (; chunk.rows - start >= blockRows; start += blockRows) {
      yield { rows: blockRows, columns: blockColumns(header, [{ chunk, start, end: start + blockRows }]) }
    }
    if (start < chunk.rows) {
      held.push({ chunk, start, end: chunk.rows })
      heldRows += chunk.rows - start
    }
  }
  if (heldRows > 0) yield release()
}

/**
 * The batches of values already in memory, as a plain (synchronous) iterable: the
 * transports take that as input known whole, and encode every block before the first goes
 * out. Each batch is cut when it is reached, so only the blocks' bytes are held, not the
 * values twice.
 */
function* inMemoryBatches(
  chunk: Chunk,
  header: readonly ColumnMeta[],
  blockRows: number,
): Generator<InsertBatch> {
  for (let start = 0; start < chunk.rows; start += blockRows) {
    const end = Math.min(start + blockRows, chunk.rows)
    yield { rows: end - start, columns: blockColumns(header, [{ chunk, start, end }]) }
  }
}

/**
 * Reads the first item of what the user passed (to learn the column names) and returns a
 * source that replays it followed by the rest, in blocks of `blockRows` rows.
 */
export async function insertSource(
  values: InsertValues<unknown>,
  blockRows: number,
  /** Whether a row's key outside the insert's columns is an error (columns not chosen by the caller). */
  refuseUnknownKeys = true,
): Promise<InsertSource> {
  let source: Omit<InsertSource, 'failure'>
  try {
    source = await openSource(values, blockRows, refuseUnknownKeys)
  } catch (error) {
    throw notWritten(error)
  }
  let started = false
  return {
    names: source.names,
    batches: (header) => {
      started = true
      return source.batches(header)
    },
    close: () => source.close(),
    // Until the transport asks for the rows, none of them went out.
    failure: (error) => (started ? error : notWritten(error)),
  }
}

/**
 * `error` saying that the insert was not written ({@link ClickwireError.insertOutcome}): for
 * a failure before any of its rows went out. With the insert's `source`, as
 * {@link InsertSource.failure} says.
 */
export function notWritten(error: unknown, source?: InsertSource): unknown {
  return source ? source.failure(error) : withOutcome(error, 'not-written')
}

async function openSource(
  values: InsertValues<unknown>,
  blockRows: number,
  refuseUnknownKeys: boolean,
): Promise<Omit<InsertSource, 'failure'>> {
  if (!(Number.isInteger(blockRows) && blockRows > 0))
    throw new UsageError(`insertBlockRows must be a positive integer, got ${blockRows}`)
  const direct = chunkOf(values, refuseUnknownKeys)
  if (direct) {
    return {
      names: direct.names,
      batches: (header) => inMemoryBatches(direct, header, blockRows),
      close: async () => {},
    }
  }
  if (
    typeof values !== 'object' ||
    values === null ||
    !(Symbol.asyncIterator in values || Symbol.iterator in values)
  ) {
    throw new UsageError(
      'insert takes rows (objects or arrays), columns, an Arrow table, or an (async) iterable of them',
    )
  }
  const iterator: AsyncIterator<unknown> | Iterator<unknown> =
    Symbol.asyncIterator in values
      ? (values as AsyncIterable<unknown>)[Symbol.asyncIterator]()
      : (values as Iterable<unknown>)[Symbol.iterator]()
  const first = await iterator.next()
  let finished = first.done === true
  async function* items(): AsyncGenerator<unknown> {
    if (first.done) return
    yield first.value
    for (;;) {
      const next = await iterator.next()
      if (next.done) break
      yield next.value
    }
    finished = true
  }
  return {
    names: first.done ? undefined : namesOf(first.value),
    batches: (header) =>
      coalesce(iterableChunks(items(), header, blockRows, refuseUnknownKeys), header, blockRows),
    close: async () => {
      if (!finished) {
        finished = true
        await iterator.return?.()
      }
    },
  }
}
