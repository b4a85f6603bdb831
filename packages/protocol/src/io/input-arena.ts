/**
 * Where received bytes live until they are decoded: a run of large buffers written front to
 * back and never overwritten. Decoded columns are views into it, so they stay valid after
 * the arena moves on; an old buffer is freed by the GC once no column refers to it.
 *
 * A socket can read straight into {@link writable} (Node's `onread`), so bytes land where
 * they are decoded with no copy; other sources {@link push} chunks, adopted without a copy
 * when the arena is empty. Only the unconsumed tail of a packet is ever copied, when it
 * must continue in a new buffer.
 */
export class InputArena {
  private buffer: Uint8Array
  /** First unconsumed byte in {@link bytes}. */
  start = 0
  /** End of the received bytes in {@link bytes}. */
  end = 0
  /** Whether the current buffer was adopted from a pushed chunk (it has no free space). */
  private adopted = false

  constructor(
    /** Size of a fresh buffer: large enough for many packets, so copies stay rare. */
    readonly chunkSize = 4 << 20,
  ) {
    this.buffer = new Uint8Array(0)
  }

  /** The current buffer; valid bytes are `[start, end)`. */
  get bytes(): Uint8Array {
    return this.buffer
  }

  /** Unconsumed bytes. */
  get length(): number {
    return this.end - this.start
  }

  /** Marks everything before `position` (an offset in {@link bytes}) as consumed. */
  consume(position: number): void {
    this.start = position
    if (this.start === this.end && this.adopted) {
      // Nothing pending in an adopted chunk: drop our reference to it.
      this.buffer = new Uint8Array(0)
      this.start = this.end = 0
      this.adopted = false
    }
  }

  /**
   * Makes sure the current buffer can hold `total` bytes from {@link start} in one piece,
   * moving the pending bytes to a larger buffer when it cannot. Call it when a decoder
   * reports that it needs that much.
   */
  reserve(total: number): void {
    if (this.start + total <= this.buffer.length && !this.adopted) return
    if (this.adopted && this.start + total <= this.end) return
    this.relocate(total)
  }

  /** Free space of at least `min` bytes at {@link end}, for a socket to read into. */
  writable(min = 64 * 1024): Uint8Array {
    if (this.adopted || this.buffer.length - this.end < min) this.relocate(this.length + min)
    return this.buffer.subarray(this.end)
  }

  /** Records that `n` bytes were written into the region returned by {@link writable}. */
  commit(n: number): void {
    this.end += n
  }

  /** Appends a chunk that arrived from elsewhere (a fetch body, a 'data' event). */
  push(chunk: Uint8Array): void {
    const size = chunk.length
    if (size === 0) return
    if (this.start === this.end && size >= 64 * 1024) {
      // Nothing pending: decode straight from the chunk.
      this.buffer = chunk
      this.start = 0
      this.end = size
      this.adopted = true
      return
    }
    if (this.adopted || this.buffer.length - this.end < size) this.relocate(this.length + size)
    this.buffer.set(chunk, this.end)
    this.end += size
  }

  private relocate(total: number): void {
    const pending = this.length
    const size = Math.max(this.chunkSize, total + (total >> 1), pending)
    const next = new Uint8Array(size)
    if (pending > 0) next.set(this.buffer.subarray(this.start, this.end))
    this.buffer = next
    this.start = 0
    this.end = pending
    this.adopted = false
  }
}
