import {
  ByteWriter,
  type ColumnInput,
  type ColumnMeta,
  type ColumnParts,
  codecsReady,
  emptyProgress,
  type InsertBatch,
  type InsertProducer,
  type Progress,
  ProtocolError,
  Revision,
  UsageError,
  wholeColumn,
} from '@clickwire/protocol'
import { NativeBlockWriter } from '@clickwire/protocol/insert'
import { parseColumnsDescription } from '@clickwire/protocol/internal'
import { addInsertedCounts, type InsertedCounts } from './insert-profile-events.js'
import type { NativeConnection } from './native-connection.js'
import { addProgress, withQueryId } from './native-query-stream.js'
import type { IncomingPacket } from './packet-pump.js'

/** What one INSERT on one connection reports. */
export interface InsertOutcome {
  readonly rowsWritten: number
  readonly progress: Progress
}

/** Where an insert got to; decides whether its connection can be reused after a failure. */
export interface InsertState {
  /** True once the header arrived: from then on the server reads our data blocks. */
  streaming: boolean
  /** Rows in the blocks handed to the socket. */
  rowsSent?: number
  /** True once the end marker was handed to the socket: only the server's answer is missing. */
  endSent?: boolean
}

/**
 * The INSERT exchange after the Query packet and the empty external-tables block went
 * out: the table's header (TableColumns with the defaults first, from 54410), then the
 * producer's batches as blocks of at most `blockRows` rows, each compressed and written
 * before the next one is made, then the end marker and the server's EndOfStream.
 *
 * A server Exception is thrown with its code. Before the header the server has read
 * everything we sent, so the connection stays usable. After it, any failure leaves the
 * server in the middle of reading our data (or with blocks of ours unread after its own
 * error), so the caller must drop the connection, which also makes the server abandon the
 * insert: `state.streaming` says which.
 */
