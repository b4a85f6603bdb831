import { ProtocolError } from '../errors/protocol-error.js'
import { type TextSource, textSource } from './text-decoding.js'

/** Largest length clickwire accepts for one value; past it the input is taken as malformed. */
export const maxValueLength = 0x7fff_ffff

const two32 = 0x1_0000_0000

/**
 * Reads little-endian ClickHouse values from a window `[offset, limit)` of a byte array.
 *
 * Running out of bytes is not an error and throws nothing: the read returns a zero value
 * and records in {@link missing} how far the input must reach for the read to succeed.
 * Decoders check `missing` at their checkpoints and give up early; the stream layer waits
 * until that many bytes are buffered and tries again. Malformed input (an impossible
 * length, an overlong varint) is a {@link ProtocolError}.
 *
 * Hot loops read `bytes`, `offset` and `limit` directly instead of calling methods.
 */
export class ByteReader {
  bytes: Uint8Array
  view: DataView
  offset: number
  limit: number
  /**
   * 0 while every read fit. After a short read: the absolute position the window must
   * reach (exclusive) for the reads so far to succeed. A lower bound on what is needed.
   */
  missing = 0
  /**
   * Optional estimate, at least `missing`, of where the current unit of work (a block)
   * ends, from what was decoded so far. Stream layers may wait for it to avoid retrying a
   * large block many times, but must still retry at `missing` once the input pauses.
   */
  expected = 0
  /**
   * Set by a fixed-width column whose data ran short: where the data starts and the value
   * width, so the stream layer can make the rest arrive aligned (see InputArena.reserve).
   */
  align: { at: number; width: number } | undefined
  /**
   * Where decoders get memory for a copy that belongs to the block being decoded (an
   * unaligned column): a BufferPool's scratch while the consumer lets memory be
   * reused, otherwise undefined (fresh memory).
   */
  scratch: ((size: number) => Uint8Array) | undefined = undefined
  /**
   * Where the data of a fixed-width column that may be moved in place starts, or -1. A
   * block reader sets it for its last column when that column is plain fixed-width values:
   * the bytes from {@link movableFrom} up to here are that column's name and type, already
   * decoded to strings, and once its values are read the block is complete and never read
   * again. An unaligned column then moves back over them into alignment instead of being
   * copied into new memory.
   */
  movableAt = -1
  /** First byte a move to {@link movableAt}'s column may overwrite. */
  movableFrom = -1
  /**
   * Whether the input belongs to the stream layer (received bytes nobody else sees), so
   * decoders may rearrange what they have decoded. False for bytes a caller passed in.
   */
  ownsInput = false
  private text: TextSource | undefined

  constructor(bytes: Uint8Array = new Uint8Array(0), offset = 0, limit = bytes.length) {
    this.bytes = bytes
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.offset = offset
    this.limit = limit
  }

  /** Points the reader at new input and clears `missing`/`expected`. */
  reset(bytes: Uint8Array, offset = 0, limit = bytes.length): this {
    if (bytes !== this.bytes) {
      this.bytes = bytes
      this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      this.text = undefined
    }
    this.offset = offset
    this.limit = limit
    this.missing = 0
    this.expected = 0
    this.align = undefined
    this.movableAt = -1
    return this
  }

  get remaining(): number {
    return this.limit - this.offset
  }

  /** True once a read has run short. */
  get short(): boolean {
    return this.missing !== 0
  }

  /** Records that the input must reach `end`. Always returns false, for `return r.need(x)`. */
  need(end: number): false {
    if (end > this.missing) this.missing = end
    if (end > this.expected) this.expected = end
    return false
  }

  /** Records a soft estimate of where the current unit ends (see {@link expected}). */
  expect(end: number): void {
    if (end > this.expected) this.expected = end
  }

  /** True if `n` more bytes are available; otherwise records the need and returns false. */
  has(n: number): boolean {
    const end = this.offset + n
    if (end <= this.limit) return true
    this.need(end)
    // Later reads of the same attempt must not parse bytes out of place.
    this.offset = this.limit
    return false
  }

  skip(n: number): void {
    if (this.has(n)) this.offset += n
    else this.offset = this.limit
  }

  u8(): number {
    if (this.offset < this.limit) return this.bytes[this.offset++]!
    this.need(this.offset + 1)
    return 0
  }

  i8(): number {
    return (this.u8() << 24) >> 24
  }

  u16(): number {
    if (!this.has(2)) return 0
    const value = this.view.getUint16(this.offset, true)
    this.offset += 2
    return value
  }

