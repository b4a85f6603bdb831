import type { BufferPool } from './buffer-pool.js'
import { allocateBytes } from './byte-allocation.js'

/**
 * Where received bytes live until they are decoded: a run of large buffers written front to
 * back and never overwritten. Decoded columns are views into it, so they stay valid after
 * the arena moves on; an old buffer is freed by the GC once no column refers to it.
 *
 * A socket can read straight into {@link writable} (Node's `onread`), so bytes land where
 * they are decoded with no copy; other sources {@link push} chunks, adopted without a copy
 * when the arena is empty. Only the unconsumed tail of a packet is ever copied, when it
 * must continue in a new buffer. {@link reserve} can also place that tail so that a large
 * fixed-width column still to come lands aligned for a typed-array view.
 */
export class InputArena {
  private buffer: Uint8Array
  /** First unconsumed byte in {@link bytes}. */
  start = 0
  /** End of the received bytes in {@link bytes}. */
  end = 0
  /** Whether the current buffer was adopted from a pushed chunk (it has no free space). */
  private adopted = false
  /** End of the last region {@link writable} lent out: a socket may still write up to there. */
  private lent = 0
  /** Where fresh buffers come from and old ones go, while a consumer lets memory be reused. */
  private pool: BufferPool | undefined
  /** The whole allocation {@link buffer} is a view of (buffer may skip a few bytes to align). */
  private base: Uint8Array
  /** Whether {@link base} came from the pool: memory from before the pool was set is never reused. */
  private recyclable = false
  /** A pool buffer the arena moved away from while a socket still held a region of it. */
  private deferred: Uint8Array | undefined

  constructor(
    /** Size of a fresh buffer: large enough for many packets, so copies stay rare. */
    readonly chunkSize = 4 << 20,
    /**
     * Size of the first buffer, doubling up to {@link chunkSize} as more is needed: a
     * short-lived stream (one HTTP result) that stays small never costs a large buffer.
     */
    readonly firstChunkSize = chunkSize,
  ) {
    this.buffer = this.base = new Uint8Array(0)
  }

