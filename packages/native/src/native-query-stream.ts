import {
  AbortError,
  type BlockStream,
  type CallDeadline,
  ClickHouseError,
  type ColumnMeta,
  ConnectionError,
  emptyProgress,
  type NativeBlock,
  type ProfileInfo,
  type Progress,
  ProtocolError,
  type QueryEvents,
  type ServerLogEntry,
  TimeoutError,
  UsageError,
} from '@clickwire/protocol'
import type { NativeConnection } from './native-connection.js'
import type { IncomingPacket } from './packet-pump.js'

/** How long a cancelled query may take to wind down before its connection is dropped. */
const drainTimeoutMs = 5_000

/**
 * How long a Cancel may go unanswered before the query is also killed from another
 * connection: the server reads a Cancel only every `interactive_delay` (and not at all
 * while a step of the query blocks), so Cancel alone may leave the query running.
 */
const killAfterMs = 500

/** Adds one Progress packet (increments) to the running totals. */
export function addProgress(total: Progress, packet: IncomingPacket & { type: 'Progress' }): Progress {
  return {
    readRows: total.readRows + packet.rows,
    readBytes: total.readBytes + packet.bytes,
    totalRowsToRead: total.totalRowsToRead + packet.totalRows,
    writtenRows: total.writtenRows + packet.writtenRows,
    writtenBytes: total.writtenBytes + packet.writtenBytes,
    elapsedNs: total.elapsedNs + packet.elapsedNs,
  }
}

/** Turns a server Log block into entries (column names differ a little across versions). */
export function logEntries(block: NativeBlock): ServerLogEntry[] {
  const column = (...names: string[]) => block.columns.find((each) => names.includes(each.name))?.column
  const time = column('event_time')
  const micros = column('event_time_microseconds')
  const host = column('host_name')
  const queryId = column('query_id')
  const thread = column('thread_id', 'thread_number')
  const priority = column('priority')
  const source = column('source')
  const text = column('text')
  return Array.from({ length: block.rows }, (_, row) => ({
    time: `${String(time?.get(row) ?? '')}${micros ? `.${String(micros.get(row)).padStart(6, '0')}` : ''}`,
    hostName: String(host?.get(row) ?? ''),
    queryId: String(queryId?.get(row) ?? ''),
    threadId: Number(thread?.get(row) ?? 0),
    priority: Number(priority?.get(row) ?? 0),
    source: String(source?.get(row) ?? ''),
    text: String(text?.get(row) ?? ''),
  }))
}

/**
 * The result stream of one query on one connection. Blocks are read from the socket only
 * as the consumer asks (the socket itself reads a bounded amount ahead), so memory stays
 * bounded whatever the result size. Progress, ProfileInfo, Totals, Extremes, server logs
 * and ProfileEvents go to the callbacks as they arrive.
 *
 * Stopping (an abort, the query timeout, {@link cancel}, breaking out of the loop) sends
 * Cancel and drains the rest of the query in the background, so the connection goes back
 * to the pool usable; a server that does not wind down within 5 s loses the connection.
 * An abort or timeout fails a consumer waiting for the next block at once, without waiting
 * for the drain.
 */
export class NativeQueryStream implements BlockStream {
  progress: Progress = emptyProgress
  profileInfo: ProfileInfo | undefined
  totals: NativeBlock | undefined
  extremes: NativeBlock | undefined
  private header: readonly ColumnMeta[] | undefined
  /** Blocks read while looking for the header or the first packet, not yet handed out. */
  private readonly pending: NativeBlock[] = []
  private ended = false
  private failure: Error | undefined
  /** Serialises packet reads between the consumer and a drain: every packet read is applied. */
  private reading: Promise<unknown> = Promise.resolve()
  private cancelling: Promise<void> | undefined
  /** Fails the consumer's current wait (set while it waits). */
  private interrupt: ((error: Error) => void) | undefined
  /** Stops watching the query's deadline. */
  private readonly unwatch: (() => void) | undefined
  /** Whether the consumer drops each block before asking for the next (see recycleBlocks). */
  private recycling = false
  /** The pump's index of each block handed out while recycling. */
  private readonly blockIndexes = new WeakMap<NativeBlock, number>()

  constructor(
    private readonly connection: NativeConnection,
    readonly queryId: string,
    private readonly events: QueryEvents,
    private readonly release: (connection: NativeConnection) => void,
    /** The query's time limit and signal (none: neither), started with the call. */
    deadline: CallDeadline | undefined,
    /** The statement is an INSERT: a header block then means the server waits for rows. */
    private readonly insertStatement = false,
    /**
     * Stops the query on the server from another connection (`KILL QUERY`): used when this
     * connection broke or went silent with the query perhaps still running there.
     */
    private readonly killOnServer?: (() => void) | undefined,
  ) {
    if (deadline?.signal?.aborted) queueMicrotask(() => void this.stop(deadline.abortError()))
    else this.unwatch = deadline?.watch((error) => void this.stop(error))
  }

