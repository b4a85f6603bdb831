import type { BodyReader } from './http-backend.js'

/**
 * A body fed by a push-style client (the node:http backend's `data` events) and read by pull. When
 * more than `highWaterMark` bytes wait unread it asks the producer to pause; once the
 * reader has taken them down to half of that it asks it to resume. So the network is read
 * only as fast as the consumer decodes, and at most about `highWaterMark` bytes wait.
 */
export class BodyQueue implements BodyReader {
  private chunks: Uint8Array[] = []
  private head = 0
  private queuedBytes = 0
  private paused = false
  private ended = false
  private failure: { error: unknown } | undefined
  private waiter: { resolve(chunk: Uint8Array | undefined): void; reject(error: unknown): void } | undefined
  private batchWaiter:
    | { resolve(chunks: Uint8Array[] | undefined): void; reject(error: unknown): void }
    | undefined

  constructor(
    private readonly flow: { pause(): void; resume(): void; cancel(reason: unknown): void },
    private readonly highWaterMark = 8 << 20,
  ) {}

  /** Bytes received and not yet read. */
  get queued(): number {
    return this.queuedBytes
  }

  push(chunk: Uint8Array): void {
    if (this.ended || this.failure) return
    const waiter = this.waiter
    if (waiter) {
      this.waiter = undefined
      waiter.resolve(chunk)
      return
    }
    const batchWaiter = this.batchWaiter
    if (batchWaiter) {
      // Resolved now, but the consumer runs only after this tick's other chunks were added.
      this.batchWaiter = undefined
      this.chunks.push(chunk)
      this.queuedBytes += chunk.length
      queueMicrotask(() => batchWaiter.resolve(this.takeAll()))
      return
    }
    this.chunks.push(chunk)
    this.queuedBytes += chunk.length
    if (!this.paused && this.queuedBytes > this.highWaterMark) {
      this.paused = true
      this.flow.pause()
    }
  }

  end(): void {
    if (this.ended || this.failure) return
    this.ended = true
    if (this.batchWaiter && this.head === this.chunks.length) {
      const waiter = this.batchWaiter
      this.batchWaiter = undefined
      waiter.resolve(undefined)
    }
    if (this.waiter && this.head === this.chunks.length) {
      const waiter = this.waiter
      this.waiter = undefined
      waiter.resolve(undefined)
    }
  }

  fail(error: unknown): void {
    if (this.ended || this.failure) return
    this.failure = { error }
    if (this.batchWaiter && this.head === this.chunks.length) {
      const waiter = this.batchWaiter
      this.batchWaiter = undefined
      waiter.reject(error)
    }
    if (this.waiter && this.head === this.chunks.length) {
      const waiter = this.waiter
      this.waiter = undefined
      waiter.reject(error)
    }
  }

  read(): Promise<Uint8Array | undefined> {
    if (this.head < this.chunks.length) {
      const chunk = this.chunks[this.head]!
      this.chunks[this.head++] = undefined as unknown as Uint8Array
      if (this.head === this.chunks.length) {
        this.chunks.length = 0
        this.head = 0
      } else if (this.head > 1024) {
        this.chunks.splice(0, this.head)
        this.head = 0
      }
      this.queuedBytes -= chunk.length
      if (this.paused && this.queuedBytes <= this.highWaterMark >> 1) {
        this.paused = false
        this.flow.resume()
      }
      return Promise.resolve(chunk)
    }
    if (this.failure) return Promise.reject(this.failure.error)
    if (this.ended) return Promise.resolve(undefined)
    if (this.paused) {
      this.paused = false
      this.flow.resume()
    }
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject }
    })
  }

  readBatch(): Promise<Uint8Array[] | undefined> {
    if (this.head < this.chunks.length) return Promise.resolve(this.takeAll())
    if (this.failure) return Promise.reject(this.failure.error)
    if (this.ended) return Promise.resolve(undefined)
    if (this.paused) {
      this.paused = false
      this.flow.resume()
    }
    return new Promise((resolve, reject) => {
      this.batchWaiter = { resolve, reject }
    })
  }

  private takeAll(): Uint8Array[] {
    const all = this.head === 0 ? this.chunks : this.chunks.slice(this.head)
    this.chunks = []
    this.head = 0
    this.queuedBytes = 0
    if (this.paused) {
      this.paused = false
      this.flow.resume()
    }
    return all
  }

  cancel(reason?: unknown): void {
    if (this.ended || this.failure) return
    this.chunks.length = 0
    this.head = 0
    this.queuedBytes = 0
    this.failure = { error: reason }
    this.flow.cancel(reason)
    if (this.waiter) {
      const waiter = this.waiter
      this.waiter = undefined
      waiter.reject(reason)
    }
    if (this.batchWaiter) {
      const waiter = this.batchWaiter
      this.batchWaiter = undefined
      waiter.reject(reason)
    }
  }
}
