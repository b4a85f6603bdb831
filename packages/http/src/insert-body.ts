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
 * one batch at a time is in memory, however long the producer runs.
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
  for await (const batch of producer(header) as AsyncIterable<InsertBatch> | Iterable<InsertBatch>) {
    if (batch.columns.length !== header.length) {
      throw new UsageError(`an insert batch has ${batch.columns.length} columns, the header ${header.length}`)
    }
    if (batch.rows === 0) continue
    const columns: ColumnToWrite[] = header.map((meta, index) => ({
      name: meta.name,
      type: meta.type,
      values: batch.columns[index]!,
    }))
    const writer = new ByteWriter(sizeHint)
    blockWriter.write(writer, columns, batch.rows)
    const bytes = writer.finish()
    sizeHint = Math.max(sizeHint, bytes.length + (bytes.length >> 3))
    counter.rows += batch.rows
    counter.blocks++
    counter.serializedBytes = (counter.serializedBytes ?? 0) + bytes.length
    const out = transform ? transform(bytes) : bytes
    counter.bytes += out.length
    yield out
  }
}
