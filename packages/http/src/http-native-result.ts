import {
  type BlockStream,
  type CodecContext,
  type ColumnMeta,
  codecsPending,
  type NativeBlock,
  NativeStreamDecoder,
  type ProfileInfo,
  type Progress,
  ProtocolError,
  Revision,
  type RowObject,
  rowObjects,
  UsageError,
} from '@clickwire/protocol'
import {
  maxTrailerBytes,
  serverError,
  type TrailerStart,
  trailerStart,
  trailerText,
} from './exception-trailer.js'
import type { BodyReader } from './http-backend.js'
import { restoreZones, type ZoneTypes, zonelessDateTimes, zoneTypes } from './result-zones.js'

/** How a result stream reaches the request that produced it. */
export interface NativeResultSetup {
  readonly queryId: string
  readonly body: BodyReader
  readonly context: CodecContext
  /** The `maxBlockBytes` option: the most bytes one block may take decoded. */
  readonly maxBlockBytes?: number | undefined
  /** `X-ClickHouse-Exception-Tag` of the response (25.11+), when sent. */
  readonly exceptionTag: string | undefined
  readonly progress: Progress
  /** Aborts the request and stops the query on the server. */
  readonly stop: (reason: unknown) => Promise<void>
  /** The error to raise for a body that failed (connection reset, timeout, abort). */
  readonly bodyError: (cause: unknown, detail: string) => Error
  /** Called once when the stream is over, however it ended. */
  readonly settle: () => void
  /**
   * The result's columns as the server describes them (result-metadata.ts): the columns of
   * a result without rows, which a `FORMAT Native` answer does not send, and the real types
   * of DateTime columns whose zone it dropped (result-zones.ts). Undefined when unknown.
   */
  readonly describe?: (() => Promise<readonly ColumnMeta[] | undefined>) | undefined
}

const notReady = Symbol('not ready')
const peekSize = 64

type ReadOutcome = Uint8Array | Uint8Array[] | undefined | typeof notReady | { readonly error: unknown }

/**
 * The blocks of a `FORMAT Native` response, decoded as the body arrives (protocol's
 * NativeBlockReader through protocol's NativeStreamDecoder, revision 0: no BlockInfo). The body is pulled only when the
 * consumer asks for the next block, so the socket is read no faster than blocks are used.
 *
 * At every block boundary the first bytes are checked against the forms a server uses to
 * report an exception after the response started (see exception-trailer.ts): a match is
 * collected to the end of the body and raised as a ClickHouseError, never decoded as a
 * block. A body that ends inside a block raises ProtocolError, one cut by the network
 * ConnectionError: a truncated result never ends like a complete one.
 */
export class NativeResult implements BlockStream, AsyncIterable<NativeBlock> {
  readonly queryId: string
  readonly profileInfo: ProfileInfo | undefined = undefined
  readonly totals: NativeBlock | undefined = undefined
  readonly extremes: NativeBlock | undefined = undefined
  private currentProgress: Progress
  private readonly decoder: NativeStreamDecoder
  private boundaryState: TrailerStart | undefined
  /** A trailer seems to start at the block boundary: collect instead of decoding. */
  private suspect = false
  private ended = false
  private abnormal: { error: unknown } | undefined
  private inflight: Promise<Uint8Array | Uint8Array[] | undefined> | undefined
  private stash: NativeBlock | undefined
  private meta: readonly ColumnMeta[] | undefined
  private done = false
  private failure: unknown
  private iterating = false
  private settled = false
  /** Real types of zoneless DateTime columns, once known (see result-zones.ts). */
  private zones: ZoneTypes | undefined
  /** Whether the consumer drops each block before asking for the next (see recycleBlocks). */
  private recycling = false
  /** The decoder's index of the last block handed out while recycling, or -1. */
  private handedOut = -1

  constructor(private readonly setup: NativeResultSetup) {
    this.queryId = setup.queryId
    this.currentProgress = setup.progress
    this.decoder = new NativeStreamDecoder(setup.context, undefined, setup.maxBlockBytes)
  }

  get progress(): Progress {
    return this.currentProgress
  }

  /**
   * Result columns: from the first block, or, for a result without rows (the server sends
   * no block then), as the server describes the statement, so they are the columns the
   * native protocol's header block gives.
   */
  async columns(): Promise<readonly ColumnMeta[]> {
    if (this.meta) return this.meta
    if (!this.done && this.stash === undefined) {
      if (this.iterating)
        throw new UsageError('columns() cannot wait for the header while the stream is iterated')
      this.stash = await this.nextBlock()
    }
    this.meta ??= (await this.setup.describe?.()) ?? []
    return this.meta
  }

  /**
   * See BlockStream.recycleBlocks: the decoder takes its buffers from a pool and reuses
   * those of a block once the consumer asks for the next one, as the native transport does.
   * Blocks read ahead for {@link columns} (the first one) are never reused.
   */
  recycleBlocks(): void {
    if (this.done || this.recycling) return
    this.recycling = true
    this.decoder.recycle(true)
  }

  [Symbol.asyncIterator](): AsyncIterator<NativeBlock> {
    if (this.iterating) throw new UsageError('a result stream can be iterated once')
    this.iterating = true
    return {
      next: async () => {
        const block = await this.nextBlock()
        return block ? { value: block, done: false } : { value: undefined, done: true }
      },
      return: async () => {
        await this.cancel()
        return { value: undefined, done: true }
      },
    }
  }

  /** The rows as objects keyed by column name, block by block. */
  async *rows(): AsyncGenerator<RowObject> {
    for await (const block of this) yield* rowObjects(block)
  }

