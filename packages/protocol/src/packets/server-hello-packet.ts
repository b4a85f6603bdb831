import { ProtocolError } from '../errors/protocol-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { PacketCodec, PacketInput } from './packet-codec.js'
import { ServerPacketId } from './packet-ids.js'
import { Revision } from './protocol-revision.js'
import { type QuerySetting, readSettings, writeSettings } from './query-settings.js'

/** A password rule a server announces (revision >= 54461): a regular expression and the message shown when it fails. */
export interface PasswordComplexityRule {
  readonly pattern: string
  readonly message: string
}

/**
 * The server's answer to the client Hello (TCPHandler::sendHello). A server that refuses
 * the login (wrong password, unknown database) sends an Exception instead.
 */
export interface ServerHelloPacket {
  readonly type: 'Hello'
  /** `ClickHouse` for the official server. */
  readonly name: string
  readonly versionMajor: number
  readonly versionMinor: number
  /** The server's own protocol revision. The session uses `negotiatedRevision(clientRevision, revision)`. */
  readonly revision: number
  /** Revision >= 54058: the server's default time zone, e.g. `Etc/UTC`. */
  readonly timezone: string
  /** Revision >= 54372: the `display_name` from the server config (the host name by default). */
  readonly displayName: string
  /** Revision >= 54401: the third version number; older servers are reported with their revision here, as clickhouse-client does. */
  readonly versionPatch: number
  /** Revision >= 54461. */
  readonly passwordComplexityRules: readonly PasswordComplexityRule[]
  /** Revision >= 54462: a random number for inter-server authentication. */
  readonly nonce: bigint | undefined
  /**
   * Revision >= 54470: how the server sends and receives packets (`chunked`, `notchunked`,
   * or either with `_optional`: the client may choose). Empty below it.
   */
  readonly chunkedSend: string
  readonly chunkedReceive: string
  /** Revision >= 54471: DBMS_PARALLEL_REPLICAS_PROTOCOL_VERSION of the server (0 below it). */
  readonly parallelReplicasProtocolVersion: number
  /**
   * Revision >= 54474: the setting changes of the user's profile the server asks the client
   * to apply to its session (empty unless `apply_settings_from_server`, and for inter-server).
   */
  readonly settings: readonly QuerySetting[]
  /** Revision >= 54477: DBMS_QUERY_PLAN_SERIALIZATION_VERSION of the server (0 below it). */
  readonly queryPlanSerializationVersion: number
  /** Revision >= 54479: DBMS_CLUSTER_PROCESSING_PROTOCOL_VERSION of the server (0 below it). */
  readonly clusterFunctionProtocolVersion: number
}

/** Servers announce only a handful of password rules; more is taken as malformed input (as in DBMS_MAX_PASSWORD_COMPLEXITY_RULES). */
const maxPasswordRules = 256

/** The revision both sides speak after the Hello exchange: the smaller of the two announced ones. */
export function negotiatedRevision(clientRevision: number, serverRevision: number): number {
  return Math.min(clientRevision, serverRevision)
}

/**
 * `revision` is the revision the client announced. The server writes only the fields both
 * sides know, so each field is gated on the smaller of that and the server's revision
 * (which is read first).
 */
export const serverHelloCodec: PacketCodec<ServerHelloPacket> = {
  id: ServerPacketId.Hello,
  type: 'Hello',
  encode(writer: ByteWriter, hello: PacketInput<ServerHelloPacket>, revision: number): void {
    const effective = negotiatedRevision(revision, hello.revision)
    writer.varUInt(ServerPacketId.Hello)
    writer.string(hello.name)
    writer.varUInt(hello.versionMajor)
    writer.varUInt(hello.versionMinor)
    writer.varUInt(hello.revision)
    // The one field ahead of the time zone: TCPHandler::sendHello writes it right after the revision.
    if (effective >= Revision.withVersionedParallelReplicasProtocol) {
      writer.varUInt(hello.parallelReplicasProtocolVersion)
    }
    if (effective >= Revision.withServerTimezone) writer.string(hello.timezone)
    if (effective >= Revision.withServerDisplayName) writer.string(hello.displayName)
    if (effective >= Revision.withVersionPatch) writer.varUInt(hello.versionPatch)
    if (effective >= Revision.withChunkedPackets) {
      writer.string(hello.chunkedSend)
      writer.string(hello.chunkedReceive)
    }
    if (effective >= Revision.withPasswordComplexityRules) {
      writer.varUInt(hello.passwordComplexityRules.length)
      for (const rule of hello.passwordComplexityRules) {
        writer.string(rule.pattern)
        writer.string(rule.message)
      }
    }
    if (effective >= Revision.withInterserverSecretV2) writer.u64(hello.nonce ?? 0n)
    if (effective >= Revision.withServerSettings) writeSettings(writer, hello.settings, effective)
    if (effective >= Revision.withQueryPlanSerialization) writer.varUInt(hello.queryPlanSerializationVersion)
    if (effective >= Revision.withVersionedClusterFunctionProtocol) {
      writer.varUInt(hello.clusterFunctionProtocolVersion)
    }
  },
  decodeBody(reader: ByteReader, revision: number): ServerHelloPacket | undefined {
    const name = reader.string()
    const versionMajor = reader.varUInt()
    const versionMinor = reader.varUInt()
    const serverRevision = reader.varUInt()
    if (reader.short) return undefined
    const effective = negotiatedRevision(revision, serverRevision)
    const parallelReplicasProtocolVersion =
      effective >= Revision.withVersionedParallelReplicasProtocol ? reader.varUInt() : 0
    const timezone = effective >= Revision.withServerTimezone ? reader.string() : ''
    const displayName = effective >= Revision.withServerDisplayName ? reader.string() : ''
    const versionPatch = effective >= Revision.withVersionPatch ? reader.varUInt() : serverRevision
    const chunkedSend = effective >= Revision.withChunkedPackets ? reader.string() : ''
    const chunkedReceive = effective >= Revision.withChunkedPackets ? reader.string() : ''
    const passwordComplexityRules: PasswordComplexityRule[] = []
    if (effective >= Revision.withPasswordComplexityRules) {
      const count = reader.varUInt()
      if (reader.short) return undefined
      if (count > maxPasswordRules) {
        throw new ProtocolError(`${count} password complexity rules`, { path: 'server Hello' })
      }
      for (let i = 0; i < count && !reader.short; i++) {
        const pattern = reader.string()
        const message = reader.string()
        passwordComplexityRules.push({ pattern, message })
      }
    }
    const nonce = effective >= Revision.withInterserverSecretV2 ? reader.u64() : undefined
    if (reader.short) return undefined
    let settings: QuerySetting[] = []
    if (effective >= Revision.withServerSettings) {
      const read = readSettings(reader, effective)
      if (read === undefined) return undefined
      settings = read
    }
    const queryPlanSerializationVersion =
      effective >= Revision.withQueryPlanSerialization ? reader.varUInt() : 0
    const clusterFunctionProtocolVersion =
      effective >= Revision.withVersionedClusterFunctionProtocol ? reader.varUInt() : 0
    if (reader.short) return undefined
    return {
      type: 'Hello',
      name,
      versionMajor,
      versionMinor,
      revision: serverRevision,
      timezone,
      displayName,
      versionPatch,
      passwordComplexityRules,
      nonce,
      chunkedSend,
      chunkedReceive,
      parallelReplicasProtocolVersion,
      settings,
      queryPlanSerializationVersion,
      clusterFunctionProtocolVersion,
    }
  },
}