  /**
   * Takes buffers from `pool` and retires the ones left behind to it from now on (see
   * {@link BufferPool}); undefined stops. The current buffer holds bytes from before, whose
   * views may live on, so it is never retired.
   */
  recycleWith(pool: BufferPool | undefined): void {
    if (pool === this.pool) return
    this.pool = pool
    this.recyclable = false
    this.deferred = undefined
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
      this.buffer = this.base = new Uint8Array(0)
      this.start = this.end = this.lent = 0
      this.adopted = false
    }
  }

  /**
   * Makes sure the current buffer can hold `total` bytes from {@link start} in one piece,
   * moving the pending bytes to a larger buffer when it cannot. Call it when a decoder
   * reports that it needs that much.
   *
   * With `align`, the decoder also said that fixed-width data of `align.width`-byte values
   * starts at `align.at` (an offset in {@link bytes}) and has not fully arrived: when only a
   * little of it is here yet, the pending bytes are moved so that the data lands aligned,
   * and the column can be a view instead of a copy.
   */
  reserve(total: number, align?: { readonly at: number; readonly width: number }): void {
    if (align && align.width > 1 && !this.adopted) {
      const misaligned = (this.buffer.byteOffset + align.at) % align.width !== 0
      // Moving copies everything pending; worth it while most of the column is still to come
      // (otherwise the column is copied once when decoded, which costs no more).
      const pending = this.end - this.start
      if (misaligned && align.at >= this.start && pending * 2 < total) {
        if (!this.realignInPlace(total, align)) this.relocate(total, align)
        return
      }
    }
    if (this.start + total <= this.buffer.length && !this.adopted) return
    if (this.adopted && this.start + total <= this.end) return
    this.relocate(total, align)
  }

  /**
   * Free space of at least `min` bytes at {@link end}, for a socket to read into, of at
   * most `max` bytes.
   */
  writable(min = 64 * 1024, max = maxReadBytes): Uint8Array {
    // The socket asks for a region only after its last read finished: a buffer it held a
    // region of is out of its hands now.
    if (this.deferred) {
      this.pool?.retire(this.deferred)
      this.deferred = undefined
    }
    if (this.adopted || this.buffer.length - this.end < min) this.relocate(this.length + min)
    // Bounded, so the space beyond it stays ours while the socket holds the region (see realignInPlace).
    const limit = Math.min(this.buffer.length, this.end + Math.max(min, max))
    this.lent = limit
    return this.buffer.subarray(this.end, limit)
  }

  /**
   * Whether `region` is the free space {@link writable} would hand out now. A socket keeps
   * the region it was given until its next read; if the arena moved meanwhile, the bytes
   * landed elsewhere and must be {@link push}ed instead of committed.
   */
  isWritable(region: Uint8Array): boolean {
    return (
      !this.adopted &&
      region.buffer === this.buffer.buffer &&
      region.byteOffset === this.buffer.byteOffset + this.end
    )
  }

  /**
   * Free space for `size` bytes right after {@link end}, for a decoder that writes there
   * itself (a decompressor): `bytes[offset, offset + size)`. Then {@link commit} what was
   * written. The pending bytes move to a larger buffer first when they must.
   */
  room(size: number): { readonly bytes: Uint8Array; readonly offset: number } {
    this.reserve(this.length + size)
    return { bytes: this.buffer, offset: this.end }
  }

  /** Records that `n` bytes were written into the region returned by {@link writable} or {@link room}. */
  commit(n: number): void {
    this.end += n
  }

  /** Appends a chunk that arrived from elsewhere (a fetch body, a 'data' event). */
  push(chunk: Uint8Array): void {
    const size = chunk.length
    if (size === 0) return
    if (this.start === this.end && size >= 64 * 1024) {
      // Nothing pending: decode straight from the chunk.
      this.leave()
      this.buffer = this.base = chunk
      this.recyclable = false
      this.lent = 0
      this.start = 0
      this.end = size
      this.adopted = true
      return
    }
    if (this.adopted || this.buffer.length - this.end < size) this.relocate(this.length + size)
    this.buffer.set(chunk, this.end)
    this.end += size
  }

  /**
   * Shifts the pending bytes forward by less than `width` so that `at` (an offset in
   * {@link bytes}, at or after {@link start}) lands on a multiple of `width`, when the
   * bytes at `at` are fixed-width data of that width. Bytes before {@link start} stay where
   * they are. An adopted chunk is left as it is: it has no room to shift into, and moving
   * it whole costs what copying the one column would.
   */
  alignAt(at: number, width: number): void {
    const misalignment = (this.buffer.byteOffset + at) % width
    if (misalignment === 0 || this.adopted || at < this.start) return
    const shift = width - misalignment
    if (this.end + shift > this.buffer.length || this.lent > this.end) {
      this.relocate(this.length + width, { at, width })
      return
    }
    this.buffer.copyWithin(this.start + shift, this.start, this.end)
    this.start += shift
    this.end += shift
  }

  /**
   * Copies the pending bytes to the free space after {@link end}, placed so that `align.at`
   * lands aligned, when the whole `total` fits there. Nothing before {@link end} is written,
   * so views of consumed bytes stay intact, and no buffer is allocated (a fresh one per block
   * costs page faults: ch-bench spent a tenth of its time there).
   */
  private realignInPlace(total: number, align: { readonly at: number; readonly width: number }): boolean {
    const pending = this.end - this.start
    const offset = align.at - this.start
    // Past the region a socket may still be reading into: that read then lands where the
    // arena no longer ends, and isWritable tells the socket to push it instead.
    let target = Math.max(this.end, this.lent)
    const misalignment = (this.buffer.byteOffset + target + offset) % align.width
    if (misalignment !== 0) target += align.width - misalignment
    if (target + total > this.buffer.length) return false
    this.buffer.copyWithin(target, this.start, this.end)
    this.start = target
    this.end = target + pending
    return true
  }

  /** Hands the current buffer to the pool, once nothing can still write into it. */
  private leave(): void {
    if (!this.pool || !this.recyclable) return
    // A socket given a region of this buffer writes there on its next read, whenever that is.
    if (this.lent > 0) this.deferred = this.base
    else this.pool.retire(this.base)
    this.recyclable = false
  }

  private relocate(total: number, align?: { readonly at: number; readonly width: number }): void {
    const pending = this.length
    let shift = 0
    if (align && align.at >= this.start) {
      // Place the pending bytes so that `align.at` falls on a multiple of the width.
      shift = (align.width - ((align.at - this.start) % align.width)) % align.width
    }
    const grown = Math.min(this.chunkSize, Math.max(this.firstChunkSize, 2 * this.base.length))
    const size = Math.max(grown, total + (total >> 1), pending) + shift
    const minimum = Math.max(total, pending) + shift
    const pool = this.pool
    const allocation = pool ? pool.take(size, minimum) : allocateBytes(size, minimum)
    const next = allocation.subarray(shift)
    if (pending > 0) next.set(this.buffer.subarray(this.start, this.end))
    this.leave()
    this.base = allocation
    this.recyclable = pool !== undefined
    this.buffer = next
    this.start = 0
    this.end = pending
    this.lent = 0
    this.adopted = false
  }
}

/** The largest region one socket read gets (reads on loopback are ~100 KiB anyway). */
const maxReadBytes = 1 << 20
