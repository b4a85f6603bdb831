import {
  type BlockStream,
  type ColumnMeta,
  joinValues,
  type NativeBlock,
  type ProfileInfo,
  type Progress,
  type RowObject,
  rowArrays,
  rowFactory,
  rowObjects,
  UsageError,
} from '@clickwire/protocol'
import type { RecordBatch, Table } from 'apache-arrow'
import { loadArrow } from './arrow-loader.js'
import type { ArrowConverter } from './arrow-table.js'
import type { ArrowTypeMapOf } from './arrow-type-map.js'
import { type QuerySummary, querySummary } from './query-summary.js'
import type { ResultColumns } from './result-columns.js'
import { rowsHoldNoViews } from './scalar-columns.js'

/**
 * Refuses to key values by column name when two columns share one: ClickHouse allows it
 * (`SELECT 1 AS a, 2 AS a`), but an object would keep only one of them. `arrays()`,
 * `values()` and `blocks()` keep every column; so does aliasing them apart.
 */
function assertUniqueNames(names: readonly string[], method: string): void {
  const seen = new Set<string>()
  for (const name of names) {
    if (seen.has(name))
      throw new UsageError(
        `${method}: the result has two columns named ${JSON.stringify(name)}, and an object keyed by name would keep only one; alias them apart (AS) or use arrays() or blocks()`,
      )
    seen.add(name)
  }
}

/**
 * An object of values by column name. A column named `__proto__` is an own property (as
 * in row objects), never the object's prototype; `constructor`, `toString` and the like are
 * own properties too, shadowing Object.prototype's.
 */
function byName(
  names: readonly string[],
  values: readonly ArrayLike<unknown>[],
): Record<string, ArrayLike<unknown>> {
  const object: Record<string, ArrayLike<unknown>> = {}
  names.forEach((name, index) => {
    Object.defineProperty(object, name, {
      value: values[index],
      enumerable: true,
      writable: true,
      configurable: true,
    })
  })
  return object
}

/** One block of a streamed result, columnar. */
export class ResultBlock<Row = RowObject> {
  private cached: ArrayLike<unknown>[] | undefined

  constructor(
    /** The decoded block as the transport delivered it. */
    readonly native: NativeBlock,
    private readonly converter: () => Promise<ArrowConverter>,
  ) {}

  get rowCount(): number {
    return this.native.rows
  }

  /** Names and ClickHouse types of the block's columns. */
  get meta(): readonly { readonly name: string; readonly type: string }[] {
    return this.native.columns.map((column) => ({ name: column.name, type: column.typeName }))
  }

  /** Each column's values (typed arrays for numbers), in column order. */
  values(): ArrayLike<unknown>[] {
    this.cached ??= this.native.columns.map((column) => column.column.values())
    return this.cached
  }

  /**
   * The block's columns by name (a column named `__proto__` is an own property). Two
   * columns of one name are a UsageError: use `values()` or alias them apart.
   */
  columns(): ResultColumns<Row> {
    const names = this.native.columns.map((column) => column.name)
    assertUniqueNames(names, 'columns()')
    return byName(names, this.values()) as ResultColumns<Row>
  }

  /** The block's rows as objects. Two columns of one name are a UsageError: use `arrays()`. */
  rows(): Row[] {
    assertUniqueNames(
      this.native.columns.map((column) => column.name),
      'rows()',
    )
    return rowObjects(this.native) as Row[]
  }

  /** The block's rows as arrays of values in column order. */
  arrays(): unknown[][] {
    return rowArrays(this.native)
  }

  /**
   * The block as an Arrow record batch (numeric columns share the block's buffers). A
   * promise because apache-arrow is loaded on the first call (see {@link ResultSet.arrow}).
   */
  async arrow(): Promise<RecordBatch<ArrowTypeMapOf<Row>>> {
    return (await this.converter()).recordBatch(this.native) as unknown as RecordBatch<ArrowTypeMapOf<Row>>
  }
}

/** Options of {@link ResultSet.blocks}. */
export interface BlockIterationOptions {
  /**
   * Promise to use each block, and every array or Arrow batch taken from it, only until
   * you ask for the next block or leave the loop; copy what you keep. The native
   * transport then reuses the memory of finished blocks instead of allocating afresh,
   * which spares the garbage collector on long scans. Over HTTP blocks stay valid as usual.
   */
  readonly reuseMemory?: boolean | undefined
}

