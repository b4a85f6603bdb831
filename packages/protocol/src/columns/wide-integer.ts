import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { fixedWidthBytes } from './fixed-width.js'

/**
 * 128- and 256-bit little-endian integers (Int128, UInt256, Decimal128, ...), kept as
 * 64-bit words: value i occupies words `[i * words, (i + 1) * words)`, least significant
 * first. BigInt is made only when a value is read.
 */

/** Reads `rows` values of `words` 64-bit words each: a view of the input when 8-byte aligned, else one copy. */
export function readWords(reader: ByteReader, rows: number, words: number): BigUint64Array {
  const bytes = fixedWidthBytes(reader, rows * words, 8)
  return bytes ? new BigUint64Array(bytes[0], bytes[1], rows * words) : new BigUint64Array(0)
}

/** Value `row` as an unsigned bigint. */
export function wordsToUnsigned(data: BigUint64Array, row: number, words: number): bigint {
  const at = row * words
  if (words === 2) return (data[at + 1]! << 64n) | data[at]!
  return (data[at + 3]! << 192n) | (data[at + 2]! << 128n) | (data[at + 1]! << 64n) | data[at]!
}

/** Value `row` as a bigint, two's complement when `signed`. */
export function wordsToBigInt(data: BigUint64Array, row: number, words: number, signed: boolean): bigint {
  const value = wordsToUnsigned(data, row, words)
  return signed ? BigInt.asIntN(words * 64, value) : value
}

/** Appends `value` (already range-checked) as `words` little-endian 64-bit words. */
export function writeWords(writer: ByteWriter, value: bigint, words: number): void {
  writer.ensure(words * 8)
  const view = writer.view
  let rest = BigInt.asUintN(words * 64, value)
  for (let i = 0; i < words; i++) {
    view.setBigUint64(writer.offset, BigInt.asUintN(64, rest), true)
    writer.offset += 8
    rest >>= 64n
  }
}
