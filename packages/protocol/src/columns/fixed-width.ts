import { UsageError } from '../errors/usage-error.js'
import { allocateBytes } from '../io/byte-allocation.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { describeValue } from './column-codec.js'

/**
 * Native data is little-endian, like every platform JS engines run on, so typed arrays can
 * view it directly.
 *
 * The bytes of `rows` fixed-width values as `[buffer, byteOffset]` suitable for a typed
 * array of `width`-byte elements: a view of the input when it is aligned, otherwise one
 * copy into fresh aligned memory. Returns undefined when the input is short.
 */
export function fixedWidthBytes(
  reader: ByteReader,
  rows: number,
  width: number,
): [ArrayBufferLike, number] | undefined {
  const size = rows * width
  const at = reader.offset
  if (!reader.has(size)) {
    if (!reader.align && reader.missing === at + size) reader.align = { at, width }
    return undefined
  }
  const bytes = reader.bytes
  const start = bytes.byteOffset + reader.offset
  reader.offset += size
  const misalignment = start % width
  if (misalignment === 0) return [bytes.buffer, start]
  if (at === reader.movableAt && at - misalignment >= reader.movableFrom) {
    // Over the column's own name and type: no allocation, and a move within the same
    // bytes, which are in cache already.
    bytes.copyWithin(at - misalignment, at, at + size)
    reader.movableAt = -1
    return [bytes.buffer, start - misalignment]
  }
  // Unzeroed memory: every byte is overwritten at once (a zeroed buffer of this size costs
  // fresh pages, i.e. page faults, on every block). Reused memory when the consumer allows.
  const copy = reader.scratch ? reader.scratch(size) : allocateBytes(size)
  copy.set(bytes.subarray(reader.offset - size, reader.offset))
  return [copy.buffer, copy.byteOffset]
}

/** Writes the raw bytes of a typed array (little-endian host). */
export function writeTypedArray(
  writer: ByteWriter,
  values: ArrayBufferView,
  rows: number,
  width: number,
): void {
  writer.raw(new Uint8Array(values.buffer, values.byteOffset, rows * width))
}

/** The error every numeric encoder throws for a value that does not fit its type. */
export function valueError(typeName: string, row: number, value: unknown, why = ''): UsageError {
  return new UsageError(
    `row ${row}: ${describeValue(value)} is not a valid ${typeName}${why ? ` (${why})` : ''}`,
  )
}

/** Converts a JS value to an integer within [min, max] for a column of up to 32 bits. */
export function toSmallInteger(
  typeName: string,
  row: number,
  value: unknown,
  min: number,
  max: number,
): number {
  let number: number
  if (typeof value === 'number') number = value
  else if (typeof value === 'bigint') number = Number(value)
  else if (typeof value === 'boolean') number = value ? 1 : 0
  else if (typeof value === 'string' && integerText.test(value)) number = Number(value)
  else throw valueError(typeName, row, value)
  if (!Number.isInteger(number))
    throw valueError(typeName, row, value, Number.isFinite(number) ? 'not an integer' : 'not a finite number')
  if (number < min || number > max) throw valueError(typeName, row, value, 'out of range')
  return number
}

/** Converts a JS value to a bigint within [min, max] for a 64-bit (or wider) integer column. */
export function toBigInteger(
  typeName: string,
  row: number,
  value: unknown,
  min: bigint,
  max: bigint,
): bigint {
  let big: bigint
  if (typeof value === 'bigint') big = value
  else if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw valueError(typeName, row, value, 'not an integer')
    big = BigInt(value)
  } else if (typeof value === 'boolean') big = value ? 1n : 0n
  else if (typeof value === 'string' && integerText.test(value)) big = BigInt(value)
  else throw valueError(typeName, row, value)
  if (big < min || big > max) throw valueError(typeName, row, value, 'out of range')
  return big
}

/** Converts a JS value to a float: numbers, bigints, numeric strings, `inf`/`nan` spellings. */
export function toFloat(typeName: string, row: number, value: unknown): number {
  // NaN and the infinities as they are; a finite number is checked as a bigint is.
  if (typeof value === 'number' && !Number.isFinite(value)) return value
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'bigint' || typeof value === 'number')
    return finiteFloat(typeName, row, value, Number(value))
  if (typeof value === 'string') {
    const text = value.toLowerCase()
    if (text === 'nan' || text === '+nan' || text === '-nan') return Number.NaN
    if (text === 'inf' || text === '+inf' || text === 'infinity' || text === '+infinity')
      return Number.POSITIVE_INFINITY
    if (text === '-inf' || text === '-infinity') return Number.NEGATIVE_INFINITY
    if (floatText.test(text)) return finiteFloat(typeName, row, value, Number(text))
  }
  throw valueError(typeName, row, value)
}

/**
 * The least magnitude that Float32 rounds to an infinity: its largest finite value plus half
 * a unit in the last place (the tie goes to the even neighbour, which is the infinity). Below
 * it a number rounds to a finite Float32, as the server's parser rounds `3.4028235e38`.
 */
export const float32Overflow = 3.4028235677973366e38

/**
 * A finite input that the type would store as an infinity is refused (the server's parser
 * does not make `inf` of digits either). Float32's bound serves BFloat16 too: BFloat16 is
 * cut from the Float32, toward zero, so a finite Float32 stays finite.
 */
function finiteFloat(typeName: string, row: number, value: unknown, number: number): number {
  const bound = typeName === 'Float64' ? Number.POSITIVE_INFINITY : float32Overflow
  if (!(Math.abs(number) < bound)) throw valueError(typeName, row, value, 'out of range')
  return number
}

/** A decimal integer, strictly: no spaces, no hex, no exponent (as in a parameter value). */
const integerText = /^[-+]?\d+$/
/** A decimal float, strictly: no spaces and no hex (Number() would take both). */
const floatText = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/
