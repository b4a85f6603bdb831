import { ProtocolError } from '../errors/protocol-error.js'
import { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import { type Column, type ColumnLayout, fixedRowWidth } from './column-layout.js'
import { scanStrings } from './string-column.js'

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
 * The dense Native bytes of `rows` values of a column of `layout` whose non-default values,
 * one per position, come next in `reader` (in their own layout; a Nullable's without null
 * map, as SerializationSparse writes them). Undefined when the input is short.
 */
function denseBytes(
  layout: ColumnLayout,
  reader: ByteReader,
  positions: Int32Array,
  rows: number,
): Uint8Array | undefined {
  const count = positions.length
  if (layout.kind === 'nullable') {
    // The default of Nullable(T) is NULL: every row but the positions is NULL.
    const inner = denseBytes(layout.inner, reader, positions, rows)
    if (!inner) return undefined
    const out = new Uint8Array(rows + inner.length)
    out.fill(1, 0, rows)
    for (let i = 0; i < count; i++) out[positions[i]!] = 0
    out.set(inner, rows)
    return out
  }
  if (layout.kind === 'bytes' && layout.prefixed) {
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
  if (layout.kind === 'bytes' && layout.sparseImage) return layout.sparseImage(reader, positions, rows)
  // Every other type sparse serialization applies to has fixed-width values, zero by default.
  const width = fixedRowWidth(layout)
  if (width === undefined)
    throw new ProtocolError(`sparse serialization of ${layout.type.name} is not supported`)
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
    layout: dense.layout,
    insertShape: dense.insertShape,
    tsType: (unsupported) => dense.tsType(unsupported),
    decodePrefix(reader: ByteReader): void {
      dense.decodePrefix(reader)
    },
    decode(reader: ByteReader, rows: number): Column {
      // A block of no rows carries no data at all.
      if (rows === 0) return dense.decode(new ByteReader(), 0)
      const positions = reader.short ? undefined : readSparsePositions(reader, rows)
      const bytes = positions && denseBytes(dense.layout, reader, positions, rows)
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
