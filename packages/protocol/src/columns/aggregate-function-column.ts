import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { type TypeNode, typeToString } from '../types/type-node.js'
import { aggregateStateReader, type StateReader, short } from './aggregate-state-extent.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { valueError } from './fixed-width.js'

/**
 * A decoded AggregateFunction column: each row's serialized state, opaque, as a view of the
 * received bytes. Writing the same bytes back into an AggregateFunction column of the
 * same type inserts the same states.
 */
export class AggregateFunctionColumn implements Column<Uint8Array> {
  constructor(
    readonly type: TypeNode,
    readonly bytes: Uint8Array,
    /** Start of state i at `bounds[i]`, end at `bounds[i + 1]`. */
    readonly bounds: Int32Array,
  ) {}

  get length(): number {
    return Math.max(0, this.bounds.length - 1)
  }

  /** The state of one row (a view, no copy). */
  get(row: number): Uint8Array {
    return this.bytes.subarray(this.bounds[row]!, this.bounds[row + 1]!)
  }

  values(): Uint8Array[] {
    const rows = this.length
    const states = new Array<Uint8Array>(rows)
    for (let row = 0; row < rows; row++) states[row] = this.get(row)
    return states
  }

  storage(): ColumnStorage {
    return {
      kind: 'bytes',
      contiguous: () => {
        // The states lie back to back already: one view, and the bounds shifted to start at 0.
        const rows = this.length
        const first = rows > 0 ? this.bounds[0]! : 0
        const offsets = new Int32Array(rows + 1)
        for (let row = 1; row <= rows; row++) offsets[row] = this.bounds[row]! - first
        return { data: this.bytes.subarray(first, first + offsets[rows]!), offsets }
      },
    }
  }
}

/**
 * Reads and writes AggregateFunction(f, T...) columns, for the functions listed in
 * aggregate-state-extent.ts. Writes one Uint8Array per row holding exactly one state of
 * the column's function (as read from ClickHouse); other input is an error. For other
 * functions, any non-empty block is a UsageError naming the function (an empty one, such
 * as a header, is fine).
 */
export function aggregateFunctionCodec(type: TypeNode): ColumnCodec<Uint8Array> {
  const found = aggregateStateReader(type)
  const reader: StateReader | undefined = typeof found === 'string' ? undefined : found
  const unsupported = (): UsageError => new UsageError(found as string)
  const typeName = typeToString(type)
  return {
    type,
    layout: { kind: 'bytes', type, prefixed: false },
    insertShape: 'bytes',
    tsType(unsupported?: string[]): string {
      if (reader) return 'Uint8Array'
      unsupported?.push(found as string)
      return 'unknown'
    },
    decodePrefix(): void {},
    decode(input: ByteReader, rows: number): AggregateFunctionColumn {
      const bounds = new Int32Array(rows + 1)
      bounds[0] = input.offset
      if (rows === 0) return new AggregateFunctionColumn(type, input.bytes, bounds.subarray(0, 0))
      if (!reader) throw unsupported()
      const bytes = input.bytes
      const limit = input.limit
      let at = input.offset
      for (let row = 0; row < rows; row++) {
        const end = reader(bytes, at, limit)
        if (end === short) {
          input.need(limit + 1)
          input.offset = limit
          return new AggregateFunctionColumn(type, bytes, bounds.subarray(0, row + 1))
        }
        at = end
        bounds[row + 1] = at
      }
      input.offset = at
      return new AggregateFunctionColumn(type, bytes, bounds)
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      if (rows > 0 && !reader) throw unsupported()
      for (let row = 0; row < rows; row++) {
        const value = input[row]
        if (!(value instanceof Uint8Array))
          throw valueError(typeName, row, value, 'expected the serialized state as a Uint8Array')
        if (reader!(value, 0, value.length) !== value.length)
          throw valueError(typeName, row, value, 'not exactly one serialized state of this function')
        writer.raw(value)
      }
    },
  }
}