  /** The host the query runs on. */
  get host(): string {
    return this.connection.channel.address
  }

  /** Whether the server has answered yet (any packet). False means the request may never have reached it. */
  get answered(): boolean {
    return this.connection.pump.received > 0
  }

  /**
   * Waits for the server's first answer (the header block, progress, or an error), so a
   * query the server refuses fails here. Blocks read meanwhile are kept for the consumer.
   */
  async started(): Promise<void> {
    while (!this.ended && !this.answered) {
      const block = await this.step()
      if (block) this.pending.push(block)
    }
    if (this.failure) throw this.failure
  }

  /** Result columns: read up to the header block (or the end, for statements without a result). */
  async columns(): Promise<readonly ColumnMeta[]> {
    while (this.header === undefined && !this.ended) {
      const block = await this.step()
      if (block) this.pending.push(block)
    }
    if (this.failure) throw this.failure
    return this.header ?? []
  }

  /** See {@link BlockStream.recycleBlocks}. */
  recycleBlocks(): void {
    if (this.ended || this.recycling) return
    this.recycling = true
    this.connection.pump.recycle(true)
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<NativeBlock, void, undefined> {
    let finished = false
    try {
      for (let block = this.pending.shift(); block; block = this.pending.shift()) {
        yield block
        this.done(block)
      }
      for (;;) {
        const block = await this.step()
        if (block === undefined) break
        yield block
        this.done(block)
      }
      finished = true
    } finally {
      // Breaking out early (or an error from the consumer) stops the query and waits until
      // the connection is clean; an abort or timeout already stops it in the background.
      if (!finished && !this.ended && !this.cancelling) await this.cancel()
    }
  }

  /** The consumer asked for the block after `block`: with recycling, its memory may be reused. */
  private done(block: NativeBlock): void {
    const index = this.blockIndexes.get(block)
    // Once the query ended, the connection may serve another query: leave its pump alone.
    if (index !== undefined && !this.ended) this.connection.pump.releaseThrough(index)
  }

  /** Stops the query on the server and waits until the connection is clean (or dropped). */
  cancel(): Promise<void> {
    return this.stop(new AbortError(undefined, `query ${this.queryId} was cancelled`)).catch(() => {})
  }

  /** The next block with rows, or undefined at the end. Throws the query's error. */
  private async step(): Promise<NativeBlock | undefined> {
    for (;;) {
      if (this.failure) throw this.failure
      if (this.ended) return undefined
      const block = await this.interruptible(this.pull())
      if (this.failure) throw this.failure
      if (block) return block
    }
  }

  private interruptible<T>(promise: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.interrupt = reject
      promise.then(resolve, reject)
    }).finally(() => {
      this.interrupt = undefined
    })
  }

  /** Reads and applies the next packet (after any read already queued). */
  private pull(): Promise<NativeBlock | undefined> {
    const next = this.reading.then(() => this.pullOne())
    this.reading = next.catch(() => {})
    return next
  }

  private async pullOne(): Promise<NativeBlock | undefined> {
    if (this.ended) return undefined
    let packet: IncomingPacket
    try {
      packet = await this.connection.receive()
    } catch (error) {
      this.end(error as Error, false)
      return undefined
    }
    if (
      this.insertStatement &&
      packet.type === 'Data' &&
      this.header === undefined &&
      packet.block.rows === 0 &&
      packet.block.columns.length > 0
    ) {
      return this.refuseInlineRows()
    }
    return this.handle(packet)
  }

  /**
   * An INSERT sent as a query: the server answered with the table's header and waits for
   * the rows as blocks (18.16 does not read rows written inline after VALUES over the native
   * protocol; clickhouse-client parses them itself). Ending the data right away keeps the
   * connection in sync; the statement inserted nothing, so it must not look like success.
   */
  private async refuseInlineRows(): Promise<undefined> {
    this.header = []
    try {
      await this.connection.sendData('', [], 0)
      while (!this.ended) this.handle(await this.connection.receive())
    } catch (error) {
      this.end(error as Error, false)
      return undefined
    }
    this.failure ??= new UsageError(
      'this server reads the rows of an INSERT only as data blocks over the native protocol, not inline in the SQL: pass them to insert(table, rows), or use INSERT ... SELECT',
    )
    return undefined
  }

  /** Applies one packet; returns a block for the consumer, if it is one. */
  private handle(packet: IncomingPacket): NativeBlock | undefined {
    switch (packet.type) {
      case 'Data': {
        this.header ??= packet.block.columns.map((column) => ({
          name: column.name,
          type: column.typeName,
          typeNode: column.type,
        }))
        if (packet.block.rows === 0 || this.cancelling) return undefined
        if (this.recycling) this.blockIndexes.set(packet.block, this.connection.pump.blockIndex)
        return packet.block
      }
      case 'Progress':
        this.progress = addProgress(this.progress, packet)
        this.events.onProgress?.(packetProgress(packet), this.progress)
        return undefined
      case 'ProfileInfo':
        this.profileInfo = packet
        this.events.onProfileInfo?.(packet)
        return undefined
      case 'Totals':
        // Kept past the consumer's loop: its memory must not be reused.
        if (this.recycling) this.connection.pump.pin()
        this.totals = packet.block
        this.events.onTotals?.(packet.block)
        return undefined
      case 'Extremes':
        if (this.recycling) this.connection.pump.pin()
        this.extremes = packet.block
        this.events.onExtremes?.(packet.block)
        return undefined
      case 'Log':
        if (packet.block.rows > 0) this.events.onLog?.(logEntries(packet.block))
        return undefined
      case 'ProfileEvents':
        // The callback may keep the block.
        if (this.recycling && this.events.onProfileEvents) this.connection.pump.pin()
        this.events.onProfileEvents?.(packet.block)
        return undefined
      case 'TableColumns':
      case 'TimezoneUpdate':
        return undefined
      case 'Exception': {
        // An error raised before the server read the rest of our request (a syntax error,
        // an unknown table or setting: 18.16 reads the trailing empty Data block only once the
        // query is analysed) leaves our bytes unread, and reusing the connection would desync
        // it. Only an exception after the server answered something else ends it cleanly.
        const clean = this.header !== undefined || this.progress !== emptyProgress
        this.end(withQueryId(packet.error, this.queryId), clean)
        return undefined
      }
      case 'EndOfStream':
        this.end(undefined, true)
        return undefined
      default: {
        const error = new ProtocolError(`unexpected ${packet.type} packet during a query`)
        this.end(error, false)
        return undefined
      }
    }
  }

  /** The query is over: release the connection (reusable when the protocol is in sync). */
  private end(error: Error | undefined, clean: boolean): void {
    if (this.ended) return
    this.ended = true
    this.unwatch?.()
    // A cancelled query reports the reason of the cancel, not the server's "cancelled".
    this.failure ??= error
    if (clean) this.connection.finish()
    else {
      this.connection.fail(error)
      // The connection broke or went silent (a receive timeout, a reset, a cancel that did
      // not drain) with the query perhaps still running: a server notices a client that went
      // away only when it next writes or polls, so the query is killed from elsewhere. Not
      // when the server never answered a request over a reused connection (the transport
      // sends it again with the same query id), nor after the server's own exception.
      const unsent = ConnectionError.isInstance(error) && !this.answered
      if (!ClickHouseError.isInstance(error) && !unsent) this.kill()
    }
    this.release(this.connection)
  }

  private killed = false

  /** Stops the query with `reason` (the transport closes): the consumer gets `reason`. */
  abort(reason: Error): void {
    void this.stop(reason).catch(() => {})
  }

  /** Asks for a KILL QUERY of this query from another connection, once. */
  private kill(): void {
    if (this.killed || !this.killOnServer) return
    this.killed = true
    this.killOnServer()
  }

  private stop(reason: Error): Promise<void> {
    if (this.ended) return Promise.resolve()
    if (this.cancelling) return this.cancelling
    this.failure = reason
    this.interrupt?.(reason)
    this.connection.draining = true
    this.cancelling = (async () => {
      const deadline = setTimeout(() => {
        this.connection.fail(
          new TimeoutError(
            'cancel',
            drainTimeoutMs,
            `query ${this.queryId} did not stop within ${drainTimeoutMs} ms`,
          ),
        )
      }, drainTimeoutMs)
      const killer = setTimeout(() => this.kill(), killAfterMs)
      try {
        await this.connection.sendCancel()
        while (!this.ended) await this.pull()
      } catch {
        // A failed send already broke the connection; the pending read ends the query.
        while (!this.ended) await this.pull()
      } finally {
        clearTimeout(deadline)
        clearTimeout(killer)
      }
    })()
    return this.cancelling
  }
}

function packetProgress(packet: IncomingPacket & { type: 'Progress' }): Progress {
  return {
    readRows: packet.rows,
    readBytes: packet.bytes,
    totalRowsToRead: packet.totalRows,
    writtenRows: packet.writtenRows,
    writtenBytes: packet.writtenBytes,
    elapsedNs: packet.elapsedNs,
  }
}

/** The server's error with the query id attached, keeping code, name and stack. */
export function withQueryId(error: ClickHouseError, queryId: string): ClickHouseError {
  if (error.queryId === queryId) return error
  const copy = new ClickHouseError({
    code: error.code,
    type: error.type,
    message: error.message,
    serverStackTrace: error.serverStackTrace,
    nested: error.nested,
    queryId,
    codeName: error.codeName,
  })
  copy.stack = error.stack
  return copy
}
