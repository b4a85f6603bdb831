import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { PacketCodec, PacketInput } from './packet-codec.js'
import { ClientPacketId, ServerPacketId } from './packet-ids.js'
import { Revision } from './protocol-revision.js'

/*
 * Packets whose body is nothing or a single string. The block-carrying ones (Data, Totals,
 * Extremes, Log, ProfileEvents, Scalar) are here too: their packet header is one string
 * (the external table name, or the log tag, or the scalar name) and the Native block that
 * follows is not part of the packet codec. The transport reads or writes it next, through
 * the compressed-frame layer when compression is on (see `serverBlockCompression`).
 */

/** Refuses to write a packet the negotiated revision does not have yet. */
export function requireRevision(type: string, since: number, revision: number): void {
  if (revision < since) {
    throw new UsageError(`a ${type} packet needs revision ${since}; this connection speaks ${revision}`)
  }
}

/** A packet that is only its id (revision >= `since`). */
function emptyPacket<Type extends string>(
  id: number,
  type: Type,
  since = 0,
): PacketCodec<{ readonly type: Type }> {
  const packet = Object.freeze({ type })
  return {
    id,
    type,
    encode(writer: ByteWriter, _packet: unknown, revision: number): void {
      requireRevision(type, since, revision)
      writer.varUInt(id)
    },
    decodeBody(): { readonly type: Type } {
      return packet
    },
  }
}

/** A packet whose body is one string, named `field` in the decoded object (revision >= `since`). */
function stringPacket<Type extends string, Field extends string>(
  id: number,
  type: Type,
  field: Field,
  since = 0,
): PacketCodec<{ readonly type: Type } & { readonly [K in Field]: string }> {
  type Packet = { readonly type: Type } & { readonly [K in Field]: string }
  return {
    id,
    type,
    encode(writer: ByteWriter, packet: PacketInput<Packet>, revision: number): void {
      requireRevision(type, since, revision)
      writer.varUInt(id)
      writer.string((packet as unknown as Readonly<Record<Field, string>>)[field])
    },
    decodeBody(reader: ByteReader): Packet | undefined {
      const value = reader.string()
      if (reader.short) return undefined
      return { type, [field]: value } as Packet
    },
  }
}

/** Client: cancel the running query. The server still ends the query with EndOfStream or Exception. */
export const cancelCodec = emptyPacket(ClientPacketId.Cancel, 'Cancel')
/** Client: is the connection alive? The server answers Pong (after any Progress it still had queued). */
export const pingCodec = emptyPacket(ClientPacketId.Ping, 'Ping')
/** Client (revision >= 54466): start SSH key authentication; the server answers SSHChallenge. */
export const sshChallengeRequestCodec = emptyPacket(
  ClientPacketId.SSHChallengeRequest,
  'SSHChallengeRequest',
  Revision.withSshAuthentication,
)
/** Client (revision >= 54466): the signature over the challenge. */
export const sshChallengeResponseCodec = stringPacket(
  ClientPacketId.SSHChallengeResponse,
  'SSHChallengeResponse',
  'signature',
  Revision.withSshAuthentication,
)
/**
 * Client: the header of a Data packet; a Native block follows (compressed when the query
 * asked for compression). Empty `table` is the main table (INSERT data, or the end marker);
 * otherwise the name of an external table sent along with a query.
 */
export const clientDataCodec = stringPacket(ClientPacketId.Data, 'Data', 'table')
/** Client (revision >= 54429): the header of a Scalar packet; a Native block follows. */
export const scalarCodec = stringPacket(ClientPacketId.Scalar, 'Scalar', 'name', Revision.withScalars)

/** Server: the answer to Ping. */
export const pongCodec = emptyPacket(ServerPacketId.Pong, 'Pong')
/** Server: the query is over, nothing more follows for it. */
export const endOfStreamCodec = emptyPacket(ServerPacketId.EndOfStream, 'EndOfStream')
/** Server: asks the client (an initiator of `s3Cluster`-like queries) for the next task. */
export const readTaskRequestCodec = emptyPacket(ServerPacketId.ReadTaskRequest, 'ReadTaskRequest')
/** Server (revision >= 54464): the session time zone changed. */
export const timezoneUpdateCodec = stringPacket(
  ServerPacketId.TimezoneUpdate,
  'TimezoneUpdate',
  'timezone',
  Revision.withTimezoneUpdates,
)
/** Server (revision >= 54466): the challenge to sign for SSH key authentication. */
export const sshChallengeCodec = stringPacket(
  ServerPacketId.SSHChallenge,
  'SSHChallenge',
  'challenge',
  Revision.withSshAuthentication,
)

/** Server: the header of a result block; the Native block follows (compressed when compression is on). */
export const serverDataCodec = stringPacket(ServerPacketId.Data, 'Data', 'table')
/** Server: the header of the `WITH TOTALS` block; the block follows (compressed when compression is on). */
export const totalsCodec = stringPacket(ServerPacketId.Totals, 'Totals', 'table')
/** Server: the header of the `extremes = 1` block; the block follows (compressed when compression is on). */
export const extremesCodec = stringPacket(ServerPacketId.Extremes, 'Extremes', 'table')
/** Server (revision >= 54406): the header of a block of server log rows; the block follows, never compressed. */
export const logCodec = stringPacket(ServerPacketId.Log, 'Log', 'table', Revision.withServerLogs)
/** Server (revision >= 54451): the header of a block of profile events; the block follows, never compressed. */
export const profileEventsCodec = stringPacket(
  ServerPacketId.ProfileEvents,
  'ProfileEvents',
  'table',
  Revision.withIncrementalProfileEvents,
)

/**
 * Which server packets carry a Native block after their header, and whether that block goes
 * through the compressed-frame layer when the query enabled compression below revision
 * 54481. There Log and ProfileEvents blocks are always written raw (TCPHandler writes them
 * straight to the socket buffer); from 54481 they are compressed like Data, see
 * {@link serverBodyCompressed}.
 */
export const serverBlockCompression = Object.freeze({
  Data: true,
  Totals: true,
  Extremes: true,
  Log: false,
  ProfileEvents: false,
} as const)

export type ServerBlockPacketType = keyof typeof serverBlockCompression

/**
 * Whether the body of a server packet travels in compressed frames on a connection of
 * `revision` whose query enabled compression: Data, Totals and Extremes blocks always; Log
 * and ProfileEvents blocks and the two strings of TableColumns from revision 54481
 * (DBMS_MIN_REVISION_WITH_COMPRESSED_LOGS_PROFILE_EVENTS_COLUMNS). The packet id and the
 * header string of a block packet always travel raw.
 */
export function serverBodyCompressed(
  type: ServerBlockPacketType | 'TableColumns',
  revision: number,
): boolean {
  if (type === 'TableColumns') return revision >= Revision.withCompressedLogsProfileEventsColumns
  return serverBlockCompression[type] || revision >= Revision.withCompressedLogsProfileEventsColumns
}
