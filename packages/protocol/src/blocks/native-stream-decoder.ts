import type { CodecContext } from '../columns/column-codec.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { BufferPool } from '../io/buffer-pool.js'
import { ByteReader } from '../io/byte-reader.js'
import { InputArena } from '../io/input-arena.js'
import { Revision } from '../packets/protocol-revision.js'
import { defaultMaxBlockBytes } from './block-size-limit.js'
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
 * Decodes a stream of Native blocks (the body of `FORMAT Native`) from chunks of any size,
 * at the context's revision: 0 by default over HTTP (no BlockInfo), the one asked with
 * `client_protocol_version` otherwise (BlockInfo, a custom-serialization byte per column).
 *
 * The bytes live in an {@link InputArena}, the receive memory the native transport decodes
 * from too: chunks are gathered in large buffers (a large chunk that arrives when nothing
 * is pending is decoded where it is), columns are views of those buffers, and with
 * {@link recycle} the buffers come from a {@link BufferPool} and are reused once the
 * consumer has released the blocks that viewed them, exactly as over native.
 *
 * Alignment: at each block boundary the next block's bytes are shifted by up to 7 bytes
 * so that its first column's data starts 8-byte aligned, and a fixed-width column that ran
 * short makes the arena place the rest of it aligned (the native transport's rule): a
 * UInt64 or Float64 column then decodes as a view instead of a copy.
 *
 * A decode attempt that runs short remembers how many bytes it needs (exactly) and where the
 * block probably ends (estimated from the rows seen); the next attempt waits for the
 * estimate, so a large block is decoded about once, not once per chunk. Pass `force` when
 * the input pauses (no more chunks for now, or the end) so a complete block is never held
 * back by an estimate that was too high. At the end, call `next(true)` until it returns
 * undefined, then `finish()`.
 *
 * A block of no columns ends the data, as in ClickHouse's NativeReader: it is not
 * returned, and any byte after it is a ProtocolError. Zero bytes would otherwise decode as
 * endless empty blocks (a hostile body of compressed zeros ran for minutes). A block over
 * `maxBlockBytes` is a ProtocolError before its memory is taken.
 */
export class NativeStreamDecoder {
  private readonly arena = new InputArena(bufferSize, firstBufferSize)
  private readonly reader = new ByteReader()
  private readonly header = new ByteReader()
  private readonly blocks: NativeBlockReader
  private needed = 0
  private expected = 0
  /** Whether the block at the arena's start was already placed. */
  private placed = false
  /** Receive memory reused while the consumer allows it (see {@link recycle}). */
  private pool: BufferPool | undefined
  /** Index of the newest block started (they only grow). */
  private blockIndex = 0
  /** A block of no columns was read: the data is over. */
  private over = false

  private readonly withCustomSerialization: boolean

  constructor(
    context: CodecContext,
    private readonly withBlockInfo = context.revision >= Revision.withBlockInfo,
    private readonly maxBlockBytes = defaultMaxBlockBytes,
  ) {
    this.blocks = new NativeBlockReader(context, withBlockInfo, maxBlockBytes)
    this.withCustomSerialization = context.revision >= Revision.withCustomSerialization
    // Pushed chunks are copied into the arena's buffers or handed over whole: bytes nobody else reads.
    this.reader.ownsInput = true
  }

  /** Bytes received but not yet decoded. */
  get buffered(): number {
    return this.arena.length
  }

  /** Index of the last block {@link next} returned, for {@link releaseThrough}. */
  get lastBlock(): number {
    return this.blockIndex
  }

  /** Up to `max` undecoded bytes from the next block boundary (a view, valid until the next push). */
  peek(max: number): Uint8Array {
    const arena = this.arena
    return arena.bytes.subarray(arena.start, Math.min(arena.end, arena.start + max))
  }

  /**
   * Appends a chunk. The decoder keeps it (a large chunk is decoded in place): the caller
   * must not write to it afterwards.
   */
  push(chunk: Uint8Array): void {
    this.arena.push(chunk)
  }

  /**
   * Whether block memory may be reused once the consumer releases it: the consumer uses
   * each block only until it asks for the next one (see {@link BufferPool}).
   */
  recycle(on: boolean): void {
    if (on === (this.pool !== undefined)) return
    this.pool = on ? new BufferPool() : undefined
    this.arena.recycleWith(this.pool)
    this.reader.scratch = this.pool?.scratch
  }

  /** The consumer is done with the blocks up to `blockIndex`: their memory may be reused. */
  releaseThrough(blockIndex: number): void {
    this.pool?.release(blockIndex)
  }

  /** The next complete block, or undefined when more input is needed. */
  next(force = false): NativeBlock | undefined {
    const arena = this.arena
    const length = arena.length
    if (this.over) return this.endOfData()
    if (length === 0 || length < this.needed || (!force && length < this.expected)) return undefined
    if (!this.placed) this.place()
    if (this.pool) this.pool.tag = this.blockIndex + 1
    const reader = this.reader.reset(arena.bytes, arena.start, arena.end)
    const block = this.blocks.read(reader)
    if (block === undefined) {
      this.needed = reader.missing - arena.start
      // The estimate is not checked against the limit (the block reader checks what is
      // certain), so it is capped: room is reserved for it.
      this.expected = Math.max(this.needed, Math.min(reader.expected - arena.start, this.maxBlockBytes))
      // Room for the whole block in this buffer, so no attempt starts over in a new one; a
      // fixed-width column that ran short gets the rest of its data aligned.
      const align = reader.align
      const bytes = arena.bytes
      const start = arena.start
      arena.reserve(this.expected + 8, align)
      if (align) this.placed = true
      // Moved without a hint: the first column's data may be misaligned now.
      else if (arena.bytes !== bytes || arena.start !== start) this.placed = false
      return undefined
    }
    arena.consume(reader.offset)
    this.blockIndex++
    this.needed = 0
    this.expected = 0
    this.placed = false
    if (block.columns.length > 0) return block
    this.over = true
    return this.endOfData()
  }

  private endOfData(): undefined {
    if (this.arena.length > 0)
      throw new ProtocolError(
        `trailing bytes after the end of the data: ${this.arena.length} bytes after a block of no columns`,
      )
  }

  /** Call at the end of the input: leftover bytes mean the stream was cut inside a block. */
  finish(): void {
    const pending = this.arena.length
    if (pending > 0) {
      throw new ProtocolError(
        `the Native stream ended inside a block: ${pending} bytes received, at least ${Math.max(this.needed, pending + 1)} needed`,
      )
    }
  }

  /**
   * Shifts the next block's bytes (only what arrived past the boundary) by up to 7 bytes so
   * that its first column's data is 8-byte aligned. Needs its header: the column and row
   * counts, the first column's name and type.
   */
  private place(): void {
    const arena = this.arena
    const header = this.header.reset(arena.bytes, arena.start, arena.end)
    if (this.withBlockInfo) readBlockInfo(header)
    header.varUInt()
    const rows = header.varUInt()
    header.skip(header.varUInt())
    header.skip(header.varUInt())
    // A column without custom kinds (the norm) has its data right after this byte.
    if (this.withCustomSerialization) header.skip(1)
    if (header.short) return
    this.placed = true
    if (rows > 0) arena.alignAt(header.offset, 8)
  }
}
