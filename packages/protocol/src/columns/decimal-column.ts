import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ValueMapping } from '../types/value-mapping.js'
import type { CodecContext, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import {
  decimalNumberOfBigInt,
  decimalNumberOfNumber,
  decimalTextOfBigInt,
  decimalTextOfNumber,
  toUnscaledDecimal,
} from './decimal-text.js'
import { fixedWidthBytes } from './fixed-width.js'
import { integerArgument } from './type-arguments.js'
import { readWords, wordsToBigInt, writeWords } from './wide-integer.js'

/** Bytes per value by precision: ClickHouse picks the narrowest of 4, 8, 16 and 32. */
export function decimalWidth(precision: number): 4 | 8 | 16 | 32 {
  return precision <= 9 ? 4 : precision <= 18 ? 8 : precision <= 38 ? 16 : 32
}

/** Precision and scale of `Decimal(P, S)`, `Decimal32(S)`, `Decimal64(S)`, `Decimal128(S)`, `Decimal256(S)`. */
export function decimalParameters(type: TypeNode): { precision: number; scale: number } {
  const fixed = { Decimal32: 9, Decimal64: 18, Decimal128: 38, Decimal256: 76 }[type.name]
  if (fixed !== undefined) return { precision: fixed, scale: integerArgument(type, 0, 0, fixed, 'scale') }
  const precision = integerArgument(type, 0, 1, 76, 'precision')
  const scale =
    type.args.filter((arg) => arg.kind === 'number').length > 1
      ? integerArgument(type, 1, 0, precision, 'scale')
      : 0
  return { precision, scale }
}

/**
 * A decoded Decimal column: the unscaled integers as received (Int32Array, BigInt64Array,
 * or 64-bit words for 128/256 bits). Values are exact text with exactly S fraction digits,
 * or the nearest JS number for `decimal: 'number'`.
 */
export class DecimalColumn implements Column<string | number> {
  private readonly halves: Int32Array | undefined

  constructor(
    readonly type: TypeNode,
    /** Unscaled values; for 16 and 32 bytes, 2 or 4 little-endian words per value. */
    readonly data: Int32Array | BigInt64Array | BigUint64Array,
    readonly width: 4 | 8 | 16 | 32,
    readonly scale: number,
    readonly decimal: ValueMapping['decimal'] = 'string',
  ) {
    // Most Decimal64 values fit 53 bits: reading the halves then avoids a BigInt.
    if (width === 8) this.halves = new Int32Array(data.buffer, data.byteOffset, data.length * 2)
  }

  get length(): number {
    return this.width <= 8 ? this.data.length : (this.data.length * 8) / this.width
  }

  /** The unscaled integer of one row. */
  unscaled(row: number): number | bigint {
    const width = this.width
    if (width === 4) return (this.data as Int32Array)[row]!
    if (width === 8) {
      const high = this.halves![2 * row + 1]!
      if (high >= -0x200000 && high < 0x200000) return high * 4294967296 + (this.halves![2 * row]! >>> 0)
      return (this.data as BigInt64Array)[row]!
    }
    return wordsToBigInt(this.data as BigUint64Array, row, width / 8, true)
  }

  get(row: number): string | number {
    const unscaled = this.unscaled(row)
    if (typeof unscaled === 'number')
      return this.decimal === 'string'
        ? decimalTextOfNumber(unscaled, this.scale)
        : decimalNumberOfNumber(unscaled, this.scale)
    return this.decimal === 'string'
      ? decimalTextOfBigInt(unscaled, this.scale)
      : decimalNumberOfBigInt(unscaled, this.scale)
  }

  /** Strings for `decimal: 'string'`; a Float64Array for `decimal: 'number'`. */
  values(): string[] | Float64Array {
    const rows = this.length
    if (this.decimal === 'number') {
      const numbers = new Float64Array(rows)
      for (let row = 0; row < rows; row++) numbers[row] = this.get(row) as number
      return numbers
    }
    const texts = new Array<string>(rows)
    for (let row = 0; row < rows; row++) texts[row] = this.get(row) as string
    return texts
  }

  storage(): ColumnStorage {
    return { kind: 'fixed', data: this.data }
  }
}

/**
 * Reads and writes Decimal(P, S) and Decimal32/64/128/256(S): the unscaled integer
 * (value * 10^S) in 4, 8, 16 or 32 little-endian bytes by P. Writes decimal strings and
 * numbers (a number as its shortest text) exactly: nonzero digits past S are an error for
 * both; bigints are integer values; more than P - S integer digits is an error.
 */
export function decimalCodec(type: TypeNode, context: CodecContext): ColumnCodec<string | number> {
  const { precision, scale } = decimalParameters(type)
  const width = decimalWidth(precision)
  const limit = 10n ** BigInt(precision)
  const decimal = context.mapping.decimal
  const typeName = `Decimal(${precision}, ${scale})`
  return {
    type,
    layout: {
      kind: 'fixed',
      type,
      width,
      array: width === 4 ? 'Int32' : width === 8 ? 'BigInt64' : 'BigUint64',
    },
    insertShape: 'scalar',
    tsType: () => decimal,
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): DecimalColumn {
      let data: Int32Array | BigInt64Array | BigUint64Array
      if (width === 4) {
        const bytes = fixedWidthBytes(reader, rows, 4)
        data = bytes ? new Int32Array(bytes[0], bytes[1], rows) : new Int32Array(0)
      } else if (width === 8) {
        const bytes = fixedWidthBytes(reader, rows, 8)
        data = bytes ? new BigInt64Array(bytes[0], bytes[1], rows) : new BigInt64Array(0)
      } else data = readWords(reader, rows, width / 8)
      return new DecimalColumn(type, data, width, scale, decimal)
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      writer.ensure(rows * width)
      for (let row = 0; row < rows; row++) {
        const unscaled = toUnscaledDecimal(typeName, row, input[row], precision, scale, limit)
        if (width === 4) writer.i32(Number(unscaled))
        else if (width === 8) writer.i64(unscaled)
        else writeWords(writer, unscaled, width / 8)
      }
    },
  }
}
