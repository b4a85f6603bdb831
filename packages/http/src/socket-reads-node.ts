import { Buffer } from 'node:buffer'
import type { Socket } from 'node:net'

/**
 * Where a pool's plain-TCP sockets read their bytes (Node's `onread`): regions of large
 * slabs, handed out front to back and never written twice, so a chunk pushed to the HTTP parser
 * stays valid however long the body queue or the decoder keep it.
 *
 * Without it Node reads at most 64 KiB per read into a fresh allocation: a 100 MB
 * result then costs ~1,500 reads and as many buffers for the GC, and the JS thread spends
 * its time in the read path instead of decoding. A region here takes whatever the kernel
 * holds, up to {@link maxRead}.
 */
export class ReadSlab {
  private slab: Buffer = Buffer.alloc(0)
  /** Where the next region starts in {@link slab}. */
  private offset = 0

  constructor(
    private readonly slabSize = 1 << 20,
    private readonly maxRead = 256 << 10,
    private readonly minRead = 64 << 10,
  ) {}

  /** Free space for the next read of some socket: no other region overlaps it. */
  region(): Buffer {
    if (this.slab.length - this.offset < this.minRead) {
      this.slab = Buffer.allocUnsafeSlow(this.slabSize)
      this.offset = 0
    }
    const end = Math.min(this.slab.length, this.offset + this.maxRead)
    const region = this.slab.subarray(this.offset, end)
    this.offset = end
    return region
  }

  /**
   * Records that a socket read `read` bytes into `region`: when no region was handed out
   * after it, its unused tail goes to the next read.
   */
  filled(region: Uint8Array, read: number): void {
    const slab = this.slab
    if (
      region.buffer === slab.buffer &&
      region.byteOffset + region.length === slab.byteOffset + this.offset
    ) {
      this.offset = region.byteOffset - slab.byteOffset + read
    }
  }
}

/**
 * `net.connect` options (passed through the http Agent) that read into `slab` and
 * hand each read to the socket's readable side, where the HTTP parser takes it. Backpressure stays
 * Node's: once more than `highWaterMark` bytes wait unread (the body was paused), the
 * read stops until the body is read again.
 */
export function slabReads(slab: ReadSlab): {
  readonly highWaterMark: number
  readonly onread: { buffer(): Buffer; callback(this: Socket, read: number, buffer: Buffer): boolean }
} {
  return {
    highWaterMark: 1 << 20,
    onread: {
      buffer: () => slab.region(),
      callback(this: Socket, read: number, buffer: Buffer): boolean {
        slab.filled(buffer, read)
        return this.push(buffer.subarray(0, read))
      },
    },
  }
}
