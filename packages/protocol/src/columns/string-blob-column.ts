import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import { type ByteWriter, hasUtf8Encoding, loneSurrogateReason } from '../io/byte-writer.js'
import { StringInterner } from '../io/text-decoding.js'
import type { TypeNode } from '../types/type-node.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { hasElements, readOffsets } from './composite-support.js'
import { valueError } from './fixed-width.js'
import { scanStrings, stringsInBlob } from './string-column.js'

/**
 * String's layout in the native protocol from revision 54492
 * (`DBMS_MIN_REVISION_WITH_STRING_WITH_SIZE_STREAM_SERIALIZATION`): the column's cumulative
 * byte offsets as UInt64, one per row (the layout Array uses for its offsets), then every
 * value's bytes back to back in one blob. Checked against ClickHouse 26.9 over native and
 * over HTTP with `client_protocol_version=54492`: nested Strings (Array, Map, Tuple,
 * Nullable, Variant and Dynamic members, JSON paths) take it too; a LowCardinality
 * dictionary keeps the VarUInt-prefixed layout, and so does every Native body an HTTP
 * INSERT sends (its reader is at revision 0).
 */

/**
 * A decoded String column in the size-stream layout: `rows + 1` offsets into one blob of
 * the received input. Arrow's Utf8 layout is exactly this, so {@link contiguous} is a view.
 */
export class StringBlobColumn implements Column<string> {
  private interner: StringInterner | undefined

  constructor(
    readonly type: TypeNode,
    /** The input the blob lies in. */
    readonly bytes: Uint8Array,
    /** Where the blob starts in `bytes`. */
    readonly start: number,
    /** Value i is `blob[offsets[i], offsets[i + 1])`; `offsets[0]` is 0. */
    readonly offsets: Int32Array,
  ) {}

  get length(): number {
    return this.offsets.length - 1
  }

  get(row: number): string {
    this.interner ??= new StringInterner(this.bytes)
    const start = this.start
    return this.interner.get(start + this.offsets[row]!, start + this.offsets[row + 1]!)
  }

  values(): string[] {
    const rows = this.length
    const offsets = this.offsets
    const start = this.start
    const interner = (this.interner ??= new StringInterner(this.bytes))
    const strings = new Array<string>(rows)
    let end = start + offsets[0]!
    for (let row = 0; row < rows; row++) {
      const begin = end
      end = start + offsets[row + 1]!
      strings[row] = interner.get(begin, end)
    }
    return strings
  }

  /** The raw bytes of one value (a view, no copy). */
  bytesOf(row: number): Uint8Array {
    return this.bytes.subarray(this.start + this.offsets[row]!, this.start + this.offsets[row + 1]!)
  }

  /** The blob and the offsets as they are: Arrow's Utf8/Binary layout, with no copy. */
  contiguous(): { data: Uint8Array; offsets: Int32Array } {
    const data = this.bytes.subarray(this.start, this.start + this.offsets[this.length]!)
    return { data, offsets: this.offsets }
  }

  storage(): ColumnStorage {
    return { kind: 'bytes', contiguous: () => this.contiguous() }
  }
}

/**
 * Reads the offsets and finds the blob of `rows` values in the size-stream layout.
 * Undefined when the input is short (recorded in the reader); offsets that decrease or
 * pass 2^31 are a ProtocolError.
 */
function readStringBlob(
  reader: ByteReader,
  rows: number,
): { start: number; offsets: Int32Array } | undefined {
  const offsets = readOffsets(reader, rows, 'String offsets')
  if (!offsets) return undefined
  const start = reader.offset
  if (!hasElements(reader, offsets[rows]!, 'String data')) return undefined
  reader.offset = start + offsets[rows]!
  return { start, offsets }
}

/**
 * The dense bytes of a sparse String column at 54492: an offset per row (a default row, the
 * empty string, adds nothing), then the non-default values' bytes in order.
 */
function sparseImage(reader: ByteReader, positions: Int32Array, rows: number): Uint8Array | undefined {
  const count = positions.length
  const blob = readStringBlob(reader, count)
  if (!blob) return undefined
  const { start, offsets } = blob
  const out = new Uint8Array(rows * 8 + offsets[count]!)
  out.set(reader.bytes.subarray(start, start + offsets[count]!), rows * 8)
  const view = new DataView(out.buffer)
  let next = 0
  for (let i = 0; i <= count; i++) {
    const position = i < count ? positions[i]! : rows
    for (let row = next; row < position; row++) view.setUint32(row * 8, offsets[i]!, true)
    if (i === count) break
    view.setUint32(position * 8, offsets[i + 1]!, true)
    next = position + 1
  }
  return out
}

