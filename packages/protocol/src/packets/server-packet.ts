import { ProtocolError } from '../errors/protocol-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { type ExceptionPacket, exceptionCodec } from './exception-packet.js'
import type { PacketCodec } from './packet-codec.js'
import { ServerPacketId, serverPacketLabel } from './packet-ids.js'
import { type PartUUIDsPacket, partUuidsCodec } from './part-uuids-packets.js'
import { type ProfileInfoPacket, profileInfoCodec } from './profile-info-packet.js'
import { type ProgressPacket, progressCodec } from './progress-packet.js'
import { type ServerHelloPacket, serverHelloCodec } from './server-hello-packet.js'
import {
  endOfStreamCodec,
  extremesCodec,
  logCodec,
  pongCodec,
  profileEventsCodec,
  readTaskRequestCodec,
  serverDataCodec,
  sshChallengeCodec,
  timezoneUpdateCodec,
  totalsCodec,
} from './simple-packets.js'
import { type TableColumnsPacket, tableColumnsCodec } from './table-columns-packet.js'
import { type TablesStatusResponsePacket, tablesStatusResponseCodec } from './tables-status-packets.js'

/** The header of a packet a Native block follows; `table` is the external table name (the log tag for Log), empty for the main result. */
export interface ServerBlockHeader<Type extends 'Data' | 'Totals' | 'Extremes' | 'Log' | 'ProfileEvents'> {
  readonly type: Type
  readonly table: string
}

/**
 * Every packet a server sends, as `decodeServerPacket` returns it. For the block-carrying
 * ones (Data, Totals, Extremes, Log, ProfileEvents) only the header is decoded: the caller
 * reads the block next (see `serverBlockCompression` for which go through decompression).
 */
export type ServerPacket =
  | ServerHelloPacket
  | ServerBlockHeader<'Data'>
  | ExceptionPacket
  | ProgressPacket
  | { readonly type: 'Pong' }
  | { readonly type: 'EndOfStream' }
  | ProfileInfoPacket
  | ServerBlockHeader<'Totals'>
  | ServerBlockHeader<'Extremes'>
  | TablesStatusResponsePacket
  | ServerBlockHeader<'Log'>
  | TableColumnsPacket
  | PartUUIDsPacket
  | { readonly type: 'ReadTaskRequest' }
  | ServerBlockHeader<'ProfileEvents'>
  | { readonly type: 'TimezoneUpdate'; readonly timezone: string }
  | { readonly type: 'SSHChallenge'; readonly challenge: string }

export type ServerPacketType = ServerPacket['type']

// biome-ignore lint/suspicious/noExplicitAny: one table holds codecs of every packet type
type AnyCodec = PacketCodec<any, any>

const codecs: readonly (AnyCodec | undefined)[] = (() => {
  const table: (AnyCodec | undefined)[] = []
  for (const codec of [
    serverHelloCodec,
    serverDataCodec,
    exceptionCodec,
    progressCodec,
    pongCodec,
    endOfStreamCodec,
    profileInfoCodec,
    totalsCodec,
    extremesCodec,
    tablesStatusResponseCodec,
    logCodec,
    tableColumnsCodec,
    partUuidsCodec,
    readTaskRequestCodec,
    profileEventsCodec,
    timezoneUpdateCodec,
    sshChallengeCodec,
  ] as AnyCodec[]) {
    table[codec.id] = codec
  }
  return table
})()

const codecsByType = new Map<string, AnyCodec>(
  codecs.filter((codec) => codec !== undefined).map((codec) => [codec.type, codec]),
)

/** Packets Protocol.h defines whose bodies clickwire does not read (parallel-replica coordination, previews). */
const unsupported = new Set<number>([
  ServerPacketId.MergeTreeAllRangesAnnouncement,
  ServerPacketId.MergeTreeReadTaskRequest,
  ServerPacketId.PreviewData,
])

/**
 * Reads one server packet: its id, then its body as the negotiated `revision` lays it out.
 * Returns undefined when the input ran short (`reader.missing` says how far it must reach;
 * retry from the same start). An unknown packet id is a {@link ProtocolError}: the stream
 * cannot be followed past it, so the connection must be closed.
 *
 * For the server Hello, pass the revision the client announced: the gates use the smaller
 * of it and the revision the server announces in that packet.
 */
export function decodeServerPacket(reader: ByteReader, revision: number): ServerPacket | undefined {
  const id = reader.varUInt()
  if (reader.short) return undefined
  const codec = codecs[id]
  if (codec === undefined) {
    if (unsupported.has(id)) {
      throw new ProtocolError(`server packet ${serverPacketLabel(id)} is not supported`)
    }
    throw new ProtocolError(`unknown server packet ${id}`)
  }
  return codec.decodeBody(reader, revision) as ServerPacket | undefined
}

/**
 * Writes a server packet (id and body; for block-carrying packets only the header). For
 * tests and fake servers: clients never send these.
 */
export function encodeServerPacket(writer: ByteWriter, packet: ServerPacket, revision: number): void {
  const codec = codecsByType.get(packet.type)
  if (codec === undefined) throw new ProtocolError(`no encoder for server packet ${packet.type}`)
  codec.encode(writer, packet, revision)
}
