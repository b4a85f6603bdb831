import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { type TypeNode, typeArguments } from '../types/type-node.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { shapeError } from './composite-support.js'
import { fixedWidthBytes } from './fixed-width.js'

/** Bits per element of each QBit element type. */
const elementBits: Readonly<Record<string, number>> = { BFloat16: 16, Float32: 32, Float64: 64 }

interface QBitShape {
  /** Bits of one element: the number of bit planes. */
  readonly bits: number
  /** Elements per vector. */
  readonly dimension: number
  /** Bytes of one vector in one bit plane: one bit per element. */
  readonly planeBytes: number
}

function shapeOf(type: TypeNode): QBitShape {
  const element = typeArguments(type)[0]?.name ?? ''
  const bits = elementBits[element]
  const dimension = type.args.find((arg) => arg.kind === 'number')
  if (bits === undefined || dimension?.kind !== 'number' || dimension.value < 1)
    throw new UsageError(`QBit needs BFloat16, Float32 or Float64 and a dimension: ${type.name}`)
  return { bits, dimension: dimension.value, planeBytes: Math.ceil(dimension.value / 8) }
}

/**
 * Element `j`'s IEEE bit patterns as 32-bit words: one word per element for BFloat16 (in
 * the high half) and Float32, two (low word first) for Float64.
 */
function wordsPerElement(bits: number): number {
  return bits === 64 ? 2 : 1
}

/** A decoded QBit column: one vector of numbers per row, from the transposed bit planes. */
export class QBitColumn implements Column<number[]> {
  private cache: number[][] | undefined

  constructor(
    readonly type: TypeNode,
    private readonly shape: QBitShape,
    private readonly planes: Uint8Array,
    readonly length: number,
  ) {}

  get(row: number): number[] {
    return this.values()[row]!
  }

  values(): number[][] {
    if (this.cache) return this.cache
    const { bits, dimension, planeBytes } = this.shape
    const per = wordsPerElement(bits)
    const words = new Uint32Array(this.length * dimension * per)
    const planeSize = this.length * planeBytes
    const last = planeBytes - 1
    for (let plane = 0; plane < bits; plane++) {
      // Plane 0 holds the most significant bit (the sign) of every element.
      const bit = bits - 1 - plane
      const word = bits === 64 ? (bit >= 32 ? 1 : 0) : 0
      const mask = (bits === 16 ? 1 << (bit + 16) : 1 << (bit & 31)) >>> 0
      const base = plane * planeSize
      for (let row = 0; row < this.length; row++) {
        const at = base + row * planeBytes
        for (let j = 0; j < dimension; j++) {
          if ((this.planes[at + last - (j >> 3)]! >> (j & 7)) & 1) {
            const index = (row * dimension + j) * per + word
            words[index] = (words[index]! | mask) >>> 0
          }
        }
      }
    }
    const floats = bits === 64 ? new Float64Array(words.buffer) : new Float32Array(words.buffer)
    const out = new Array<number[]>(this.length)
    for (let row = 0; row < this.length; row++)
      out[row] = Array.from(floats.subarray(row * dimension, (row + 1) * dimension))
    this.cache = out
    return out
  }

  storage(): ColumnStorage {
    return { kind: 'values' }
  }
}

/**
 * Reads and writes QBit(T, N), a vector of N BFloat16/Float32/Float64 stored transposed:
 * as a Tuple of one FixedString(ceil(N / 8)) per bit of T, most significant bit first.
 * Each FixedString is an N-bit mask written big-endian: element j is bit `j % 8` of byte
 * `ceil(N / 8) - 1 - floor(j / 8)` (checked against 26.7's Native output for N = 3, 9, 17, 70).
 * Values are arrays of numbers.
 */
export function qbitCodec(type: TypeNode): ColumnCodec<number[]> {
  const shape = shapeOf(type)
  const { bits, dimension, planeBytes } = shape
  return {
    type,
    // Transposed bit planes, which nothing outside reads: the vectors are the values.
    layout: { kind: 'values', type },
    insertShape: 'array',
    tsType: () => 'number[]',
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): QBitColumn {
      const size = rows * planeBytes * bits
      const bytes = fixedWidthBytes(reader, 1, size)
      const planes = bytes ? new Uint8Array(bytes[0], bytes[1], size) : new Uint8Array(0)
      return new QBitColumn(type, shape, planes, bytes ? rows : 0)
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      const per = wordsPerElement(bits)
      const floats = bits === 64 ? new Float64Array(rows * dimension) : new Float32Array(rows * dimension)
      for (let row = 0; row < rows; row++) {
        const vector = input[row] as ArrayLike<unknown> | null | undefined
        if (vector === null || typeof vector !== 'object' || vector.length !== dimension)
          throw shapeError(type.name, row, `an array of ${dimension} numbers`, vector)
        for (let j = 0; j < dimension; j++) {
          const value = vector[j]
          if (typeof value !== 'number') throw shapeError(type.name, row, 'numbers', value)
          floats[row * dimension + j] = value
        }
      }
      const words = new Uint32Array(floats.buffer)
      // BFloat16 keeps the high half of the Float32, as ClickHouse's own conversion does.
      const size = rows * planeBytes * bits
      writer.ensure(size)
      const out = writer.bytes
      out.fill(0, writer.offset, writer.offset + size)
      const planeSize = rows * planeBytes
      for (let plane = 0; plane < bits; plane++) {
        const bit = bits - 1 - plane
        const word = bits === 64 ? (bit >= 32 ? 1 : 0) : 0
        const shift = bits === 16 ? bit + 16 : bit & 31
        const base = writer.offset + plane * planeSize
        for (let row = 0; row < rows; row++) {
          for (let j = 0; j < dimension; j++) {
            if ((words[(row * dimension + j) * per + word]! >>> shift) & 1)
              out[base + row * planeBytes + planeBytes - 1 - (j >> 3)]! |= 1 << (j & 7)
          }
        }
      }
      writer.offset += size
    },
  }
}
