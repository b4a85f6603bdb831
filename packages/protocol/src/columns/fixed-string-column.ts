import type { ByteReader } from '../io/byte-reader.js'
import { type ByteWriter, hasUtf8Encoding, loneSurrogateReason } from '../io/byte-writer.js'
import { encodeUtf8Into, StringInterner } from '../io/text-decoding.js'
import type { TypeNode } from '../types/type-node.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { valueError } from './fixed-width.js'
import { integerArgument } from './type-arguments.js'

/**
 * A decoded FixedString(N) column: N bytes per row as received. A value is the UTF-8 text
 * of all N bytes, trailing NULs included (exact); short codes repeat, so equal values share
 * one string (see StringInterner). `bytesOf` gives the raw bytes.
 */
export class FixedStringColumn implements Column<string> {
  private interner: StringInterner | undefined

  constructor(
    readonly type: TypeNode,
    /** The input the values lie in. */
    readonly bytes: Uint8Array,
    /** Where row 0 starts in `bytes`. */
    readonly start: number,
    readonly size: number,
    readonly length: number,
  ) {}

  get(row: number): string {
    this.interner ??= new StringInterner(this.bytes)
    const at = this.start + row * this.size
    return this.interner.get(at, at + this.size)
  }

  values(): string[] {
    const rows = this.length
    const size = this.size
    const interner = (this.interner ??= new StringInterner(this.bytes))
    const texts = new Array<string>(rows)
    for (let row = 0, at = this.start; row < rows; row++, at += size) texts[row] = interner.get(at, at + size)
    return texts
  }

  /** The raw bytes of one value (a view, no copy). */
  bytesOf(row: number): Uint8Array {
    const at = this.start + row * this.size
    return this.bytes.subarray(at, at + this.size)
  }

  storage(): ColumnStorage {
    return {
      kind: 'fixed-bytes',
      data: this.bytes.subarray(this.start, this.start + this.size * this.length),
    }
  }
}

/**
 * Reads and writes FixedString(N) columns: N bytes per value. Writes strings (UTF-8) and
 * Uint8Arrays of at most N bytes, padded with NULs; longer values are an error, and so is a
 * string with a lone UTF-16 surrogate (it has no UTF-8 encoding).
 */
export function fixedStringCodec(type: TypeNode): ColumnCodec<string> {
  const size = integerArgument(type, 0, 1, 0x7fff_ffff, 'length')
  /** Writes `input[from, from + rows)`. */
  const encodeFrom = (writer: ByteWriter, input: ColumnInput, from: number, rows: number): void => {
    // Every value takes exactly `size` bytes: room for all of them at once, so the ASCII
    // path (most values) writes with no check per value.
    writer.ensure(rows * size)
    let bytes = writer.bytes
    let at = writer.offset
    for (let row = from, last = from + rows; row < last; row++) {
      const value = input[row]
      let written = -1
      if (typeof value === 'string') {
        if (value.length <= size) written = quickAscii(value, bytes, at)
        if (written < 0) {
          checkUtf8(value, row - from, size)
          // Room for the UTF-8 of any string, so encodeInto never truncates silently.
          writer.offset = at
          writer.ensure(value.length * 3 + (last - row) * size)
          bytes = writer.bytes
          written = encodeUtf8Into(value, bytes, at)
        }
      } else if (value instanceof Uint8Array) {
        written = value.length
        if (written <= size) bytes.set(value, at)
      } else throw valueError(`FixedString(${size})`, row - from, value, 'expected a string or Uint8Array')
      if (written > size)
        throw valueError(`FixedString(${size})`, row - from, value, `${written} bytes, longer than ${size}`)
      // Short paddings (the usual case) are cheaper as a loop than as a call to fill().
      if (size - written > 32) bytes.fill(0, at + written, at + size)
      else for (let i = at + written; i < at + size; i++) bytes[i] = 0
      at += size
    }
    writer.offset = at
  }
  return {
    type,
    layout: { kind: 'fixed-bytes', type, width: size },
    insertShape: 'bytes',
    tsType: () => 'string',
    concatenable: true,
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): FixedStringColumn {
      const start = reader.offset
      if (!reader.has(rows * size)) {
        reader.offset = reader.limit
        return new FixedStringColumn(type, reader.bytes, 0, size, 0)
      }
      reader.offset += rows * size
      return new FixedStringColumn(type, reader.bytes, start, size, rows)
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      encodeFrom(writer, input, 0, rows)
    },
    encodeFrom,
  }
}

/** Refuses a string with no UTF-8 encoding (off the hot loop: called for non-ASCII values only). */
function checkUtf8(value: string, row: number, size: number): void {
  if (!hasUtf8Encoding(value)) throw valueError(`FixedString(${size})`, row, value, loneSurrogateReason)
}

/** Writes an ASCII string byte by byte; -1 when it is not ASCII. */
function quickAscii(text: string, out: Uint8Array, at: number): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code > 0x7f) return -1
    out[at + i] = code
  }
  return text.length
}
