import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { PacketCodec, PacketInput } from './packet-codec.js'
import { ServerPacketId } from './packet-ids.js'
import { Revision } from './protocol-revision.js'
import { requireRevision } from './simple-packets.js'

/**
 * The full column descriptions of an INSERT's table (revision >= 54410), sent before the
 * header block when `input_format_defaults_for_omitted_fields` is on, so a client can fill
 * in DEFAULT expressions itself. Two strings (Connection::receiveMultistringMessage): the
 * external table name (empty for the main table) and ColumnsDescription::toString, text such
 * as "columns format version: 1\n2 columns:\n`a` UInt8\n`s` String\tDEFAULT\t'x'\n".
 *
 * 18.16 (revision 54412) never sends it: it has no such setting.
 */
export interface TableColumnsPacket {
  readonly type: 'TableColumns'
  readonly table: string
  readonly columns: string
}

export const tableColumnsCodec: PacketCodec<TableColumnsPacket> = {
  id: ServerPacketId.TableColumns,
  type: 'TableColumns',
  encode(writer: ByteWriter, packet: PacketInput<TableColumnsPacket>, revision: number): void {
    requireRevision('TableColumns', Revision.withColumnDefaultsMetadata, revision)
    writer.varUInt(ServerPacketId.TableColumns)
    writer.string(packet.table)
    writer.string(packet.columns)
  },
  decodeBody(reader: ByteReader): TableColumnsPacket | undefined {
    const table = reader.string()
    const columns = reader.string()
    if (reader.short) return undefined
    return { type: 'TableColumns', table, columns }
  },
}
