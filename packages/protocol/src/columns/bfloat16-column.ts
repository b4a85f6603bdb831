import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { fixedWidthBytes, float32Overflow, toFloat, writeTypedArray } from './fixed-width.js'

/**
 * A decoded BFloat16 column: the upper 16 bits of a Float32 per row. Every BFloat16 value
 * is exactly a Float32, so the values are a Float32Array (made once, on first access).
 */
export class BFloat16Column implements Column<number> {
  private cache: Float32Array | undefined

  constructor(
    readonly type: TypeNode,
    /** The raw 16-bit patterns, as received. */
    readonly bits: Uint16Array,
  ) {}

  get length(): number {
    return this.bits.length
  }

  get(row: number): number {
    return this.values()[row]!
  }

  values(): Float32Array {
    if (this.cache) return this.cache
    const wide = new Uint32Array(this.bits.length)
    for (let row = 0; row < wide.length; row++) wide[row] = this.bits[row]! << 16
    this.cache = new Float32Array(wide.buffer)
    return this.cache
  }

  /** The raw 16-bit patterns: Arrow has no BFloat16, so consumers widen them as `values` does. */
  storage(): ColumnStorage {
    return { kind: 'fixed', data: this.bits }
  }
}

/**
 * Reads and writes BFloat16: 2 bytes per value, the high half of the IEEE Float32. Writing
 * drops the low half, as ClickHouse's own Float32 -> BFloat16 conversion does, so a number
 * that is not exactly a BFloat16 is rounded toward zero.
 */
export function bfloat16Codec(type: TypeNode): ColumnCodec<number> {
  return {
    type,
    layout: { kind: 'fixed', type, width: 2, array: 'Uint16' },
    insertShape: 'scalar',
    tsType: () => 'number',
    fixedWidth: 2,
    concatenable: true,
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): BFloat16Column {
      const bytes = fixedWidthBytes(reader, rows, 2)
      return new BFloat16Column(type, bytes ? new Uint16Array(bytes[0], bytes[1], rows) : new Uint16Array(0))
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      const wide = new Float32Array(rows)
      for (let row = 0; row < rows; row++) {
        const value = input[row]
        // Beyond Float32's range a number would be cut to an infinity: toFloat refuses it.
        wide[row] =
          typeof value === 'number' && Math.abs(value) < float32Overflow
            ? value
            : toFloat('BFloat16', row, value)
      }
      const words = new Uint32Array(wide.buffer)
      const bits = new Uint16Array(rows)
      for (let row = 0; row < rows; row++) bits[row] = words[row]! >>> 16
      writeTypedArray(writer, bits, rows, 2)
    },
  }
}