  i16(): number {
    if (!this.has(2)) return 0
    const value = this.view.getInt16(this.offset, true)
    this.offset += 2
    return value
  }

  u32(): number {
    if (!this.has(4)) return 0
    const value = this.view.getUint32(this.offset, true)
    this.offset += 4
    return value
  }

  i32(): number {
    if (!this.has(4)) return 0
    const value = this.view.getInt32(this.offset, true)
    this.offset += 4
    return value
  }

  u64(): bigint {
    if (!this.has(8)) return 0n
    const value = this.view.getBigUint64(this.offset, true)
    this.offset += 8
    return value
  }

  i64(): bigint {
    if (!this.has(8)) return 0n
    const value = this.view.getBigInt64(this.offset, true)
    this.offset += 8
    return value
  }

  /** A UInt64 that must fit a JS number (counts, sizes); larger is malformed input. */
  u64Number(what = 'UInt64 count'): number {
    if (!this.has(8)) return 0
    const low = this.view.getUint32(this.offset, true)
    const high = this.view.getUint32(this.offset + 4, true)
    if (high > 0x1f_ffff) throw new ProtocolError(`${what} ${high * two32 + low} is larger than 2^53`)
    this.offset += 8
    return high * two32 + low
  }

  f32(): number {
    if (!this.has(4)) return 0
    const value = this.view.getFloat32(this.offset, true)
    this.offset += 4
    return value
  }

  f64(): number {
    if (!this.has(8)) return 0
    const value = this.view.getFloat64(this.offset, true)
    this.offset += 8
    return value
  }

  /** LEB128 unsigned integer as a JS number; values past 2^53 are malformed input. */
  varUInt(): number {
    const bytes = this.bytes
    let offset = this.offset
    let result = 0
    let scale = 1
    for (let i = 0; i < 10; i++) {
      if (offset >= this.limit) {
        this.need(offset + 1)
        this.offset = this.limit
        return 0
      }
      const byte = bytes[offset++]!
      result += (byte & 0x7f) * scale
      if (byte < 0x80) {
        if (result > Number.MAX_SAFE_INTEGER) throw new ProtocolError(`VarUInt ${result} is larger than 2^53`)
        this.offset = offset
        return result
      }
      scale *= 128
    }
    throw new ProtocolError('VarUInt longer than 10 bytes')
  }

  /** LEB128 unsigned 64-bit integer as a bigint (full range). */
  varUIntBig(): bigint {
    const start = this.offset
    let result = 0n
    let shift = 0n
    for (let i = 0; i < 10; i++) {
      if (this.offset >= this.limit) {
        this.need(this.offset + 1)
        this.offset = this.limit
        return 0n
      }
      const byte = this.bytes[this.offset++]!
      result |= BigInt(byte & 0x7f) << shift
      if (byte < 0x80) return BigInt.asUintN(64, result)
      shift += 7n
    }
    this.offset = start
    throw new ProtocolError('VarUInt longer than 10 bytes')
  }

  /** A length prefix (VarUInt), checked against {@link maxValueLength}. */
  length(what = 'length'): number {
    const value = this.varUInt()
    if (value > maxValueLength) throw new ProtocolError(`${what} ${value} is larger than ${maxValueLength}`)
    return value
  }

  /** `n` bytes as a view into the input (no copy). Empty when short. */
  take(n: number): Uint8Array {
    if (!this.has(n)) {
      this.offset = this.limit
      return this.bytes.subarray(0, 0)
    }
    const start = this.offset
    this.offset += n
    return this.bytes.subarray(start, start + n)
  }

  /** A VarUInt-prefixed byte string as a view into the input (no copy). */
  binary(): Uint8Array {
    const n = this.length('string length')
    return this.take(n)
  }

  /** A VarUInt-prefixed UTF-8 string. */
  string(): string {
    const n = this.length('string length')
    if (!this.has(n)) {
      this.offset = this.limit
      return ''
    }
    const start = this.offset
    this.offset += n
    return this.textOf(start, start + n)
  }

  /** Decodes `bytes[start, end)` as UTF-8 (invalid sequences become U+FFFD). */
  textOf(start: number, end: number): string {
    this.text ??= textSource(this.bytes)
    return this.text.utf8(start, end)
  }

  /** The text decoder bound to the current input, for codecs that decode many strings. */
  textSource(): TextSource {
    this.text ??= textSource(this.bytes)
    return this.text
  }
}
