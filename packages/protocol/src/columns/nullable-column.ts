import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { unionOf } from '../types/ts-type-text.js'
import { innerType, type TypeNode } from '../types/type-node.js'
import type { CodecContext, CodecResolver, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { PlanCache, zeroValue } from './composite-support.js'

/**
 * A decoded Nullable(T) column: the null map (a view of the received bytes, non-zero =
 * NULL) over an inner column that holds a placeholder at every NULL row.
 */
export class NullableColumn<Value = unknown> implements Column<Value | null> {
  private cache: (Value | null)[] | undefined

  constructor(
    readonly type: TypeNode,
    /** One byte per row; non-zero means NULL. */
    readonly nulls: Uint8Array,
    readonly inner: Column<Value>,
  ) {}

  get length(): number {
    return this.nulls.length
  }

  get(row: number): Value | null {
    return this.nulls[row] ? null : this.inner.get(row)
  }

  /** All rows: the inner values with null where the null map says so (computed once). */
  values(): (Value | null)[] {
    if (this.cache) return this.cache
    const nulls = this.nulls
    const inner = this.inner.values()
    const out = new Array<Value | null>(nulls.length)
    for (let row = 0; row < nulls.length; row++) out[row] = nulls[row] ? null : (inner[row] as Value)
    this.cache = out
    return out
  }

  storage(): ColumnStorage {
    return { kind: 'nullable', nulls: this.nulls, inner: this.inner }
  }
}

interface NullablePlan {
  nulls: Uint8Array
  inner: unknown[]
}

/** Reads and writes Nullable(T): a UInt8 null map for all rows, then T for all rows. */
export function nullableCodec(type: TypeNode, _context: CodecContext, codecFor: CodecResolver): ColumnCodec {
  const inner = codecFor(innerType(type))
  const plans = new PlanCache<NullablePlan>((input) => {
    const rows = input.length
    const nulls = new Uint8Array(rows)
    const values = new Array<unknown>(rows)
    let placeholder: unknown
    let hasPlaceholder = false
    for (let row = 0; row < rows; row++) {
      const value = input[row]
      if (value === null || value === undefined) {
        nulls[row] = 1
        if (!hasPlaceholder) {
          placeholder = zeroValue(inner)
          hasPlaceholder = true
        }
        values[row] = placeholder
      } else values[row] = value
    }
    if (hasPlaceholder && placeholder === undefined) {
      // Zero bytes are no valid value of T: any real value of the column stands in.
      const stand = values.find((value) => value !== undefined)
      for (let row = 0; row < rows; row++) if (nulls[row]) values[row] = stand
    }
    return { nulls, inner: values }
  })
  return {
    type,
    layout: { kind: 'nullable', type, inner: inner.layout },
    insertShape: inner.insertShape,
    tsType: (unsupported) => unionOf([inner.tsType(unsupported), 'null']),
    decodePrefix(reader: ByteReader): void {
      inner.decodePrefix(reader)
    },
    decode(reader: ByteReader, rows: number): NullableColumn {
      const nulls = reader.take(rows)
      if (reader.short) return new NullableColumn(type, new Uint8Array(0), inner.decode(reader, 0))
      return new NullableColumn(type, nulls, inner.decode(reader, rows))
    },
    encodePrefix(writer: ByteWriter, input: ColumnInput): void {
      inner.encodePrefix(writer, plans.get(input).inner)
    },
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      const plan = plans.take(input)
      writer.raw(plan.nulls.subarray(0, rows))
      inner.encode(writer, plan.inner, rows)
    },
  }
}
