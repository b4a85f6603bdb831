import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { PacketCodec, PacketInput } from './packet-codec.js'
import { ClientPacketId } from './packet-ids.js'

/**
 * The answer to a server's ReadTaskRequest (Connection::sendReadTaskResponse): the version
 * of the cluster-processing protocol, then the next task (for `s3Cluster`, a file name; empty
 * when there is none). Servers check the version against their own
 * DBMS_CLUSTER_PROCESSING_PROTOCOL_VERSION (1 when the packet was introduced).
 */
export interface ReadTaskResponsePacket {
  readonly type: 'ReadTaskResponse'
  readonly version: number
  readonly response: string
}

export const readTaskResponseCodec: PacketCodec<ReadTaskResponsePacket> = {
  id: ClientPacketId.ReadTaskResponse,
  type: 'ReadTaskResponse',
  encode(writer: ByteWriter, packet: PacketInput<ReadTaskResponsePacket>): void {
    writer.varUInt(ClientPacketId.ReadTaskResponse)
    writer.varUInt(packet.version)
    writer.string(packet.response)
  },
  decodeBody(reader: ByteReader): ReadTaskResponsePacket | undefined {
    const version = reader.varUInt()
    const response = reader.string()
    if (reader.short) return undefined
    return { type: 'ReadTaskResponse', version, response }
  },
}
