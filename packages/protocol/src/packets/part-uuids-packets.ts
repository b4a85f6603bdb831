import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { maxPacketListLength, type PacketCodec, type PacketInput } from './packet-codec.js'
import { ClientPacketId, ServerPacketId } from './packet-ids.js'

/*
 * Part UUID lists, once used for query deduplication (`allow_experimental_query_deduplication`):
 * the server reports the parts it read (PartUUIDs), an initiator tells a replica which to skip
 * (IgnoredPartUUIDs, sent before the Query). Both are writeVectorBinary of UUIDs: a VarUInt
 * count, then each UUID as two UInt64 (the high half first), each little-endian.
 */

export interface PartUUIDsPacket {
  readonly type: 'PartUUIDs'
  /** Lowercase `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`. */
  readonly uuids: readonly string[]
}

export interface IgnoredPartUUIDsPacket {
  readonly type: 'IgnoredPartUUIDs'
  readonly uuids: readonly string[]
}

const uuidText = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

function writeUuids(writer: ByteWriter, uuids: readonly string[]): void {
  writer.varUInt(uuids.length)
  for (const uuid of uuids) {
    if (!uuidText.test(uuid)) throw new UsageError(`${JSON.stringify(uuid)} is not a UUID`)
    const digits = uuid.replace(/-/g, '')
    writer.u64(BigInt(`0x${digits.slice(0, 16)}`))
    writer.u64(BigInt(`0x${digits.slice(16)}`))
  }
}

function hexHalf(value: bigint): string {
  return value.toString(16).padStart(16, '0')
}

function readUuids(reader: ByteReader, path: string): string[] | undefined {
  const count = reader.varUInt()
  if (reader.short) return undefined
  if (count > maxPacketListLength) throw new ProtocolError(`${count} UUIDs`, { path })
  if (!reader.has(count * 16)) return undefined
  const uuids: string[] = new Array(count)
  for (let i = 0; i < count; i++) {
    const digits = hexHalf(reader.u64()) + hexHalf(reader.u64())
    uuids[i] =
      `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`
  }
  return uuids
}

export const partUuidsCodec: PacketCodec<PartUUIDsPacket> = {
  id: ServerPacketId.PartUUIDs,
  type: 'PartUUIDs',
  encode(writer: ByteWriter, packet: PacketInput<PartUUIDsPacket>): void {
    writer.varUInt(ServerPacketId.PartUUIDs)
    writeUuids(writer, packet.uuids)
  },
  decodeBody(reader: ByteReader): PartUUIDsPacket | undefined {
    const uuids = readUuids(reader, 'PartUUIDs')
    return uuids && { type: 'PartUUIDs', uuids }
  },
}

export const ignoredPartUuidsCodec: PacketCodec<IgnoredPartUUIDsPacket> = {
  id: ClientPacketId.IgnoredPartUUIDs,
  type: 'IgnoredPartUUIDs',
  encode(writer: ByteWriter, packet: PacketInput<IgnoredPartUUIDsPacket>): void {
    writer.varUInt(ClientPacketId.IgnoredPartUUIDs)
    writeUuids(writer, packet.uuids)
  },
  decodeBody(reader: ByteReader): IgnoredPartUUIDsPacket | undefined {
    const uuids = readUuids(reader, 'IgnoredPartUUIDs')
    return uuids && { type: 'IgnoredPartUUIDs', uuids }
  },
}
