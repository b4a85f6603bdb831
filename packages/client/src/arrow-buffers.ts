import { type Data, makeData, Utf8 } from 'apache-arrow'

/**
 * Buffer helpers for building Arrow data from decoded ClickHouse columns. Each builds the
 * Arrow layout in one pass over typed arrays; none allocates per row.
 */

/** Arrow's validity bitmap (1 = valid) from a predicate per row, and the number of nulls. */
export function validityOf(
  length: number,
  isNull: (row: number) => boolean,
): { bitmap: Uint8Array; nullCount: number } {
  const bitmap = new Uint8Array((length + 7) >> 3)
  let nullCount = 0
  for (let row = 0; row < length; row++) {
    if (isNull(row)) nullCount++
    else bitmap[row >> 3]! |= 1 << (row & 7)
  }
  return { bitmap, nullCount }
}

/** A ClickHouse null map (one byte per row, non-zero = NULL) as an Arrow validity bitmap. */
export function validityFromNullMap(nulls: Uint8Array): { bitmap: Uint8Array; nullCount: number } {
  return validityOf(nulls.length, (row) => nulls[row] !== 0)
}

/** One byte per boolean (ClickHouse Bool / UInt8) packed into Arrow's one bit per value. */
export function packBits(bytes: Uint8Array): Uint8Array {
  const bits = new Uint8Array((bytes.length + 7) >> 3)
  for (let row = 0; row < bytes.length; row++) if (bytes[row]) bits[row >> 3]! |= 1 << (row & 7)
  return bits
}

/** Unsigned 32-bit values widened to Arrow's 64-bit integers (seconds of a DateTime). */
export function widenUnsigned32(values: Uint32Array): BigInt64Array {
  const words = new Uint32Array(values.length * 2)
  for (let row = 0; row < values.length; row++) words[2 * row] = values[row]!
  return new BigInt64Array(words.buffer)
}

/** Signed 32-bit values widened to 64 bits (two's complement: the high word repeats the sign). */
export function widenSigned32(values: Int32Array): BigInt64Array {
  const words = new Int32Array(values.length * 2)
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!
    words[2 * row] = value
    words[2 * row + 1] = value >> 31
  }
  return new BigInt64Array(words.buffer)
}

/**
 * Sign-extends fixed-width two's complement integers of `fromWords` 32-bit words to
 * `toWords` words (Decimal32/64 into Arrow's Decimal128).
 */
export function signExtendWords(source: Int32Array, fromWords: number, toWords: number): Uint32Array {
  const rows = source.length / fromWords
  const out = new Int32Array(rows * toWords)
  for (let row = 0; row < rows; row++) {
    const from = row * fromWords
    const to = row * toWords
    for (let word = 0; word < fromWords; word++) out[to + word] = source[from + word]!
    const sign = source[from + fromWords - 1]! >> 31
    for (let word = fromWords; word < toWords; word++) out[to + word] = sign
  }
  return new Uint32Array(out.buffer)
}

/** 64-bit ticks multiplied by `factor` (DateTime64 precisions Arrow has no unit for). */
export function scaleTicks(ticks: BigInt64Array, factor: bigint): BigInt64Array {
  const out = new BigInt64Array(ticks.length)
  for (let row = 0; row < ticks.length; row++) out[row] = ticks[row]! * factor
  return out
}

/** Values of one integer typed array converted into an Int32Array (a native conversion, no JS loop). */
export function toInt32(values: ArrayLike<number> | BigUint64Array | BigInt64Array): Int32Array {
  if (values instanceof Int32Array) return values
  const out = new Int32Array(values.length)
  if (values instanceof BigUint64Array || values instanceof BigInt64Array) {
    for (let row = 0; row < values.length; row++) out[row] = Number(values[row]!)
  } else out.set(values)
  return out
}

const encoder = new TextEncoder()

/**
 * Utf8 data from JS strings (values clickwire had to make as text: UUID, IP addresses, wide
 * integers, JSON). `null` entries become nulls.
 */
export function utf8Data(strings: ArrayLike<string | null | undefined>, type = new Utf8()): Data<Utf8> {
  const length = strings.length
  const offsets = new Int32Array(length + 1)
  let capacity = 16
  for (let row = 0; row < length; row++) capacity += (strings[row]?.length ?? 0) * 3
  let bytes = new Uint8Array(capacity)
  let at = 0
  let hasNull = false
  for (let row = 0; row < length; row++) {
    const text = strings[row]
    if (text === null || text === undefined) hasNull = true
    else at += encoder.encodeInto(text, bytes.subarray(at)).written
    offsets[row + 1] = at
  }
  bytes = bytes.subarray(0, at)
  if (!hasNull) return makeData({ type, length, valueOffsets: offsets, data: bytes })
  const { bitmap, nullCount } = validityOf(length, (row) => strings[row] == null)
  return makeData({ type, length, valueOffsets: offsets, data: bytes, nullBitmap: bitmap, nullCount })
}

/** Binary-layout data (offsets + bytes) from byte arrays. */
export function binaryParts(values: ArrayLike<Uint8Array>): { offsets: Int32Array; bytes: Uint8Array } {
  const offsets = new Int32Array(values.length + 1)
  let total = 0
  for (let row = 0; row < values.length; row++) {
    total += values[row]!.length
    offsets[row + 1] = total
  }
  const bytes = new Uint8Array(total)
  for (let row = 0; row < values.length; row++) bytes.set(values[row]!, offsets[row]!)
  return { offsets, bytes }
}
