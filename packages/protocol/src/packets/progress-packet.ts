import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { PacketCodec, PacketInput } from './packet-codec.js'
import { ServerPacketId } from './packet-ids.js'
import { Revision } from './protocol-revision.js'

/**
 * Query progress since the previous Progress packet (ProgressValues::write): increments, not
 * totals, so a client adds them up. All VarUInt.
 */
export interface ProgressPacket {
  readonly type: 'Progress'
  readonly rows: number
  readonly bytes: number
  /** An estimate of the rows to read, when the server knows it (0 otherwise). */
  readonly totalRows: number
  /** Revision >= 54463: an estimate of the bytes to read. */
  readonly totalBytes: number
  /** Revision >= 54420. */
  readonly writtenRows: number
  /** Revision >= 54420. */
  readonly writtenBytes: number
  /** Revision >= 54460: server time spent since the previous Progress, in nanoseconds. */
  readonly elapsedNs: number
}

export const progressCodec: PacketCodec<ProgressPacket> = {
  id: ServerPacketId.Progress,
  type: 'Progress',
  encode(writer: ByteWriter, progress: PacketInput<ProgressPacket>, revision: number): void {
    writer.varUInt(ServerPacketId.Progress)
    writer.varUInt(progress.rows)
    writer.varUInt(progress.bytes)
    writer.varUInt(progress.totalRows)
    // total bytes sits between total rows and the written counters.
    if (revision >= Revision.withTotalBytesInProgress) writer.varUInt(progress.totalBytes)
    if (revision >= Revision.withClientWriteInfo) {
      writer.varUInt(progress.writtenRows)
      writer.varUInt(progress.writtenBytes)
    }
    if (revision >= Revision.withServerQueryTimeInProgress) writer.varUInt(progress.elapsedNs)
  },
  decodeBody(reader: ByteReader, revision: number): ProgressPacket | undefined {
    const rows = reader.varUInt()
    const bytes = reader.varUInt()
    const totalRows = reader.varUInt()
    const totalBytes = revision >= Revision.withTotalBytesInProgress ? reader.varUInt() : 0
    let writtenRows = 0
    let writtenBytes = 0
    if (revision >= Revision.withClientWriteInfo) {
      writtenRows = reader.varUInt()
      writtenBytes = reader.varUInt()
    }
    const elapsedNs = revision >= Revision.withServerQueryTimeInProgress ? reader.varUInt() : 0
    if (reader.short) return undefined
    return { type: 'Progress', rows, bytes, totalRows, totalBytes, writtenRows, writtenBytes, elapsedNs }
  },
}
