import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { type ClientHelloPacket, clientHelloCodec } from './client-hello-packet.js'
import type { PacketCodec } from './packet-codec.js'
import { clientPacketLabel } from './packet-ids.js'
import { type IgnoredPartUUIDsPacket, ignoredPartUuidsCodec } from './part-uuids-packets.js'
import { type QueryPacket, type QueryPacketInput, queryCodec } from './query-packet.js'
import { type ReadTaskResponsePacket, readTaskResponseCodec } from './read-task-packets.js'
import {
  cancelCodec,
  clientDataCodec,
  pingCodec,
  scalarCodec,
  sshChallengeRequestCodec,
  sshChallengeResponseCodec,
} from './simple-packets.js'
import { type TablesStatusRequestPacket, tablesStatusRequestCodec } from './tables-status-packets.js'

/**
 * Every packet a client can send, as `decodeClientPacket` returns it. Data and Scalar are
 * headers only: the Native block (compressed when the query enabled compression) follows.
 * Not here: KeepAlive (no server handles it), MergeTreeReadTaskResponse and the later
 * inter-server packets (a parallel-replicas coordinator sends those, not a client).
 */
export type ClientPacket =
  | ClientHelloPacket
  | QueryPacket
  | { readonly type: 'Data'; readonly table: string }
  | { readonly type: 'Cancel' }
  | { readonly type: 'Ping' }
  | TablesStatusRequestPacket
  | { readonly type: 'Scalar'; readonly name: string }
  | IgnoredPartUUIDsPacket
  | ReadTaskResponsePacket
  | { readonly type: 'SSHChallengeRequest' }
  | { readonly type: 'SSHChallengeResponse'; readonly signature: string }

/** What `encodeClientPacket` takes: a packet, with a Query's optional fields optional. */
export type ClientPacketInput =
  | Exclude<ClientPacket, QueryPacket>
  | (QueryPacketInput & { readonly type: 'Query' })

export type ClientPacketType = ClientPacket['type']

// biome-ignore lint/suspicious/noExplicitAny: one table holds codecs of every packet type
type AnyCodec = PacketCodec<any, any>

const codecList: readonly AnyCodec[] = [
  clientHelloCodec,
  queryCodec,
  clientDataCodec,
  cancelCodec,
  pingCodec,
  tablesStatusRequestCodec,
  scalarCodec,
  ignoredPartUuidsCodec,
  readTaskResponseCodec,
  sshChallengeRequestCodec,
  sshChallengeResponseCodec,
]

const codecsById: readonly (AnyCodec | undefined)[] = (() => {
  const table: (AnyCodec | undefined)[] = []
  for (const codec of codecList) table[codec.id] = codec
  return table
})()

const codecsByType = new Map<string, AnyCodec>(codecList.map((codec) => [codec.type, codec]))

/**
 * Writes a client packet: its id and body, laid out for the negotiated `revision` (the Hello
 * ignores it). For Data and Scalar only the header; the transport writes the block after it.
 *
 * @example
 * ```ts
 * encodeClientPacket(writer, { type: 'Query', queryId: '', clientInfo, compression: false, query: 'SELECT 1' }, revision)
 * encodeClientPacket(writer, { type: 'Data', table: '' }, revision) // then the empty block
 * ```
 */
export function encodeClientPacket(writer: ByteWriter, packet: ClientPacketInput, revision: number): void {
  const codec = codecsByType.get(packet.type)
  if (codec === undefined) throw new UsageError(`clickwire cannot send a ${packet.type} packet`)
  codec.encode(writer, packet, revision)
}

/**
 * Reads one client packet (what a server sees); undefined when short. For tests and fake
 * servers. An unknown id, or one clickwire has no decoder for, is a {@link ProtocolError}.
 */
export function decodeClientPacket(reader: ByteReader, revision: number): ClientPacket | undefined {
  const id = reader.varUInt()
  if (reader.short) return undefined
  const codec = codecsById[id]
  if (codec === undefined)
    throw new ProtocolError(`unknown or unsupported client packet ${clientPacketLabel(id)}`)
  return codec.decodeBody(reader, revision) as ClientPacket | undefined
}
