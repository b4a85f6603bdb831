import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ValueMapping } from '../types/value-mapping.js'
import type { CodecContext, CodecFactory, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { toBigInteger } from './fixed-width.js'
import { readWords, wordsToBigInt, writeWords } from './wide-integer.js'

/**
 * A decoded Int128, UInt128, Int256 or UInt256 column: the received 64-bit words (see
 * wide-integer.ts); values per the `int64` mapping.
 */
export class WideIntegerColumn implements Column<bigint | number | string> {
  constructor(
    readonly type: TypeNode,
    /** `words` little-endian 64-bit words per value. */
    readonly data: BigUint64Array,
    readonly words: 2 | 4,
    readonly signed: boolean,
    readonly int64: ValueMapping['int64'] = 'bigint',
  ) {}

  get length(): number {
    return this.data.length / this.words
  }

  get(row: number): bigint | number | string {
    const value = wordsToBigInt(this.data, row, this.words, this.signed)
    return this.int64 === 'bigint' ? value : this.int64 === 'number' ? Number(value) : String(value)
  }

  /** bigints or strings in a JS array; a Float64Array for `int64: 'number'`. */
  values(): bigint[] | Float64Array | string[] {
    const rows = this.length
    if (this.int64 === 'number') {
      const numbers = new Float64Array(rows)
      for (let row = 0; row < rows; row++)
        numbers[row] = Number(wordsToBigInt(this.data, row, this.words, this.signed))
      return numbers
    }
    const out = new Array<bigint | string>(rows)
    for (let row = 0; row < rows; row++) out[row] = this.get(row) as bigint | string
    return out as bigint[] | string[]
  }

  storage(): ColumnStorage {
    return { kind: 'fixed', data: this.data }
  }
}

function wideIntegerFactory(name: string, bits: 128 | 256, signed: boolean): CodecFactory {
  const words = (bits / 64) as 2 | 4
  const min = signed ? -(2n ** BigInt(bits - 1)) : 0n
  const max = signed ? 2n ** BigInt(bits - 1) - 1n : 2n ** BigInt(bits) - 1n
  return (type: TypeNode, context: CodecContext): ColumnCodec<bigint | number | string> => {
    const int64 = context.mapping.int64
    return {
      type,
      layout: { kind: 'fixed', type, width: words * 8, array: 'BigUint64' },
      insertShape: 'scalar',
      tsType: () => int64,
      decodePrefix(): void {},
      decode(reader: ByteReader, rows: number): WideIntegerColumn {
        return new WideIntegerColumn(type, readWords(reader, rows, words), words, signed, int64)
      },
      encodePrefix(): void {},
      encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
        for (let row = 0; row < rows; row++) {
          const value = input[row]
          const big =
            typeof value === 'bigint' && value >= min && value <= max
              ? value
              : toBigInteger(name, row, value, min, max)
          writeWords(writer, big, words)
        }
      },
    }
  }
}

/** Int128: 16 bytes, two's complement, little-endian. Writes bigints, safe-integer numbers and decimal strings. */
export const int128Codec = wideIntegerFactory('Int128', 128, true)
/** UInt128: 16 bytes, little-endian. */
export const uint128Codec = wideIntegerFactory('UInt128', 128, false)
/** Int256: 32 bytes, two's complement, little-endian. */
export const int256Codec = wideIntegerFactory('Int256', 256, true)
/** UInt256: 32 bytes, little-endian. */
export const uint256Codec = wideIntegerFactory('UInt256', 256, false)
