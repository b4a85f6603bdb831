import { decodeUtf8, type Progress, UsageError } from '@clickwire/protocol'
import { findTrailer, serverError, trailerText } from './exception-trailer.js'
import type { BodyReader } from './http-backend.js'

/** How a raw result reaches the request that produced it. */
export interface RawResultSetup {
  readonly queryId: string
  /** The output format the server announced, or the one asked for. */
  readonly format: string | undefined
  readonly body: BodyReader
  readonly exceptionTag: string | undefined
  readonly progress: Progress
  readonly stop: (reason: unknown) => Promise<void>
  readonly bodyError: (cause: unknown, detail: string) => Error
  readonly settle: () => void
  /** Bytes kept back from the consumer until more arrive (default 256 KiB). */
  readonly holdBackBytes?: number | undefined
}

/**
 * The body of a query in any format (TSV, CSV, JSONEachRow, Parquet, Native...), as bytes.
 *
 * Formats other than Native have no boundaries the client can check, so the last bytes
 * (256 KiB by default, more than any exception message) are held back until more data
 * arrives or the body ends. At the end they are searched for an exception the server
 * appended (see exception-trailer.ts): the data before it is delivered, then the
 * ClickHouseError is raised. The exception text itself never reaches the consumer.
 */
export class RawResult implements AsyncIterable<Uint8Array> {
  readonly queryId: string
  readonly format: string | undefined
  readonly progress: Progress
  private iterating = false
  private done = false

  constructor(private readonly setup: RawResultSetup) {
    this.queryId = setup.queryId
    this.format = setup.format
    this.progress = setup.progress
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    if (this.iterating) throw new UsageError('a raw result can be read once')
    this.iterating = true
    const chunks = this.chunks()
    return {
      next: () => chunks.next(),
      return: async () => {
        await this.cancel()
        return chunks.return(undefined)
      },
    }
  }

  /** The whole body as one array. */
  async bytes(): Promise<Uint8Array> {
    const parts: Uint8Array[] = []
    let total = 0
    for await (const chunk of this) {
      parts.push(chunk)
      total += chunk.length
    }
    return concat(parts, total)
  }

  /** The whole body as UTF-8 text. */
  async text(): Promise<string> {
    return decodeUtf8(await this.bytes())
  }

  /** Stops reading, aborts the request and stops the query on the server. */
  async cancel(): Promise<void> {
    if (this.done) return
    this.done = true
    const reason = new UsageError('the raw result was cancelled')
    this.setup.body.cancel(reason)
    try {
      await this.setup.stop(reason)
    } finally {
      this.setup.settle()
    }
  }

  private async *chunks(): AsyncGenerator<Uint8Array> {
    const holdBack = this.setup.holdBackBytes ?? 256 * 1024
    const held: Uint8Array[] = []
    let heldBytes = 0
    let emitted = 0
    let abnormal: { error: unknown } | undefined
    try {
      for (;;) {
        let chunks: Uint8Array[] | undefined
        try {
          const body = this.setup.body
          if (body.readBatch) chunks = await body.readBatch()
          else {
            const chunk = await body.read()
            chunks = chunk === undefined ? undefined : [chunk]
          }
        } catch (error) {
          abnormal = { error }
          break
        }
        if (chunks === undefined) break
        for (const chunk of chunks) {
          if (chunk.length === 0) continue
          held.push(chunk)
          heldBytes += chunk.length
        }
        while (held.length > 1 && heldBytes - held[0]!.length >= holdBack) {
          const first = held.shift()!
          heldBytes -= first.length
          emitted += first.length
          yield first
        }
      }
      const tail = concat(held, heldBytes)
      const at = findTrailer(tail, {
        tag: this.setup.exceptionTag,
        abnormalEnd: abnormal !== undefined,
      })
      if (at >= 0) {
        if (at > 0) yield tail.subarray(0, at)
        throw serverError(trailerText(tail.subarray(at), this.setup.exceptionTag), this.queryId)
      }
      if (abnormal) {
        // What arrived before the break is real data; the consumer still learns it is incomplete.
        if (tail.length > 0) yield tail
        throw this.setup.bodyError(
          abnormal.error,
          `the response body broke off after ${emitted + heldBytes} bytes`,
        )
      }
      if (tail.length > 0) yield tail
    } finally {
      if (!this.done) {
        this.done = true
        this.setup.settle()
      }
    }
  }
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(total)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}
