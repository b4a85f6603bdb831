import { UsageError } from '../errors/usage-error.js'

const utf8Encoder = new TextEncoder()
const two32 = 0x1_0000_0000

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const nativeWellFormed = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed

/**
 * Whether `text` has a UTF-8 encoding: a lone UTF-16 surrogate half has none (TextEncoder
 * would silently write U+FFFD instead). `String.prototype.isWellFormed` where the runtime
 * has it, a regular expression elsewhere. Encoders call it on their non-ASCII path only.
 */
export function hasUtf8Encoding(text: string): boolean {
  return nativeWellFormed ? nativeWellFormed.call(text) : !loneSurrogate.test(text)
}

/** Why a string value with a lone surrogate is refused (see {@link hasUtf8Encoding}). */
export const loneSurrogateReason =
  'contains a lone UTF-16 surrogate, which has no UTF-8 encoding; pass a Uint8Array to store arbitrary bytes'

/**
 * A growable little-endian output buffer. Encoders append to it; `finish()` hands out a
 * view of what was written. One writer is reused across blocks: `reset()` keeps the
 * memory.
 */
export class ByteWriter {
  bytes: Uint8Array
  view: DataView
  offset = 0

  constructor(initialSize = 64 * 1024) {
    this.bytes = new Uint8Array(initialSize)
    this.view = new DataView(this.bytes.buffer)
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    const needed = this.offset + n
    if (needed <= this.bytes.length) return
    let size = this.bytes.length * 2
    while (size < needed) size *= 2
    const next = new Uint8Array(size)
    next.set(this.bytes.subarray(0, this.offset))
    this.bytes = next
    this.view = new DataView(next.buffer)
  }

  /** Forgets what was written, keeping the memory. */
  reset(): this {
    this.offset = 0
    return this
  }

  /** A view of the bytes written so far (valid until the next write or reset). */
  finish(): Uint8Array {
    return this.bytes.subarray(0, this.offset)
  }

  /** A copy of the bytes written so far. */
  copy(): Uint8Array {
    return this.bytes.slice(0, this.offset)
  }

  u8(value: number): void {
    this.ensure(1)
    this.bytes[this.offset++] = value
  }

  u16(value: number): void {
    this.ensure(2)
    this.view.setUint16(this.offset, value, true)
    this.offset += 2
  }

  i16(value: number): void {
    this.ensure(2)
    this.view.setInt16(this.offset, value, true)
    this.offset += 2
  }

  u32(value: number): void {
    this.ensure(4)
    this.view.setUint32(this.offset, value, true)
    this.offset += 4
  }

  i32(value: number): void {
    this.ensure(4)
    this.view.setInt32(this.offset, value, true)
    this.offset += 4
  }

  u64(value: bigint): void {
    this.ensure(8)
    this.view.setBigUint64(this.offset, value, true)
    this.offset += 8
  }

  i64(value: bigint): void {
    this.ensure(8)
    this.view.setBigInt64(this.offset, value, true)
    this.offset += 8
  }

  /** A non-negative integer below 2^53 as UInt64, without a BigInt. */
  u64Number(value: number): void {
    this.ensure(8)
    this.view.setUint32(this.offset, value % two32, true)
    this.view.setUint32(this.offset + 4, Math.floor(value / two32), true)
    this.offset += 8
  }

  f32(value: number): void {
    this.ensure(4)
    this.view.setFloat32(this.offset, value, true)
    this.offset += 4
  }

  f64(value: number): void {
    this.ensure(8)
    this.view.setFloat64(this.offset, value, true)
    this.offset += 8
  }

  /** LEB128 unsigned integer (a non-negative safe integer). */
  varUInt(value: number): void {
    if (!(value >= 0 && Number.isSafeInteger(value))) throw new UsageError(`VarUInt out of range: ${value}`)
    this.ensure(10)
    const bytes = this.bytes
    let offset = this.offset
    while (value >= 0x80) {
      bytes[offset++] = (value % 128) | 0x80
      value = Math.floor(value / 128)
    }
    bytes[offset++] = value
    this.offset = offset
  }

  /** LEB128 unsigned 64-bit integer from a bigint. */
  varUIntBig(value: bigint): void {
    let rest = BigInt.asUintN(64, value)
    this.ensure(10)
    while (rest >= 0x80n) {
      this.bytes[this.offset++] = Number(rest & 0x7fn) | 0x80
      rest >>= 7n
    }
    this.bytes[this.offset++] = Number(rest)
  }

  /** Raw bytes, no length prefix. */
  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length)
    this.bytes.set(bytes, this.offset)
    this.offset += bytes.length
  }

  /** A VarUInt length and the bytes. */
  binary(bytes: Uint8Array): void {
    this.varUInt(bytes.length)
    this.raw(bytes)
  }

  /**
   * A VarUInt length and the UTF-8 bytes of `text`. Lone surrogates become U+FFFD here;
   * column encoders refuse them first (see {@link hasUtf8Encoding}).
   */
  string(text: string): void {
    if (text.length < 128) {
      this.ensure(1 + text.length)
      const end = writeShortAscii(this.bytes, this.offset, text)
      if (end >= 0) {
        this.offset = end
        return
      }
    }
    const encoded = utf8Encoder.encode(text)
    this.binary(encoded)
  }
}

/**
 * ASCII is the common case of short strings: writes `text` (under 128 characters, so its
 * length is one VarUInt byte) at `at` as that byte and the characters, learning whether it
 * is ASCII on the way. Returns the offset after it, or -1 when it is not ASCII (the bytes
 * written are then meaningless). The caller makes sure `1 + text.length` bytes fit.
 */
export function writeShortAscii(bytes: Uint8Array, at: number, text: string): number {
  const length = text.length
  const start = at + 1
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code > 0x7f) return -1
    bytes[start + i] = code
  }
  bytes[at] = length
  return start + length
}
