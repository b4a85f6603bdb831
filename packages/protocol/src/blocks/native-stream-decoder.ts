import type { CodecContext } from '../columns/column-codec.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { allocateBytes } from '../io/byte-allocation.js'
import { ByteReader } from '../io/byte-reader.js'
import type { NativeBlock } from './native-block.js'
import { NativeBlockReader, readBlockInfo } from './native-block-reader.js'

/** Buffers grow to at least this much, so relocations stay rare on large results. */
const bufferSize = 4 << 20
/**
 * The first buffer of a stream. Small results (most queries) never need more, and a 4 MiB
 * buffer per result costs more in garbage collection than decoding them (500 queries of
 * 1000 rows over HTTP: 6.8 s with 4 MiB first buffers, 2.0 s with this).
 */
const firstBufferSize = 64 << 10

/**
 * Decodes a stream of Native blocks (the body of `FORMAT Native`, revision 0: no BlockInfo)
 * from chunks of any size.
 *
 * Chunks are gathered in large buffers (one copy; an HTTP body comes in small chunks anyway).
 * At each block boundary the next block's bytes are placed so that the data of its first
 * column starts 8-byte aligned: a UInt64 or Float64 column then decodes as a view of the
 * buffer instead of a second copy. Bytes never move once a block was decoded from them:
 * columns are views into the buffer, freed by the GC once no column refers to it.
 *
 * A decode attempt that runs short remembers how many bytes it needs (exactly) and where the
 * block probably ends (estimated from the rows seen); the next attempt waits for the
 * estimate, so a large block is decoded about once, not once per chunk. Pass `force` when
 * the input pauses (no more chunks for now, or the end) so a complete block is never held
 * back by an estimate that was too high. At the end, call `next(true)` until it returns
 * undefined, then `finish()`.
 */
export class NativeStreamDecoder {
  private buffer: Uint8Array = new Uint8Array(0)
  /** First byte of the next block. */
  private start = 0
  /** End of the received bytes. */
  private end = 0
  private readonly reader = new ByteReader()
  private readonly header = new ByteReader()
  private readonly blocks: NativeBlockReader
  private needed = 0
  private expected = 0
  /** Whether the block at {@link start} was already placed. */
  private placed = false

  constructor(
    context: CodecContext,
    private readonly withBlockInfo = false,
  ) {
    this.blocks = new NativeBlockReader(context, withBlockInfo)
    // Chunks are copied into buffers of our own.
    this.reader.ownsInput = true
  }

  /** Bytes received but not yet decoded. */
  get buffered(): number {
    return this.end - this.start
  }

  /** Up to `max` undecoded bytes from the next block boundary (a view, valid until the next push). */
  peek(max: number): Uint8Array {
    return this.buffer.subarray(this.start, Math.min(this.end, this.start + max))
  }

  push(chunk: Uint8Array): void {
    const size = chunk.length
    if (size === 0) return
    if (this.buffer.length - this.end < size) this.relocate(this.end - this.start + size)
    this.buffer.set(chunk, this.end)
    this.end += size
  }

  /** The next complete block, or undefined when more input is needed. */
  next(force = false): NativeBlock | undefined {
    const length = this.end - this.start
    if (length === 0 || length < this.needed || (!force && length < this.expected)) return undefined
    if (!this.placed) this.place()
    const reader = this.reader.reset(this.buffer, this.start, this.end)
    const block = this.blocks.read(reader)
    if (block === undefined) {
      this.needed = reader.missing - this.start
      this.expected = Math.max(this.needed, reader.expected - this.start)
      // Room for the whole block (plus alignment) in this buffer, so no attempt starts over in a new one.
      if (this.start + this.expected + 8 > this.buffer.length) this.relocate(this.expected + 8)
      return undefined
    }
    this.start = reader.offset
    this.needed = 0
    this.expected = 0
    this.placed = false
    return block
  }

  /** Call at the end of the input: leftover bytes mean the stream was cut inside a block. */
  finish(): void {
    if (this.end > this.start) {
      throw new ProtocolError(
        `the Native stream ended inside a block: ${this.end - this.start} bytes received, at least ${Math.max(this.needed, this.end - this.start + 1)} needed`,
      )
    }
  }

  /**
   * Shifts the next block's bytes (only what arrived past the boundary) forward by up to 7
   * bytes so that its first column's data is 8-byte aligned. Needs its header: the column
   * and row counts, the first column's name and type.
   */
  private place(): void {
    const header = this.header.reset(this.buffer, this.start, this.end)
    if (this.withBlockInfo) readBlockInfo(header)
    header.varUInt()
    const rows = header.varUInt()
    header.skip(header.varUInt())
    header.skip(header.varUInt())
    if (header.short) return
    this.placed = true
    if (rows === 0) return
    const misalignment = (this.buffer.byteOffset + header.offset) & 7
    if (misalignment === 0) return
    const shift = 8 - misalignment
    if (this.end + shift > this.buffer.length) {
      this.relocate(Math.max(this.expected, this.end - this.start) + 8)
      this.place()
      return
    }
    this.buffer.copyWithin(this.start + shift, this.start, this.end)
    this.start += shift
    this.end += shift
  }

  /** Moves the undecoded bytes to a new buffer with room for `total` bytes from its start. */
  private relocate(total: number): void {
    const pending = this.end - this.start
    const grown = Math.min(bufferSize, Math.max(firstBufferSize, 2 * this.buffer.length))
    const size = Math.max(grown, total + (total >> 1), pending + 8)
    const next = allocateBytes(size, Math.max(total, pending + 8))
    if (pending > 0) next.set(this.buffer.subarray(this.start, this.end), 0)
    this.buffer = next
    this.start = 0
    this.end = pending
    this.placed = false
  }
}
