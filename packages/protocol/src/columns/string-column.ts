import { ProtocolError } from '../errors/protocol-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import { type ByteWriter, hasUtf8Encoding, loneSurrogateReason, writeShortAscii } from '../io/byte-writer.js'
import { StringInterner } from '../io/text-decoding.js'
import type { TypeNode } from '../types/type-node.js'
import type { CodecContext, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { valueError } from './fixed-width.js'
import { rareFactory } from './rare-codec-loader.js'

/**
 * The first native protocol revision whose String columns travel in the size-stream layout
 * (`Revision.withStringWithSizeStreamSerialization`, 54492; see string-blob-column.ts).
 * Named here because codecs sit below the packets in this package's folder order.
 */
export const stringBlobRevision = 54492

/** Whether String columns of a stream at `revision` come as offsets and one blob. */
export function stringsInBlob(revision: number): boolean {
  return revision >= stringBlobRevision
}

/**
 * A decoded String column: where each value's bytes lie in the received input. JS strings
 * are made on demand (repeated short values share one string, see StringInterner);
 * `bytesOf` and `contiguous` give the raw bytes, e.g. for Arrow.
 */
export class StringColumn implements Column<string> {
  private interner: StringInterner | undefined

  constructor(
    readonly type: TypeNode,
    /** The input the values lie in. */
    readonly bytes: Uint8Array,
    /** Start of value i at `bounds[2i]`, end at `bounds[2i + 1]`, as offsets into `bytes`. */
    readonly bounds: Int32Array,
  ) {}

  get length(): number {
    return this.bounds.length >> 1
  }

  get(row: number): string {
    this.interner ??= new StringInterner(this.bytes)
    return this.interner.get(this.bounds[2 * row]!, this.bounds[2 * row + 1]!)
  }

  values(): string[] {
    const rows = this.length
    const bounds = this.bounds
    const interner = (this.interner ??= new StringInterner(this.bytes))
    const strings = new Array<string>(rows)
    for (let row = 0; row < rows; row++) strings[row] = interner.get(bounds[2 * row]!, bounds[2 * row + 1]!)
    return strings
  }

  /** The raw bytes of one value (a view, no copy). */
  bytesOf(row: number): Uint8Array {
    return this.bytes.subarray(this.bounds[2 * row]!, this.bounds[2 * row + 1]!)
  }

  /** All values' bytes back to back with `rows + 1` offsets: Arrow's Utf8/Binary layout. */
  contiguous(): { data: Uint8Array; offsets: Int32Array } {
    const rows = this.length
    const bounds = this.bounds
    const offsets = new Int32Array(rows + 1)
    let total = 0
    for (let row = 0; row < rows; row++) {
      total += bounds[2 * row + 1]! - bounds[2 * row]!
      offsets[row + 1] = total
    }
    const data = new Uint8Array(total)
    const source = this.bytes
    for (let row = 0; row < rows; row++) {
      const start = bounds[2 * row]!
      const end = bounds[2 * row + 1]!
      const at = offsets[row]!
      // Short values are the norm; a loop beats subarray+set for them.
      if (end - start < 32) for (let i = start; i < end; i++) data[at + i - start] = source[i]!
      else data.set(source.subarray(start, end), at)
    }
    return { data, offsets }
  }

  storage(): ColumnStorage {
    return { kind: 'bytes', contiguous: () => this.contiguous() }
  }
}

/**
 * Scans `rows` VarUInt-prefixed strings and returns their bounds; sets `reader.missing`
 * (and an estimate of the column's end in `reader.expected`) when the input is short.
 */
export function scanStrings(reader: ByteReader, rows: number): Int32Array {
  const bounds = new Int32Array(rows * 2)
  const bytes = reader.bytes
  const limit = reader.limit
  let offset = reader.offset
  const begin = offset
  for (let row = 0; row < rows; row++) {
    if (offset >= limit) return short(reader, bounds, begin, offset + 1, row, rows)
    // VarUInt length: one byte for values under 128 bytes, the common case.
    let length = bytes[offset++]!
    if (length >= 0x80) {
      length &= 0x7f
      let scale = 128
      for (;;) {
        if (offset >= limit) return short(reader, bounds, begin, offset + 1, row, rows)
        const byte = bytes[offset++]!
        length += (byte & 0x7f) * scale
        if (byte < 0x80) break
        scale *= 128
        if (scale > 2 ** 63)
          throw new ProtocolError(`String length VarUInt longer than 10 bytes in row ${row}`)
      }
    }
    if (length > 0x7fff_ffff) throw new ProtocolError(`String length ${length} in row ${row} is too large`)
    const end = offset + length
    if (end > limit) return short(reader, bounds, begin, end, row, rows)
    bounds[2 * row] = offset
    bounds[2 * row + 1] = end
    offset = end
  }
  reader.offset = offset
  return bounds
}

function short(
  reader: ByteReader,
  bounds: Int32Array,
  begin: number,
  needed: number,
  row: number,
  rows: number,
) {
  reader.need(needed)
  // Guess where the column ends from the average size of the rows seen so far, so the
  // stream can wait for about the whole column instead of retrying row by row.
  if (row > 0) reader.expect(begin + Math.ceil(((needed - begin) / (row + 1)) * rows))
  reader.offset = reader.limit
  return bounds
}

/**
 * Writes one value: a string (UTF-8) or raw bytes. A string with a lone UTF-16 surrogate
 * has no UTF-8 encoding and is refused (a Uint8Array stores arbitrary bytes).
 */
export function writeStringValue(writer: ByteWriter, typeName: string, row: number, value: unknown): void {
  if (typeof value === 'string') {
    if (!hasUtf8Encoding(value)) throw valueError(typeName, row, value, loneSurrogateReason)
    writer.string(value)
  } else if (value instanceof Uint8Array) writer.binary(value)
  else throw valueError(typeName, row, value, 'expected a string or Uint8Array')
}

/**
 * Reads and writes String columns in the layout of the stream's revision: below 54492 a
 * VarUInt byte length then the bytes, per value; from it the size-stream layout (offsets,
 * then one blob).
 */
export function stringCodec(type: TypeNode, context: CodecContext): ColumnCodec<string> {
  // The size-stream codec loads with the rare codecs: a page whose server is older never
  // downloads it, and the transports wait for it like for any pending codec.
  if (stringsInBlob(context.revision))
    return rareFactory('StringBlob', 'String (size-stream layout)')(type, context, () => {
      throw new Error('String has no inner types')
    }) as ColumnCodec<string>
  return prefixedStringCodec(type)
}

/** String in the VarUInt-prefixed layout, whatever the revision (LowCardinality's dictionary keeps it). */
export function prefixedStringCodec(type: TypeNode): ColumnCodec<string> {
  return {
    type,
    layout: { kind: 'bytes', type, prefixed: true },
    insertShape: 'bytes',
    tsType: () => 'string',
    concatenable: true,
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): StringColumn {
      return new StringColumn(type, reader.bytes, scanStrings(reader, rows))
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      encodeStrings(writer, input, 0, rows)
    },
    encodeFrom: encodeStrings,
  }
}

/** Writes `input[from, from + rows)` as String values. */
function encodeStrings(writer: ByteWriter, input: ColumnInput, from: number, rows: number): void {
  // Short ASCII strings (most of them) are written here with the writer's state in
  // locals; everything else goes through the writer and the locals are reloaded.
  let bytes = writer.bytes
  let offset = writer.offset
  for (let row = from, last = from + rows; row < last; row++) {
    const value = input[row]
    if (typeof value === 'string' && value.length < 128) {
      const length = value.length
      if (offset + 1 + length > bytes.length) {
        writer.offset = offset
        writer.ensure(1 + length)
        bytes = writer.bytes
      }
      const end = writeShortAscii(bytes, offset, value)
      if (end >= 0) {
        offset = end
        continue
      }
    }
    writer.offset = offset
    writeStringValue(writer, 'String', row - from, value)
    bytes = writer.bytes
    offset = writer.offset
  }
  writer.offset = offset
}
