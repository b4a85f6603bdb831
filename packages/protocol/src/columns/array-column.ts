import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { arrayOf } from '../types/ts-type-text.js'
import { innerType, type TypeNode } from '../types/type-node.js'
import type { CodecContext, CodecResolver, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { hasElements, PlanCache, readOffsets, shapeError, sliceValues } from './composite-support.js'

/**
 * A decoded Array(T) column: row bounds over one flattened inner column. Row values are
 * slices of the inner column's values, which are computed once for the whole column.
 */
export class ArrayTypeColumn<Value = unknown> implements Column<Value[]> {
  private innerValues: ArrayLike<Value> | undefined
  private cache: Value[][] | undefined

  constructor(
    readonly type: TypeNode,
    /** `rows + 1` bounds: row i holds inner elements `[bounds[i], bounds[i + 1])`. */
    readonly bounds: Int32Array,
    /** All elements of all rows, back to back. */
    readonly inner: Column<Value>,
  ) {}

  get length(): number {
    return this.bounds.length - 1
  }

  get(row: number): Value[] {
    if (this.cache) return this.cache[row]!
    this.innerValues ??= this.inner.values()
    return sliceValues(this.innerValues, this.bounds[row]!, this.bounds[row + 1]!)
  }

  /** One JS array per row (computed once). */
  values(): Value[][] {
    if (this.cache) return this.cache
    const bounds = this.bounds
    const inner = (this.innerValues ??= this.inner.values())
    const rows = bounds.length - 1
    const out = new Array<Value[]>(rows)
    for (let row = 0; row < rows; row++) out[row] = sliceValues(inner, bounds[row]!, bounds[row + 1]!)
    this.cache = out
    return out
  }

  storage(): ColumnStorage {
    return { kind: 'list', offsets: this.bounds, inner: this.inner }
  }
}

/** What an Array encoder derived from its input: the offsets and all elements in one list. */
export interface ArrayPlan {
  /** `rows + 1` bounds, like {@link ArrayTypeColumn.bounds}. */
  bounds: Float64Array
  elements: unknown[]
}

/** Flattens rows of array-likes (arrays, typed arrays, any `length` + index object but strings). */
export function flattenArrays(typeName: string, input: ColumnInput): ArrayPlan {
  const rows = input.length
  const bounds = new Float64Array(rows + 1)
  let total = 0
  for (let row = 0; row < rows; row++) {
    const value = input[row] as ArrayLike<unknown> | null | undefined
    if (value === null || typeof value !== 'object' || typeof value.length !== 'number')
      throw shapeError(typeName, row, 'an array', value)
    total += value.length
    bounds[row + 1] = total
  }
  const elements = new Array<unknown>(total)
  let at = 0
  for (let row = 0; row < rows; row++) {
    const value = input[row] as ArrayLike<unknown>
    for (let i = 0; i < value.length; i++) elements[at++] = value[i]
  }
  return { bounds, elements }
}

/** Writes the offsets of the first `rows` rows. */
export function writeOffsets(writer: ByteWriter, bounds: Float64Array, rows: number): void {
  writer.ensure(rows * 8)
  for (let row = 1; row <= rows; row++) writer.u64Number(bounds[row]!)
}

/**
 * Array(T) over an already made element codec; Nested and the geo types reuse it with
 * their own type name.
 */
export function arrayCodecOf(type: TypeNode, inner: ColumnCodec): ColumnCodec<unknown[]> {
  const typeName = type.name
  const plans = new PlanCache<ArrayPlan>((input) => flattenArrays(typeName, input))
  return {
    type,
    layout: { kind: 'list', type, element: inner.layout },
    insertShape: 'array',
    tsType: (unsupported) => arrayOf(inner.tsType(unsupported)),
    decodePrefix(reader: ByteReader): void {
      inner.decodePrefix(reader)
    },
    decode(reader: ByteReader, rows: number): ArrayTypeColumn {
      const bounds = readOffsets(reader, rows, `${typeName} offsets`)
      if (!bounds) return new ArrayTypeColumn(type, new Int32Array(1), inner.decode(reader, 0))
      const count = bounds[rows]!
      if (!hasElements(reader, count, `${typeName} elements`))
        return new ArrayTypeColumn(type, new Int32Array(1), inner.decode(reader, 0))
      return new ArrayTypeColumn(type, bounds, inner.decode(reader, count))
    },
    encodePrefix(writer: ByteWriter, input: ColumnInput): void {
      inner.encodePrefix(writer, plans.get(input).elements)
    },
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      const plan = plans.take(input)
      writeOffsets(writer, plan.bounds, rows)
      inner.encode(writer, plan.elements, plan.bounds[rows]!)
    },
  }
}

/** Reads and writes Array(T): UInt64 cumulative offsets per row, then all elements as one T column. */
export function arrayCodec(type: TypeNode, _context: CodecContext, codecFor: CodecResolver): ColumnCodec {
  return arrayCodecOf(type, codecFor(innerType(type)))
}