/** What a ResultSet needs besides the transport's stream. */
export interface ResultSetSetup {
  readonly meta: readonly ColumnMeta[]
  /** The server's time zone (for the Arrow type of DateTime columns that name none). */
  readonly timezone: string
  /** HTTP: the response headers, names lower case (none over native). */
  readonly responseHeaders?: Readonly<Record<string, string>> | undefined
  /** HTTP: the configured header prefix (`X-ClickHouse-`), to find the summary header. */
  readonly headerPrefix?: string | undefined
}

/**
 * The result of one query. It streams: consume it once, as rows, arrays, columns, an
 * Arrow table, an async iteration over rows, or `blocks()`. Leaving it unconsumed holds a
 * connection; `cancel()` (or `await using`) releases it.
 *
 * @example
 * ```ts
 * const rs = await ch.query<{ n: bigint }>('SELECT number AS n FROM system.numbers LIMIT 3')
 * for await (const row of rs) console.log(row.n)
 * ```
 */
export class ResultSet<Row = RowObject> implements AsyncIterable<Row> {
  /** Result column names and ClickHouse types. */
  readonly meta: readonly ColumnMeta[]
  // True private fields: inspect and JSON.stringify never reach the transport behind them.
  readonly #stream: BlockStream
  readonly #timezone: string
  readonly #headerPrefix: string | undefined
  #consumed = false
  #converter: Promise<ArrowConverter> | undefined

  constructor(stream: BlockStream, setup: ResultSetSetup) {
    this.#stream = stream
    this.meta = setup.meta
    this.#timezone = setup.timezone
    this.responseHeaders = setup.responseHeaders ?? {}
    this.#headerPrefix = setup.headerPrefix
  }

  /**
   * The server's response headers, names lower case: HTTP only (`X-ClickHouse-Summary`,
   * `X-ClickHouse-Query-Id`, ...); an empty object over native, whose answers have none.
   */
  readonly responseHeaders: Readonly<Record<string, string>>

  /**
   * What the query did, the same shape on both transports (see {@link QuerySummary}):
   * final once the result was consumed.
   */
  get summary(): QuerySummary {
    const delivered = (this.#stream as { deliveredRows?: number | undefined }).deliveredRows
    return querySummary(
      this.#stream.progress,
      this.#stream.profileInfo,
      this.responseHeaders,
      this.#headerPrefix,
      delivered,
    )
  }

  /** The query id (given or generated). */
  get queryId(): string {
    return this.#stream.queryId
  }

  /** Progress reported by the server so far; final once the result was consumed. */
  get progress(): Progress {
    return this.#stream.progress
  }

  /** What the server says about the complete result (native only; see the README). */
  get profileInfo(): ProfileInfo | undefined {
    return this.#stream.profileInfo
  }

  /** The `WITH TOTALS` row, once the result was consumed (native only; see the README). */
  get totals(): Row | undefined {
    const block = this.#stream.totals
    return block && block.rows > 0 ? (rowObjects(block)[0] as Row) : undefined
  }

  /** Minimums and maximums (`extremes = 1`), once consumed (native only; see the README). */
  get extremes(): Row[] | undefined {
    const block = this.#stream.extremes
    return block ? (rowObjects(block) as Row[]) : undefined
  }

  /** Checked before the result is taken, so `arrays()` still works after the error. */
  #assertUniqueNames(method: string): void {
    assertUniqueNames(
      this.meta.map((column) => column.name),
      method,
    )
  }

  #take(): BlockStream {
    if (this.#consumed) throw new UsageError('a ResultSet can be consumed once')
    this.#consumed = true
    return this.#stream
  }

