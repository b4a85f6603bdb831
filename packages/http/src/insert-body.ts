import {
  ByteWriter,
  type CodecContext,
  type ColumnMeta,
  codecsReady,
  type InsertBatch,
  type InsertProducer,
  UsageError,
} from '@clickwire/protocol'
import { type ColumnToWrite, NativeBlockWriter } from '@clickwire/protocol/insert'

/** Counts what an insert body carried, for the result. */
export interface InsertCounter {
  rows: number
  blocks: number
  bytes: number
  /** Block bytes as serialised, before any compression. */
  serializedBytes?: number
}

/**
 * The body of `INSERT ... FORMAT Native`: each batch from the producer becomes one Native
 * block (revision 0, no BlockInfo), encoded only when the request asks for more bytes. So
 * one batch at a time is in memory, however long the producer runs. Values already in
 * memory (the producer returns a plain iterable, as the client does for arrays and columns)
 * are encoded whole before the first byte goes out, so a value that cannot be encoded fails
 * the insert with nothing sent; the blocks are kept as bytes, not as values.
 *
 * Each block's last byte is held back and sent in front of the next block (the last one's
 * at the very end). So a body that stops early, however it stops (the producer fails, an
 * abort or a timeout destroys the request), always ends inside a block, which every server
 * generation takes as an error: 18.16 reads a body cut off at a block boundary as complete
 * and stores it.
 *
 * Each block gets a fresh buffer: the socket may still hold the previous one while the
 * next is encoded.
 */
export async function* nativeInsertBody(
  header: readonly ColumnMeta[],
  producer: InsertProducer,
  context: CodecContext,
  counter: InsertCounter,
  transform?: (block: Uint8Array) => Uint8Array,
): AsyncGenerator<Uint8Array> {
  // The codecs of rarer types (Dynamic, JSON, ...) load on demand: before the first encode.
  await codecsReady(header.map((meta) => meta.typeNode))
  const blockWriter = new NativeBlockWriter({ ...context, revision: 0 }, false)
  let sizeHint = 64 * 1024
  /** A batch's block, with one byte free in front of it (index 0) for the byte held back before it. */
  const encode = (batch: InsertBatch): { rows: number; bytes: Uint8Array } | undefined => {
    if (batch.columns.length !== header.length) {
      throw new UsageError(`an insert batch has ${batch.columns.length} columns, the header ${header.length}`)
    }
    if (batch.rows === 0) return undefined
    const columns: ColumnToWrite[] = header.map((meta, index) => ({
      name: meta.name,
      type: meta.type,
      values: batch.columns[index]!,
    }))
    const writer = new ByteWriter(sizeHint)
    writer.u8(0)
    blockWriter.write(writer, columns, batch.rows)
    const bytes = writer.finish()
    sizeHint = Math.max(sizeHint, bytes.length + (bytes.length >> 3))
    return { rows: batch.rows, bytes }
  }
  let held: number | undefined
  /** The bytes that go out for a block: the byte held before, the block but its last byte. */
  const send = (block: { rows: number; bytes: Uint8Array }): Uint8Array => {
    const { bytes } = block
    const first = held === undefined ? 1 : 0
    if (held !== undefined) bytes[0] = held
    held = bytes[bytes.length - 1]
    counter.rows += block.rows
    counter.blocks++
    counter.serializedBytes = (counter.serializedBytes ?? 0) + bytes.length - 1
    const part = bytes.subarray(first, bytes.length - 1)
    const out = transform ? transform(part) : part
    counter.bytes += out.length
    return out
  }
  const batches = producer(header)
  if (Symbol.asyncIterator in batches) {
    for await (const batch of batches) {
      const block = encode(batch)
      if (block) yield send(block)
    }
  } else {
    const blocks: ({ rows: number; bytes: Uint8Array } | undefined)[] = []
    for (const batch of batches) blocks.push(encode(batch))
    for (let index = 0; index < blocks.length; index++) {
      const block = blocks[index]
      blocks[index] = undefined
      if (block) yield send(block)
    }
  }
  if (held !== undefined) {
    const last = Uint8Array.of(held)
    const out = transform ? transform(last) : last
    counter.bytes += out.length
    yield out
  }
}
