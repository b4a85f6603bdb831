import { ConnectionError, InputArena } from '@clickwire/protocol'

/**
 * Stands in for the native transport's SocketChannel in front of a PacketPump: the bytes
 * a server would send, delivered in a scripted way (chunk sizes, whether the kernel had
 * more, how the stream ends). Only the decoder is under test here, so no server is being
 * impersonated: the bytes come from a real server's recording (or from the fuzzer).
 *
 * Bytes are written the way the real channel writes them: into the arena's writable
 * region, then committed.
 */
export class ScriptedChannel {
  readonly arena = new InputArena(64 * 1024)
  readonly address = 'scripted:0'
  readonly readAheadBytes = 1 << 20
  wanted = this.readAheadBytes
  lastReadDrained = true
  /** How many times the pump asked for more. */
  reads = 0
  private next = 0

  constructor(
    private readonly chunks: readonly Uint8Array[],
    /** Per chunk: whether the kernel had nothing more right after it (cycled). */
    private readonly drained: readonly boolean[] = [true],
    /** How the stream ends once every chunk was delivered. */
    private readonly end: 'close' | 'reset' = 'close',
  ) {}

  async more(): Promise<void> {
    this.reads++
    const chunk = this.chunks[this.next]
    if (chunk === undefined) {
      throw this.end === 'reset'
        ? new ConnectionError(`connection to ${this.address} failed: read ECONNRESET`, {
            code: 'ECONNRESET',
            address: this.address,
          })
        : new ConnectionError(`${this.address} closed the connection`, {
            code: 'ECONNCLOSED',
            address: this.address,
          })
    }
    this.lastReadDrained = this.drained[this.next % this.drained.length] ?? true
    this.next++
    const region = this.arena.writable(chunk.length)
    region.set(chunk)
    this.arena.commit(chunk.length)
  }
}

/**
 * Stands in for an HTTP backend's response body (the Node backend's body queue): chunks, read one
 * by one or in batches, ending cleanly or with a network failure.
 */
export class ScriptedBody {
  cancelled = false
  private cancelReason: unknown
  private next = 0

  constructor(
    private readonly chunks: readonly Uint8Array[],
    /** undefined: the body ends cleanly; otherwise the error its last read rejects with. */
    private readonly failure: Error | undefined,
    /** How many chunks one readBatch() takes (cycled); empty: no readBatch, like a fetch body. */
    private readonly batches: readonly number[],
  ) {
    if (batches.length === 0) (this as { readBatch?: unknown }).readBatch = undefined
  }

  async read(): Promise<Uint8Array | undefined> {
    // Like the Node backend's body queue: reads after cancel() reject with the reason given.
    if (this.cancelled) throw this.cancelReason
    const chunk = this.chunks[this.next]
    if (chunk !== undefined) {
      this.next++
      return chunk
    }
    if (this.failure) throw this.failure
    return undefined
  }

  async readBatch(): Promise<Uint8Array[] | undefined> {
    if (this.cancelled) throw this.cancelReason
    if (this.next >= this.chunks.length) {
      if (this.failure) throw this.failure
      return undefined
    }
    const size = Math.max(1, this.batches[this.next % this.batches.length] ?? 1)
    const batch = this.chunks.slice(this.next, this.next + size)
    this.next += batch.length
    return [...batch]
  }

  cancel(reason?: unknown): void {
    if (this.cancelled) return
    this.cancelled = true
    this.cancelReason = reason
  }
}

/** Cuts `bytes` at the given positions (any order, out-of-range and repeated ones ignored). */
export function splitAt(bytes: Uint8Array, positions: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(positions.filter((at) => at > 0 && at < bytes.length))].sort((a, b) => a - b)
  const chunks: Uint8Array[] = []
  let start = 0
  for (const at of cuts) {
    chunks.push(bytes.subarray(start, at))
    start = at
  }
  if (start < bytes.length) chunks.push(bytes.subarray(start))
  return chunks
}
