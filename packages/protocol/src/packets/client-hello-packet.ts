import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { PacketCodec, PacketInput } from './packet-codec.js'
import { ClientPacketId } from './packet-ids.js'
import { Revision } from './protocol-revision.js'

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
 * What the client sends right after reading the server's Hello (Connection::sendAddendum),
 * without a packet id, when the negotiated revision is at least 54458: the quota key. (From
 * 54470 the chunked-framing choices follow, from 54471 the parallel-replicas protocol
 * version; both lie above `clientRevision`, so they are never negotiated with clickwire.)
 */
export interface Addendum {
  readonly quotaKey: string
}

/** Writes the addendum; writes nothing below revision 54458. */
export function encodeAddendum(writer: ByteWriter, addendum: Addendum, revision: number): void {
  if (revision >= Revision.withQuotaKey) writer.string(addendum.quotaKey)
}

/** Reads the addendum (a server's view); undefined when short. */
export function decodeAddendum(reader: ByteReader, revision: number): Addendum | undefined {
  const quotaKey = revision >= Revision.withQuotaKey ? reader.string() : ''
  if (reader.short) return undefined
  return { quotaKey }
}
