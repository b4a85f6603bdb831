import {
  type CodecContext,
  type ColumnMeta,
  type CompressionCodecs,
  type CompressionMethod,
  type InsertProducer,
  type Settings,
  UsageError,
} from '@clickwire/protocol'
import { compressFrames } from '@clickwire/protocol/frames'
import {
  defaultSquashing,
  keepsRowsWhenStopped,
  squashSetting,
  withInsertOutcome,
} from '@clickwire/protocol/insert'

// The insert's errors before its upload get their outcome from here, loaded with the upload.
export { withOutcome } from '@clickwire/protocol/insert'

import { gzipChunks } from './gzip-body.js'
import type { BackendBody } from './http-backend.js'
import { type InsertCounter, nativeInsertBody } from './insert-body.js'

/** How an insert body is encoded on the wire. */
export interface UploadEncoding {
  /** Compressed frames (`decompress=1`) with this method, and the codecs for it. */
  readonly frames?: { readonly method: CompressionMethod; readonly codecs: CompressionCodecs } | undefined
  /** `Content-Encoding: gzip` around everything. */
  readonly gzip: boolean
}

/**
 * The body of one `INSERT ... FORMAT Native` request and what is known about it while it
 * goes out: whether its rows have started (the producer was asked for a batch), how many
 * were sent, whether all of it was sent. The body is made afresh for each attempt, so a
 * request the retry policy sends again (its rows never started) gets a whole body, and the
 * producer is called only once.
 */
export class InsertUpload {
  readonly counter: InsertCounter = { rows: 0, blocks: 0, bytes: 0 }
  /** The producer was asked for rows: from here on the request is never sent again. */
  rowsStarted = false
  /** The whole body, end included, was handed to the backend. */
  allSent = false
  /** The producer's own failure, which the caller sees instead of the aborted upload. */
  producerFailure: { readonly error: unknown } | undefined

  constructor(
    private readonly header: readonly ColumnMeta[],
    private readonly producer: InsertProducer,
    private readonly context: CodecContext,
    private readonly encoding: UploadEncoding,
  ) {}

  /** A body for one attempt of the request. */
  body(): BackendBody {
    if (this.rowsStarted) throw new UsageError('an insert body whose rows have started cannot be sent again')
    const upload = this
    const { frames, gzip } = this.encoding
    const transform = frames
      ? (block: Uint8Array) => compressFrames(block, frames.method, frames.codecs)
      : undefined
    const blocks = (async function* () {
      upload.rowsStarted = true
      try {
        yield* nativeInsertBody(upload.header, upload.producer, upload.context, upload.counter, transform)
      } catch (error) {
        upload.producerFailure = { error }
        throw error
      }
    })()
    const encoded = gzip ? gzipChunks(blocks) : blocks
    return (async function* () {
      // One chunk is kept back, so that the last one is known before it goes out: once it is
      // handed to the backend the server may have the whole body and take the insert, so the
      // insert counts as all sent from then on, not only once the backend asks for more.
      let last: Uint8Array | undefined
      for await (const chunk of encoded) {
        if (last !== undefined) yield last
        last = chunk
      }
      upload.allSent = true
      if (last !== undefined) yield last
    })()
  }

  /**
   * The error an insert fails with: the producer's own when it failed, else the request's,
   * with what is known about the rows (protocol's insert-outcome.ts).
   */
  failure(error: unknown, settings: Settings, queryId: string, serverVersion: string): unknown {
    return withInsertOutcome(
      this.producerFailure ? this.producerFailure.error : error,
      {
        allSent: this.allSent,
        rowsSent: this.counter.rows,
        bytesSent: this.counter.serializedBytes ?? 0,
        squashRows: squashSetting(settings.min_insert_block_size_rows, defaultSquashing.rows),
        squashBytes: squashSetting(settings.min_insert_block_size_bytes, defaultSquashing.bytes),
        stoppedKeepsRows: keepsRowsWhenStopped(serverVersion),
      },
      queryId,
    )
  }
}
