import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { PacketCodec, PacketInput } from './packet-codec.js'
import { ClientPacketId } from './packet-ids.js'
import { clientParallelReplicasProtocolVersion, Revision } from './protocol-revision.js'

/**
 * The first packet of a connection (Connection::sendHello). Nothing is negotiated yet, so
 * its layout never depends on a revision: the client announces its own revision here and
 * both sides then use the smaller of the two.
 */
export interface ClientHelloPacket {
  readonly type: 'Hello'
  /** Shown in the server's logs and `system.processes`; clickhouse-client sends `ClickHouse client`. */
  readonly clientName: string
  readonly versionMajor: number
  readonly versionMinor: number
  /** The protocol revision the client speaks (`clientRevision`). */
  readonly revision: number
  /** The default database; empty for the user's default. */
  readonly database: string
  readonly user: string
  readonly password: string
}

// ASCII control characters in these fields are refused by clickhouse-client (they could
// smuggle line breaks into requests the server makes on the user's behalf); a server may
// answer them with a confusing error, so they are refused before anything is sent.
const controlCharacter = /[\u0000-\u001f\u007f]/

export const clientHelloCodec: PacketCodec<ClientHelloPacket> = {
  id: ClientPacketId.Hello,
  type: 'Hello',
  encode(writer: ByteWriter, hello: PacketInput<ClientHelloPacket>): void {
    for (const field of ['database', 'user', 'password'] as const) {
      if (controlCharacter.test(hello[field])) {
        throw new UsageError(`the ${field} must not contain ASCII control characters`)
      }
    }
    writer.varUInt(ClientPacketId.Hello)
    writer.string(hello.clientName)
    writer.varUInt(hello.versionMajor)
    writer.varUInt(hello.versionMinor)
    writer.varUInt(hello.revision)
    writer.string(hello.database)
    writer.string(hello.user)
    writer.string(hello.password)
  },
  decodeBody(reader: ByteReader): ClientHelloPacket | undefined {
    const clientName = reader.string()
    const versionMajor = reader.varUInt()
    const versionMinor = reader.varUInt()
    const revision = reader.varUInt()
    const database = reader.string()
    const user = reader.string()
    const password = reader.string()
    if (reader.short) return undefined
    return { type: 'Hello', clientName, versionMajor, versionMinor, revision, database, user, password }
  },
}

/**
 * What the client sends right after reading the server's Hello (Connection::sendAddendum,
 * read by TCPHandler::receiveAddendum), without a packet id: the quota key (revision >=
 * 54458), the chunked-framing choices for the client's sending and receiving side (54470),
 * the parallel-replicas protocol version (54471).
 */
export interface Addendum {
  readonly quotaKey: string
  /**
   * `chunked` or `notchunked` for what the client sends (and, {@link chunkedReceive}, for
   * what it receives). clickwire always declines: `notchunked`, as clickhouse-client does
   * with `proto_caps` off. Defaults to `notchunked`.
   */
  readonly chunkedSend?: string
  readonly chunkedReceive?: string
  /** Defaults to {@link clientParallelReplicasProtocolVersion}. */
  readonly parallelReplicasProtocolVersion?: number
}

/** Writes the addendum; writes nothing below revision 54458. */
export function encodeAddendum(writer: ByteWriter, addendum: Addendum, revision: number): void {
  if (revision >= Revision.withQuotaKey) writer.string(addendum.quotaKey)
  if (revision >= Revision.withChunkedPackets) {
    writer.string(addendum.chunkedSend ?? notChunked)
    writer.string(addendum.chunkedReceive ?? notChunked)
  }
  if (revision >= Revision.withVersionedParallelReplicasProtocol) {
    writer.varUInt(addendum.parallelReplicasProtocolVersion ?? clientParallelReplicasProtocolVersion)
  }
}

/** Reads the addendum (a server's view); undefined when short. */
export function decodeAddendum(reader: ByteReader, revision: number): Required<Addendum> | undefined {
  const quotaKey = revision >= Revision.withQuotaKey ? reader.string() : ''
  const chunkedSend = revision >= Revision.withChunkedPackets ? reader.string() : notChunked
  const chunkedReceive = revision >= Revision.withChunkedPackets ? reader.string() : notChunked
  const parallelReplicasProtocolVersion =
    revision >= Revision.withVersionedParallelReplicasProtocol ? reader.varUInt() : 0
  if (reader.short) return undefined
  return { quotaKey, chunkedSend, chunkedReceive, parallelReplicasProtocolVersion }
}

const notChunked = 'notchunked'

/**
 * Checks that the server lets a client without chunked framing in: a server whose
 * `proto_caps` say plain `chunked` for either direction refuses `notchunked` (only the
 * `_optional` forms and `notchunked` leave the choice to the client). Throws a
 * {@link ProtocolError} naming the setting; returns nothing otherwise.
 */
export function checkChunkedFraming(hello: { chunkedSend: string; chunkedReceive: string }): void {
  for (const [direction, mode] of [
    ['send', hello.chunkedSend],
    ['recv', hello.chunkedReceive],
  ] as const) {
    if (mode === 'chunked') {
      throw new ProtocolError(
        `the server requires chunked packets (proto_caps.${direction} = chunked); clickwire speaks only notchunked`,
        { path: 'server Hello' },
      )
    }
  }
}