  /** The blocks as a web ReadableStream (cancelling it cancels the query). */
  toReadableStream(): ReadableStream<NativeBlock> {
    const iterator = this[Symbol.asyncIterator]()
    return new ReadableStream<NativeBlock>({
      pull: async (controller) => {
        const step = await iterator.next()
        if (step.done) controller.close()
        else controller.enqueue(step.value)
      },
      cancel: async () => {
        await iterator.return?.()
      },
    })
  }

  /** Stops reading, aborts the request and stops the query on the server. */
  async cancel(): Promise<void> {
    if (this.done) return
    this.done = true
    this.stash = undefined
    const reason = new UsageError('the result stream was cancelled')
    this.setup.body.cancel(reason)
    this.inflight?.catch(() => {})
    try {
      await this.setup.stop(reason)
    } finally {
      this.settle()
    }
  }

  private settle(): void {
    if (this.settled) return
    this.settled = true
    this.setup.settle()
  }

  private async nextBlock(): Promise<NativeBlock | undefined> {
    if (this.stash) {
      const block = this.stash
      this.stash = undefined
      return block
    }
    if (this.failure !== undefined) throw this.failure
    if (this.done) return undefined
    // The consumer asked for the next block: the previous one's memory may be reused.
    if (this.handedOut >= 0) this.decoder.releaseThrough(this.handedOut)
    try {
      let block = await this.pump()
      if (block !== undefined && this.recycling) this.handedOut = this.decoder.lastBlock
      if (block !== undefined) block = await this.withZones(block)
      if (block === undefined) {
        this.done = true
        this.settle()
      } else
        this.meta ??= block.columns.map((column) => ({
          name: column.name,
          type: column.typeName,
          typeNode: column.type,
        }))
      return block
    } catch (error) {
      this.failure = error
      this.done = true
      this.setup.body.cancel(error)
      this.settle()
      throw error
    }
  }

  private async withZones(block: NativeBlock): Promise<NativeBlock> {
    if (this.zones === undefined) {
      // From revision 54337 on (a body asked with client_protocol_version) the types name their zones.
      const indexes =
        this.setup.context.revision >= Revision.withTimezoneParameterInDateTime
          ? []
          : zonelessDateTimes(block)
      const described = indexes.length > 0 && this.setup.describe ? await this.setup.describe() : undefined
      this.zones = described
        ? zoneTypes(
            described.map((column) => column.type),
            indexes,
          )
        : new Map()
    }
    return restoreZones(block, this.zones, this.setup.context.mapping)
  }

  private async pump(): Promise<NativeBlock | undefined> {
    let force = false
    for (;;) {
      let block: NativeBlock | undefined
      try {
        block = this.decodeAvailable(force || this.ended)
      } catch (error) {
        // A block of a type whose codec loads on demand: decode it again once loaded.
        const loading = codecsPending(error)
        if (!loading) throw error
        await loading
        continue
      }
      if (block) return block
      if (this.ended) return this.endOfBody()
      const outcome = await this.read(force)
      if (outcome === notReady) {
        // Nothing more has arrived yet: decode what is there even if the block looked
        // longer, so a complete block is never held back while the server is slow.
        force = true
        continue
      }
      force = false
      if (outcome === undefined) this.ended = true
      else if (outcome instanceof Uint8Array) this.decoder.push(outcome)
      else if (Array.isArray(outcome)) {
        for (const chunk of outcome) this.decoder.push(chunk)
      } else {
        this.ended = true
        this.abnormal = outcome
      }
    }
  }

  /** The next chunk, or `notReady` when none is there yet and `wait` is false. */
  private async read(wait: boolean): Promise<ReadOutcome> {
    let pending = this.inflight
    if (!pending) {
      const body = this.setup.body
      pending = body.readBatch ? body.readBatch() : body.read()
      pending.catch(() => {})
      this.inflight = pending
    }
    try {
      const outcome = wait ? await pending : await Promise.race([pending, Promise.resolve(notReady)])
      if (outcome !== notReady) this.inflight = undefined
      return outcome
    } catch (error) {
      this.inflight = undefined
      return { error }
    }
  }

  private pending(): number {
    return this.decoder.buffered
  }

  private decodeAvailable(force: boolean): NativeBlock | undefined {
    if (this.suspect) {
      if (this.pending() <= maxTrailerBytes) return undefined
      // Too long for an exception message: these bytes are data after all.
      this.suspect = false
      this.boundaryState = 'no'
    }
    if (this.boundaryState === undefined || this.boundaryState === 'more') {
      const available = this.pending()
      if (available === 0) return undefined
      const head = this.decoder.peek(peekSize)
      this.boundaryState = trailerStart(head, 0, head.length, this.setup.exceptionTag)
      if (this.boundaryState === 'yes') {
        this.suspect = true
        return undefined
      }
      if (this.boundaryState === 'more' && !this.ended) return undefined
    }
    const block = this.decoder.next(force)
    if (block) this.boundaryState = undefined
    return block
  }

  private endOfBody(): undefined {
    const pending = this.pending()
    if (this.suspect) {
      const text = trailerText(this.decoder.peek(pending).slice(), this.setup.exceptionTag)
      throw serverError(text, this.queryId)
    }
    if (this.abnormal) {
      const detail =
        pending > 0
          ? `the response body broke off ${pending} bytes into a Native block`
          : 'the response body broke off'
      throw this.setup.bodyError(this.abnormal.error, detail)
    }
    if (pending > 0) {
      throw new ProtocolError(
        `the response ended inside a Native block: ${pending} bytes after the last complete block`,
        { path: `query ${this.queryId}` },
      )
    }
    this.decoder.finish()
    return undefined
  }
}