/** Reads `rows` values in the size-stream layout; meaningless when the reader ran short. */
export function decodeStringBlob(type: TypeNode, reader: ByteReader, rows: number): StringBlobColumn {
  const blob = readStringBlob(reader, rows)
  return blob
    ? new StringBlobColumn(type, reader.bytes, blob.start, blob.offsets)
    : new StringBlobColumn(type, reader.bytes, 0, new Int32Array(1))
}

/**
 * The values of `rows` strings in the size-stream layout as `[start, end)` pairs into
 * `reader.bytes`, the shape {@link scanStrings} gives for the prefixed layout: for the
 * codecs that read String columns of their own (Dynamic's shared variant, JSON's shared
 * data and text, sparse columns).
 */
export function scanStringBlob(reader: ByteReader, rows: number): Int32Array {
  const bounds = new Int32Array(rows * 2)
  const blob = readStringBlob(reader, rows)
  if (!blob) return bounds
  const { start, offsets } = blob
  for (let row = 0; row < rows; row++) {
    bounds[2 * row] = start + offsets[row]!
    bounds[2 * row + 1] = start + offsets[row + 1]!
  }
  return bounds
}

const utf8Encoder = new TextEncoder()

/**
 * Writes `input[from, from + rows)` in the size-stream layout: room for the offsets first,
 * filled in as each value's bytes are appended after them (the writer may move its memory
 * while it grows, so offsets are written by position, not through a kept view).
 */
export function encodeStringBlob(writer: ByteWriter, input: ColumnInput, from: number, rows: number): void {
  writer.ensure(rows * 8)
  const offsetsAt = writer.offset
  writer.offset += rows * 8
  const dataStart = writer.offset
  for (let index = 0; index < rows; index++) {
    const value = input[from + index]
    writeBlobValue(writer, index, value)
    const total = writer.offset - dataStart
    if (total > 0x7fff_ffff)
      throw new UsageError(
        `String column of more than ${0x7fff_ffff} bytes in one block: insert smaller blocks`,
      )
    const view = writer.view
    view.setUint32(offsetsAt + index * 8, total, true)
    view.setUint32(offsetsAt + index * 8 + 4, 0, true)
  }
}

/** Appends one value's bytes with no length prefix: a string (UTF-8) or raw bytes. */
function writeBlobValue(writer: ByteWriter, row: number, value: unknown): void {
  if (typeof value === 'string') {
    const length = value.length
    if (length < 128) {
      // Short ASCII strings, the common case, are copied code by code.
      writer.ensure(length)
      const bytes = writer.bytes
      const at = writer.offset
      let i = 0
      for (; i < length; i++) {
        const code = value.charCodeAt(i)
        if (code > 0x7f) break
        bytes[at + i] = code
      }
      if (i === length) {
        writer.offset = at + length
        return
      }
    }
    if (!hasUtf8Encoding(value)) throw valueError('String', row, value, loneSurrogateReason)
    writer.raw(utf8Encoder.encode(value))
  } else if (value instanceof Uint8Array) writer.raw(value)
  else throw valueError('String', row, value, 'expected a string or Uint8Array')
}

/**
 * String in the size-stream layout. Not concatenable: a column's offsets come before all
 * of its bytes, so parts of a column are written as one.
 */
export function stringBlobCodec(type: TypeNode): ColumnCodec<string> {
  return {
    type,
    layout: { kind: 'bytes', type, prefixed: false, sparseImage },
    insertShape: 'bytes',
    tsType: () => 'string',
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): StringBlobColumn {
      return decodeStringBlob(type, reader, rows)
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      encodeStringBlob(writer, input, 0, rows)
    },
    encodeFrom: encodeStringBlob,
  }
}

/** `scanStrings` or `scanStringBlob`, by the layout of `revision`: `[start, end)` pairs. */
export function scanStringsAt(reader: ByteReader, rows: number, revision: number): Int32Array {
  return stringsInBlob(revision) ? scanStringBlob(reader, rows) : scanStrings(reader, rows)
}
