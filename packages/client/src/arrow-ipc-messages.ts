import { ProtocolError } from '@clickwire/protocol'

/**
 * The bytes of an Arrow IPC stream cut along its messages: for each message its prefix
 * (continuation marker and metadata length), its flatbuffer metadata and its body, each one
 * contiguous array. apache-arrow's own stream reader joins the response's small chunks on
 * every read and is slower than decoding the Native format ourselves; handed whole parts,
 * its synchronous reader only takes views of them. A part inside one received chunk is a
 * view of it; one that spans chunks is copied once.
 */
export async function* arrowIpcParts(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const queue = new ByteQueue()
  // What is awaited next: the 4-byte marker or length, then the metadata, then the body.
  let want = 4
  let stage: 'length' | 'metadata' | 'body' = 'length'
  let prefix: Uint8Array | undefined
  for await (const chunk of chunks) {
    queue.push(chunk)
    while (queue.size >= want) {
      if (stage === 'length') {
        const word = queue.take(4)
        const value = new DataView(word.buffer, word.byteOffset, 4).getInt32(0, true)
        // 0xFFFFFFFF is the continuation marker of the current format; the length follows.
        if (value === -1 && prefix === undefined) {
          prefix = word
          continue
        }
        if (value === 0) return // the end-of-stream marker
        if (value < 0) throw new ProtocolError(`ArrowStream: a message of ${value} bytes`)
        yield prefix ? joined(prefix, word) : word
        prefix = undefined
        stage = 'metadata'
        want = value
      } else if (stage === 'metadata') {
        const metadata = queue.take(want)
        yield metadata
        const body = messageBodyLength(metadata)
        if (body > 0) {
          stage = 'body'
          want = body
        } else {
          stage = 'length'
          want = 4
        }
      } else {
        yield queue.take(want)
        stage = 'length'
        want = 4
      }
    }
  }
  if (stage !== 'length' || queue.size > 0 || prefix)
    throw new ProtocolError('ArrowStream: the response ended inside a message')
}

/** `bodyLength` (field 3, a long) of an Arrow `Message` flatbuffer. */
function messageBodyLength(metadata: Uint8Array): number {
  const view = new DataView(metadata.buffer, metadata.byteOffset, metadata.byteLength)
  const table = view.getUint32(0, true)
  const vtable = table - view.getInt32(table, true)
  const vtableSize = view.getUint16(vtable, true)
  const field = vtableSize > 10 ? view.getUint16(vtable + 10, true) : 0
  return field === 0 ? 0 : Number(view.getBigInt64(table + field, true))
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** Received chunks, taken from the front by byte count. */
class ByteQueue {
  private readonly chunks: Uint8Array[] = []
  private first = 0
  private head = 0
  size = 0

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return
    this.chunks.push(chunk)
    this.size += chunk.length
  }

  /** `count` bytes (at most `size`): a view when they lie in one chunk, else a copy. */
  take(count: number): Uint8Array {
    this.size -= count
    const front = this.chunks[this.first]!
    if (front.length - this.head >= count) {
      const out = front.subarray(this.head, this.head + count)
      this.advance(front, count)
      return out
    }
    const out = new Uint8Array(count)
    let at = 0
    while (at < count) {
      const chunk = this.chunks[this.first]!
      const step = Math.min(count - at, chunk.length - this.head)
      out.set(chunk.subarray(this.head, this.head + step), at)
      at += step
      this.advance(chunk, step)
    }
    return out
  }

  private advance(chunk: Uint8Array, count: number): void {
    this.head += count
    if (this.head < chunk.length) return
    this.head = 0
    this.first++
    // Drops the finished chunks now and then, not on every take.
    if (this.first > 64) {
      this.chunks.splice(0, this.first)
      this.first = 0
    }
  }
}