  #arrowConverter = (): Promise<ArrowConverter> => {
    this.#converter ??= loadArrow().then(
      ({ ArrowConverter }) => new ArrowConverter(this.meta, this.#timezone),
    )
    // A failed load is asked again next time (loadArrow retries).
    this.#converter.catch(() => {
      this.#converter = undefined
    })
    return this.#converter
  }

  /**
   * Streams columnar blocks, reading no further than the consumer.
   *
   * @example
   * ```ts
   * let sum = 0n
   * const rs = await ch.query('SELECT number FROM system.numbers LIMIT 100000000')
   * // Each block is dropped before the next: let the client reuse its memory.
   * for await (const block of rs.blocks({ reuseMemory: true })) {
   *   for (const n of block.values()[0] as BigUint64Array) sum += n
   * }
   * ```
   */
  async *blocks(options: BlockIterationOptions = {}): AsyncGenerator<ResultBlock<Row>, void, undefined> {
    const stream = this.#take()
    if (options.reuseMemory) stream.recycleBlocks?.()
    for await (const block of stream) {
      if (block.rows > 0) yield new ResultBlock<Row>(block, this.#arrowConverter)
    }
  }

  /**
   * Streams rows as objects, one block in memory at a time. Breaking out cancels the query.
   * Two columns of one name are a UsageError (see {@link ResultSet.rows}).
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<Row, void, undefined> {
    this.#assertUniqueNames('iterating rows')
    const stream = this.#take()
    let first = true
    for await (const block of stream) {
      if (first) {
        first = false
        // Each block's rows are built before the next block is asked for, so when no row
        // value can be a view of block memory (scalar columns), the memory of the blocks
        // after this one may be reused (this one's never is: it arrived before the call).
        if (stream.recycleBlocks && rowsHoldNoViews(block.columns.map((column) => column.typeName)))
          stream.recycleBlocks()
      }
      if (block.rows === 0) continue
      const columns = block.columns.map((column) => column.column.values())
      const read = rowFactory(block.columns.map((column) => column.name))(columns)
      for (let row = 0; row < block.rows; row++) yield read(row) as Row
    }
  }

  /**
   * All rows as objects keyed by column name. ClickHouse allows two result columns of one
   * name (`SELECT 1 AS a, 2 AS a`); an object cannot hold both, so that is a UsageError
   * raised before anything is read: alias the columns apart, or use `arrays()`/`blocks()`.
   */
  async rows(): Promise<Row[]> {
    this.#assertUniqueNames('rows()')
    const rows: Row[] = []
    for await (const block of this.#take()) {
      if (block.rows === 0) continue
      const objects = rowObjects(block) as Row[]
      for (let i = 0; i < objects.length; i++) rows.push(objects[i]!)
    }
    return rows
  }

  /** All rows as arrays of values in column order. */
  async arrays(): Promise<unknown[][]> {
    const rows: unknown[][] = []
    for await (const block of this.#take()) {
      if (block.rows === 0) continue
      const arrays = rowArrays(block)
      for (let i = 0; i < arrays.length; i++) rows.push(arrays[i]!)
    }
    return rows
  }

  /**
   * All values by column: one typed array per numeric column (each block copied into it
   * once; a one-block result is the block's own array), a JS array for the rest. A column
   * named `__proto__` is an own property of the object, never its prototype. Two columns of
   * one name are a UsageError, as in {@link ResultSet.rows}.
   */
  async columns(): Promise<ResultColumns<Row>> {
    this.#assertUniqueNames('columns()')
    const parts: ArrayLike<unknown>[][] = this.meta.map(() => [])
    for await (const block of this.#take()) {
      if (block.rows === 0) continue
      block.columns.forEach((column, index) => {
        parts[index]?.push(column.column.values())
      })
    }
    return byName(
      this.meta.map((column) => column.name),
      parts.map((part) => joinValues(part)),
    ) as ResultColumns<Row>
  }

  /**
   * The result as an apache-arrow Table: one record batch per block. Numeric columns
   * (integers, floats, Date32, DateTime64, Decimal128/256) share the received buffers;
   * see the README for how each ClickHouse type maps to Arrow. apache-arrow is loaded on
   * the first call (not when the package is imported); if it cannot be, this is a
   * UsageError and the result is still unread.
   */
  async arrow(): Promise<Table<ArrowTypeMapOf<Row>>> {
    const converter = await this.#arrowConverter()
    const batches: RecordBatch[] = []
    for await (const block of this.#take()) if (block.rows > 0) batches.push(converter.recordBatch(block))
    // The converter builds the schema from the result's columns, which Row describes.
    return converter.table(batches) as unknown as Table<ArrowTypeMapOf<Row>>
  }

  /** Stops the query and releases its connection. Safe to call at any time, and twice. */
  async cancel(): Promise<void> {
    this.#consumed = true
    await this.#stream.cancel()
  }

  /** `await using rs = await ch.query(...)` cancels what was not read. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#stream.cancel()
  }

  toString(): string {
    return `ResultSet(${this.queryId}: ${this.meta.map((column) => `${column.name} ${column.type}`).join(', ')})`
  }

  toJSON(): { queryId: string; meta: { name: string; type: string }[] } {
    return { queryId: this.queryId, meta: this.meta.map(({ name, type }) => ({ name, type })) }
  }

  /** What `util.inspect` shows: never the transport's internals. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString()
  }
}