export async function runInsert(
  connection: NativeConnection,
  producer: InsertProducer,
  queryId: string,
  blockRows: number,
  state: InsertState,
  stopIfFailed: () => void,
): Promise<InsertOutcome> {
  let progress: Progress = emptyProgress
  const inserted: InsertedCounts = { rows: 0, bytes: 0 }
  /** Applies a packet that may arrive at any point; true at the end of the request. */
  const absorb = (packet: IncomingPacket): boolean => {
    switch (packet.type) {
      case 'Progress':
        progress = addProgress(progress, packet)
        return false
      case 'ProfileEvents':
        addInsertedCounts(inserted, packet.block)
        return false
      case 'Log':
      case 'TableColumns':
      case 'TimezoneUpdate':
        return false
      case 'Exception':
        throw withQueryId(packet.error, queryId)
      case 'EndOfStream':
        return true
      default:
        throw new ProtocolError(`unexpected ${packet.type} packet during an insert`)
    }
  }

  let defaults = new Map<string, { kind: string; expression: string }>()
  let header: readonly ColumnMeta[] | undefined
  while (header === undefined) {
    const packet = await connection.receive()
    if (packet.type === 'Data') {
      header = packet.block.columns.map((column) => {
        const given = defaults.get(column.name)
        return {
          name: column.name,
          type: column.typeName,
          typeNode: column.type,
          defaultKind: (given?.kind ?? '') as ColumnMeta['defaultKind'],
          defaultExpression: given?.kind ? given.expression : undefined,
        }
      })
    } else if (packet.type === 'TableColumns') {
      defaults = new Map(
        parseColumnsDescription(packet.columns).map((column) => [
          column.name,
          { kind: column.defaultKind ?? '', expression: column.defaultExpression ?? '' },
        ]),
      )
    } else if (absorb(packet))
      throw new ProtocolError('the server ended the insert before sending its header')
  }

  state.streaming = true
  const columns = header
  // The codecs of rarer types (Dynamic, JSON, ...) load on demand: before the first encode.
  await codecsReady(header.map((column) => column.typeNode))
  const blocks = new NativeBlockWriter(connection.context, true)
  const check = (batch: InsertBatch) => {
    if (batch.columns.length !== columns.length) {
      throw new UsageError(
        `an insert batch has ${batch.columns.length} columns, the header has ${columns.length} (${columns.map((column) => column.name).join(', ')})`,
      )
    }
  }
  const toWrite = (piece: InsertBatch) =>
    columns.map((column, index) => ({ name: column.name, type: column.type, values: piece.columns[index]! }))
  let rowsSent = 0
  /** Counts a block handed to the socket, and stops on an error the server raised meanwhile. */
  const sent = (rows: number) => {
    rowsSent += rows
    state.rowsSent = rowsSent
    // An error the server raised meanwhile (a bad value, a failing MATERIALIZED
    // expression) stops the insert now rather than after the whole stream.
    for (let packet = connection.poll(); packet; packet = connection.poll()) {
      if (absorb(packet)) throw new ProtocolError('the server ended the insert early')
    }
  }
  const batches = producer(columns)
  // Every block's last byte is held back until the next packet (sendData's `hold`), so an
  // insert that stops before its end marker leaves the server a block cut short: no server
  // generation stores any of it.
  if (!(Symbol.asyncIterator in batches)) {
    // Values in memory (the client's arrays and columns come as a plain iterable): every
    // block is encoded before the first is sent, so a value that cannot be encoded fails
    // the insert with nothing sent. The blocks are kept as bytes, not as values.
    const encoded: { rows: number; bytes: Uint8Array }[] = []
    let sizeHint = 64 * 1024
    for (const batch of batches) {
      check(batch)
      for (const piece of cut(batch, blockRows)) {
        const writer = new ByteWriter(sizeHint)
        blocks.write(writer, toWrite(piece), piece.rows)
        const bytes = writer.finish()
        sizeHint = Math.max(sizeHint, bytes.length + (bytes.length >> 3))
        encoded.push({ rows: piece.rows, bytes })
      }
    }
    for (let index = 0; index < encoded.length; index++) {
      stopIfFailed()
      const block = encoded[index]!
      encoded[index] = undefined as never
      await connection.sendEncodedData('', block.bytes, true)
      sent(block.rows)
    }
  } else {
    for await (const batch of batches) {
      stopIfFailed()
      check(batch)
      for (const piece of cut(batch, blockRows)) {
        await connection.sendData('', toWrite(piece), piece.rows, blocks, true)
        sent(piece.rows)
      }
    }
  }
  stopIfFailed()
  // All sent from the moment the end marker is handed to the socket, not once the write
  // resolves: the server may have it, and take the insert, while the write still waits.
  state.endSent = true
  await connection.sendData('', [], 0)
  for (;;) if (absorb(await connection.receive())) break
  // Servers that report an insert only in ProfileEvents (26.7 sends no Progress for it)
  // still get written counters in the outcome, the same as HTTP's summary shows.
  if (progress.writtenRows === 0 && inserted.rows > 0) {
    progress = { ...progress, writtenRows: inserted.rows, writtenBytes: inserted.bytes }
  }
  return {
    // From 54420 the server counts written rows in Progress (or, newer ones, in ProfileEvents
    // only); before, its EndOfStream after our end marker confirms every row sent.
    rowsWritten: connection.revision >= Revision.withClientWriteInfo ? progress.writtenRows : rowsSent,
    progress,
  }
}

/** A batch as pieces of at most `blockRows` rows (the batch itself when it is small enough). */
function* cut(batch: InsertBatch, blockRows: number): Generator<InsertBatch> {
  if (batch.rows === 0) return
  if (batch.rows <= blockRows) {
    yield batch
    return
  }
  for (let start = 0; start < batch.rows; start += blockRows) {
    const end = Math.min(start + blockRows, batch.rows)
    yield { rows: end - start, columns: batch.columns.map((values) => slice(values, start, end)) }
  }
}

function slice(input: ColumnInput | ColumnParts, start: number, end: number): ColumnInput {
  // A batch larger than a block (one that did not come through the client's coalescing).
  const values = wholeColumn(input)
  const sliceable = values as { subarray?: (a: number, b: number) => ColumnInput }
  if (typeof sliceable.subarray === 'function') return sliceable.subarray(start, end)
  if (Array.isArray(values)) return values.slice(start, end)
  return Array.from({ length: end - start }, (_, index) => values[start + index])
}
