import { ProtocolError } from '../errors/protocol-error.js'
import { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { canonicalTypeName } from '../types/type-aliases.js'
import { innerType, type TypeNode } from '../types/type-node.js'
import type { Column, ColumnCodec, ColumnInput } from './column-codec.js'
import { scanStrings } from './string-column.js'

/** Bytes per value of the fixed-width families (ClickHouse's default value of each is all zeros). */
const familyWidths: Readonly<Record<string, number>> = {
  Int8: 1,
  UInt8: 1,
  Bool: 1,
  Enum8: 1,
  Int16: 2,
  UInt16: 2,
  Date: 2,
  Enum16: 2,
  BFloat16: 2,
  Int32: 4,
  UInt32: 4,
  Float32: 4,
  Date32: 4,
  DateTime: 4,
  DateTime32: 4,
  IPv4: 4,
  Decimal32: 4,
  Time: 4,
  Int64: 8,
  UInt64: 8,
  Float64: 8,
  DateTime64: 8,
  Decimal64: 8,
  Time64: 8,
  Int128: 16,
  UInt128: 16,
  UUID: 16,
  IPv6: 16,
  Decimal128: 16,
  Int256: 32,
  UInt256: 32,
  Decimal256: 32,
}

/** The width of one value of `type` in Native, when every value has the same width. */
export function valueWidth(type: TypeNode): number | undefined {
  const name = canonicalTypeName(type.name)
  if (name.startsWith('Interval')) return 8
  if (name === 'FixedString') {
    const size = type.args[0]
    return size?.kind === 'number' ? Number(size.value) : undefined
  }
  if (name === 'Decimal') {
    const precision = type.args[0]
    if (precision?.kind !== 'number') return undefined
    const digits = Number(precision.value)
    return digits <= 9 ? 4 : digits <= 18 ? 8 : digits <= 38 ? 16 : 32
  }
  return familyWidths[name]
}

/** SerializationSparse's mark after the last group: 2^62, in the 9th byte of the VarUInt. */
const endOfGranuleBit = 0x40

/**
 * Reads one group of the offsets stream: the number of default rows before the next
 * non-default one, or, for the closing group (flag 2^62 set), -(trailing defaults + 1).
 * Returns undefined when the input is short.
 */
function readGroup(reader: ByteReader): number | undefined {
  let result = 0
  let scale = 1
  for (let i = 0; i < 9; i++) {
    const byte = reader.u8()
    if (reader.short) return undefined
    if (i === 8) {
      // Bits 56..62: only the flag may be set here, counts stay far below 2^53.
      if ((byte & ~endOfGranuleBit) !== 0) throw new ProtocolError('sparse offsets group too large')
      return byte & endOfGranuleBit ? -(result + 1) : result
    }
    result += (byte & 0x7f) * scale
    if (byte < 0x80) {
      if (i === 7 && result >= 2 ** 53) throw new ProtocolError('sparse offsets group too large')
      return result
    }
    scale *= 128
  }
  throw new ProtocolError('sparse offsets VarUInt longer than 9 bytes')
}

/**
 * The rows holding non-default values, from the offsets stream of a sparse column of
 * `rows` rows. Undefined when the input is short.
 */
export function readSparsePositions(reader: ByteReader, rows: number): Int32Array | undefined {
  const positions: number[] = []
  let row = 0
  for (;;) {
    const group = readGroup(reader)
    if (group === undefined) return undefined
    if (group < 0) {
      row += -group - 1
      break
    }
    row += group
    if (row >= rows) throw new ProtocolError(`sparse value at row ${row} of ${rows}`)
    positions.push(row)
    row++
  }
  if (row !== rows) throw new ProtocolError(`sparse offsets cover ${row} rows, expected ${rows}`)
  return Int32Array.from(positions)
}

/**
 * The dense Native bytes of `rows` values of `type` whose non-default values, one per
 * position, come next in `reader` (in their own layout; a Nullable's without null map, as
 * SerializationSparse writes them). Undefined when the input is short.
 */
function denseBytes(
  type: TypeNode,
  reader: ByteReader,
  positions: Int32Array,
  rows: number,
): Uint8Array | undefined {
  const count = positions.length
  const name = canonicalTypeName(type.name)
  if (name === 'Nullable') {
    // The default of Nullable(T) is NULL: every row but the positions is NULL.
    const inner = denseBytes(innerType(type), reader, positions, rows)
    if (!inner) return undefined
    const out = new Uint8Array(rows + inner.length)
    out.fill(1, 0, rows)
    for (let i = 0; i < count; i++) out[positions[i]!] = 0
    out.set(inner, rows)
    return out
  }
  if (name === 'String') {
    const begin = reader.offset
    const bounds = scanStrings(reader, count)
    if (reader.short) return undefined
    // Each value keeps its own length prefix; a default (empty) row is a single 0 byte.
    const out = new Uint8Array(rows - count + (reader.offset - begin))
    let at = 0
    let next = 0
    let start = begin
    for (let i = 0; i < count; i++) {
      const position = positions[i]!
      at += position - next
      const end = bounds[2 * i + 1]!
      out.set(reader.bytes.subarray(start, end), at)
      at += end - start
      start = end
      next = position + 1
    }
    return out
  }
  const width = valueWidth(type)
  if (width === undefined) throw new ProtocolError(`sparse serialization of ${type.name} is not supported`)
  const values = reader.take(count * width)
  if (reader.short) return undefined
  const out = new Uint8Array(rows * width)
  for (let i = 0; i < count; i++) out.set(values.subarray(i * width, (i + 1) * width), positions[i]! * width)
  return out
}

/**
 * Reads a column in SerializationSparse's layout into the same Column the dense layout
 * gives: the offsets stream (per non-default value the number of defaults before it, then
 * the trailing defaults with bit 62 set), then only the non-default values. The codec
 * rebuilds the dense bytes (defaults are zero bytes, empty strings, or NULL) and decodes
 * them with `dense`. The state prefix is that of the values, the same as the dense one.
 * Writing is dense: every server reads that.
 */
export function sparseCodecOf(dense: ColumnCodec): ColumnCodec {
  return {
    type: dense.type,
    decodePrefix(reader: ByteReader): void {
      dense.decodePrefix(reader)
    },
    decode(reader: ByteReader, rows: number): Column {
      // A block of no rows carries no data at all.
      if (rows === 0) return dense.decode(new ByteReader(), 0)
      const positions = reader.short ? undefined : readSparsePositions(reader, rows)
      const bytes = positions && denseBytes(dense.type, reader, positions, rows)
      if (!bytes) return dense.decode(new ByteReader(), 0)
      const image = new ByteReader(bytes)
      const column = dense.decode(image, rows)
      if (image.short || image.offset !== bytes.length)
        throw new ProtocolError(`sparse ${dense.type.name} values do not fill ${rows} rows`)
      return column
    },
    encodePrefix(writer: ByteWriter, input: ColumnInput): void {
      dense.encodePrefix(writer, input)
    },
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      dense.encode(writer, input, rows)
    },
  }
}
