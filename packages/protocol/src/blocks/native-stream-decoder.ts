import type { CodecContext } from '../columns/column-codec.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { ByteReader } from '../io/byte-reader.js'
import { InputArena } from '../io/input-arena.js'
import type { NativeBlock } from './native-block.js'
import { NativeBlockReader } from './native-block-reader.js'

/**
 * Decodes a stream of Native blocks (the body of `FORMAT Native`) from chunks of any size.
 *
 * A decode attempt that runs short remembers how many bytes it needs (exactly) and where
 * the block probably ends (estimated from the rows seen); the next attempt waits for the
 * estimate, so a large block is decoded about once, not once per chunk. Pass `force` when
 * the input pauses (no more chunks for now, or the end) so a complete block is never held
 * back by an estimate that was too high.
 */
export class NativeStreamDecoder {
  private readonly arena = new InputArena()
  private readonly reader = new ByteReader()
  private readonly blocks: NativeBlockReader
  private needed = 0
  private expected = 0

  constructor(context: CodecContext, withBlockInfo = false) {
    this.blocks = new NativeBlockReader(context, withBlockInfo)
  }

  /** Bytes received but not yet decoded. */
  get buffered(): number {
    return this.arena.length
  }

  push(chunk: Uint8Array): void {
    this.arena.push(chunk)
  }

  /** The next complete block, or undefined when more input is needed. */
  next(force = false): NativeBlock | undefined {
    const arena = this.arena
    const length = arena.length
    if (length === 0 || length < this.needed || (!force && length < this.expected)) return undefined
    const reader = this.reader.reset(arena.bytes, arena.start, arena.end)
    const block = this.blocks.read(reader)
    if (block === undefined) {
      this.needed = reader.missing - arena.start
      this.expected = Math.max(this.needed, reader.expected - arena.start)
      arena.reserve(this.expected, reader.align)
      return undefined
    }
    arena.consume(reader.offset)
    this.needed = 0
    this.expected = 0
    return block
  }

  /** Call at the end of the input: leftover bytes mean the stream was cut inside a block. */
  finish(): void {
    if (this.arena.length > 0) {
      throw new ProtocolError(
        `the Native stream ended inside a block: ${this.arena.length} bytes received, at least ${Math.max(this.needed, this.arena.length + 1)} needed`,
      )
    }
  }
}
