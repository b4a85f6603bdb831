import { allocateBytes } from './byte-allocation.js'

/** A buffer handed back to the pool, and the newest block that may still view it. */
interface Retired {
  readonly bytes: Uint8Array
  readonly tag: number
}

/**
 * Receive memory that is reused once the consumer is done with the blocks that viewed it.
 *
 * Decoded columns are views of the received bytes, so normally a receive buffer lives as
 * long as any column does, and every buffer is fresh memory: on a long scan that is a
 * steady stream of large allocations, each of which V8 counts as external memory and
 * answers with garbage collections (ch-bench, 200M UInt64 uncompressed: 80 scavenges and
 * 23 full collections, a third of the client's CPU time). A consumer that promises to use
 * each block only until it asks for the next one lets the stream layer recycle instead:
 *
 * - the stream layer sets {@link tag} to the index of each block it starts decoding;
 * - memory the decoders are done with is {@link retire}d under the current tag (a receive
 *   buffer the arena moved past, a copy made for one block);
 * - when the consumer asks for the block after block `n`, {@link release}(n) makes every
 *   buffer retired under a tag up to `n` free for {@link take}.
 *
 * Tags only grow, so a buffer is never free while a block that may view it is in use.
 */
export class BufferPool {
  /** The newest block started: whatever is retired now may be viewed by it or older ones. */
  tag = 0
  private retired: Retired[] = []
  private free: Uint8Array[] = []
  private freeBytes = 0

  constructor(
    /** Free memory kept for reuse; buffers beyond it are left to the GC. */
    readonly maxFreeBytes = 32 << 20,
  ) {}

  /**
   * A buffer of at least `minimum` bytes (`size` when one is allocated): a free one when
   * one fits without wasting more than half of it, otherwise fresh memory.
   */
  take(size: number, minimum = size): Uint8Array {
    const free = this.free
    // The most recently freed first: its pages are the likeliest to still be in cache.
    for (let i = free.length - 1; i >= 0; i--) {
      const bytes = free[i]!
      if (bytes.length >= minimum && bytes.length <= Math.max(size, minimum) * 2) {
        free[i] = free[free.length - 1]!
        free.pop()
        this.freeBytes -= bytes.length
        return bytes
      }
    }
    return allocateBytes(Math.max(size, minimum), minimum)
  }

  /** Hands `bytes` back; it becomes free once blocks up to the current {@link tag} are released. */
  retire(bytes: Uint8Array): void {
    this.retired.push({ bytes, tag: this.tag })
  }

  /**
   * Memory for one block's private copy (an unaligned column): taken and retired at once,
   * so it is reused after the block is released.
   */
  scratch = (size: number): Uint8Array => {
    const bytes = this.take(size)
    this.retire(bytes)
    return bytes.length === size ? bytes : bytes.subarray(0, size)
  }

  /** The consumer is done with every block up to `tag`: their memory becomes free. */
  release(tag: number): void {
    const retired = this.retired
    let kept = 0
    for (let i = 0; i < retired.length; i++) {
      const entry = retired[i]!
      if (entry.tag > tag) retired[kept++] = entry
      else if (this.freeBytes + entry.bytes.length <= this.maxFreeBytes) {
        this.free.push(entry.bytes)
        this.freeBytes += entry.bytes.length
      }
    }
    retired.length = kept
  }

  /**
   * Forgets every retired buffer without freeing it: something that views them (a block
   * the stream keeps, such as totals) outlives the consumer's promise. The GC reclaims
   * them once nothing refers to them.
   */
  forgetRetired(): void {
    this.retired = []
  }

  /** Bytes free for reuse now. */
  get freeSize(): number {
    return this.freeBytes
  }

  /** Buffers retired and not yet released. */
  get retiredCount(): number {
    return this.retired.length
  }
}
