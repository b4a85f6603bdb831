import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { PacketCodec, PacketInput } from './packet-codec.js'
import { ServerPacketId } from './packet-ids.js'
import { Revision } from './protocol-revision.js'

/** Totals of a finished SELECT (ProfileInfo::write), sent before its last Progress and the empty Data block. */
export interface ProfileInfoPacket {
  readonly type: 'ProfileInfo'
  readonly rows: number
  readonly blocks: number
  /** Uncompressed bytes of the result blocks. */
  readonly bytes: number
  /** Whether a LIMIT cut the result. */
  readonly appliedLimit: boolean
  /** Rows the result would have had without the LIMIT, when `appliedLimit`. */
  readonly rowsBeforeLimit: number
  /** A flag servers used to send for `rowsBeforeLimit`; modern ones always send true and ignore it. */
  readonly calculatedRowsBeforeLimit: boolean
  /** Revision >= 54469. */
  readonly appliedAggregation: boolean
  /** Revision >= 54469. */
  readonly rowsBeforeAggregation: number
}

export const profileInfoCodec: PacketCodec<ProfileInfoPacket> = {
  id: ServerPacketId.ProfileInfo,
  type: 'ProfileInfo',
  encode(writer: ByteWriter, info: PacketInput<ProfileInfoPacket>, revision: number): void {
    writer.varUInt(ServerPacketId.ProfileInfo)
    writer.varUInt(info.rows)
    writer.varUInt(info.blocks)
    writer.varUInt(info.bytes)
    writer.u8(info.appliedLimit ? 1 : 0)
    writer.varUInt(info.rowsBeforeLimit)
    writer.u8(info.calculatedRowsBeforeLimit ? 1 : 0)
    if (revision >= Revision.withRowsBeforeAggregation) {
      writer.u8(info.appliedAggregation ? 1 : 0)
      writer.varUInt(info.rowsBeforeAggregation)
    }
  },
  decodeBody(reader: ByteReader, revision: number): ProfileInfoPacket | undefined {
    const rows = reader.varUInt()
    const blocks = reader.varUInt()
    const bytes = reader.varUInt()
    const appliedLimit = reader.u8() !== 0
    const rowsBeforeLimit = reader.varUInt()
    const calculatedRowsBeforeLimit = reader.u8() !== 0
    let appliedAggregation = false
    let rowsBeforeAggregation = 0
    if (revision >= Revision.withRowsBeforeAggregation) {
      appliedAggregation = reader.u8() !== 0
      rowsBeforeAggregation = reader.varUInt()
    }
    if (reader.short) return undefined
    return {
      type: 'ProfileInfo',
      rows,
      blocks,
      bytes,
      appliedLimit,
      rowsBeforeLimit,
      calculatedRowsBeforeLimit,
      appliedAggregation,
      rowsBeforeAggregation,
    }
  },
}
