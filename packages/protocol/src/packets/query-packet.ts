import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { type ClientInfo, readClientInfo, writeClientInfo } from './client-info.js'
import type { PacketCodec } from './packet-codec.js'
import { ClientPacketId, QueryStage } from './packet-ids.js'
import { Revision } from './protocol-revision.js'
import {
  type QueryParameter,
  type QuerySetting,
  readParameters,
  readSettings,
  writeParameters,
  writeSettings,
} from './query-settings.js'

/**
 * A query (Connection::sendQuery): id, ClientInfo (revision >= 54032), settings, the
 * externally granted roles (revision >= 54472; empty for a client), the inter-server secret hash (revision >= 54441; empty for a client), the processing stage,
 * whether blocks are compressed, the SQL, and query parameters (revision >= 54459).
 *
 * After it the client always sends the external tables' Data packets, if any, and then one
 * Data packet with an empty block, even for an INSERT: the server reads that as the end of
 * external tables. Only then does an INSERT's data follow.
 */
export interface QueryPacket {
  readonly type: 'Query'
  /** Empty lets the server make one up. */
  readonly queryId: string
  readonly clientInfo: ClientInfo
  readonly settings: readonly QuerySetting[]
  /**
   * Revision >= 54472: roles an external authenticator granted the initiating user, as an
   * inter-server initiator forwards them (a serialized string vector); empty for a client.
   */
  readonly externalRoles: string
  /** The hash a server forwarding a secondary query sends; always empty for a client. */
  readonly interserverSecret: string
  /** One of {@link QueryStage}; a client asks for `Complete`. */
  readonly stage: number
  /** Whether Data blocks in both directions travel as compressed frames. */
  readonly compression: boolean
  readonly query: string
  /** Revision >= 54459; must be empty below it (substitute the values into the SQL instead). */
  readonly parameters: readonly QueryParameter[]
}

/** The fields of a Query an encoder needs; the rest default to no settings, no parameters, stage Complete. */
export interface QueryPacketInput {
  readonly type?: 'Query'
  readonly queryId: string
  readonly clientInfo: ClientInfo
  readonly settings?: readonly QuerySetting[]
  readonly externalRoles?: string
  readonly interserverSecret?: string
  readonly stage?: number
  readonly compression: boolean
  readonly query: string
  readonly parameters?: readonly QueryParameter[]
}

export const queryCodec: PacketCodec<QueryPacket, QueryPacketInput> = {
  id: ClientPacketId.Query,
  type: 'Query',
  encode(writer: ByteWriter, query: QueryPacketInput, revision: number): void {
    if (revision < Revision.withClientInfo) {
      throw new UsageError(
        `clickwire speaks revisions from ${Revision.withClientInfo}; this server speaks ${revision}`,
      )
    }
    writer.varUInt(ClientPacketId.Query)
    writer.string(query.queryId)
    writeClientInfo(writer, query.clientInfo, revision)
    writeSettings(writer, query.settings ?? [], revision)
    const roles = query.externalRoles ?? ''
    if (revision >= Revision.withInterserverExternallyGrantedRoles) writer.string(roles)
    else if (roles !== '') throw new UsageError('externally granted roles need revision 54472')
    const secret = query.interserverSecret ?? ''
    if (revision >= Revision.withInterserverSecret) writer.string(secret)
    else if (secret !== '') throw new UsageError('the inter-server secret needs revision 54441')
    writer.varUInt(query.stage ?? QueryStage.Complete)
    writer.varUInt(query.compression ? 1 : 0)
    writer.string(query.query)
    writeParameters(writer, query.parameters ?? [], revision)
  },
  decodeBody(reader: ByteReader, revision: number): QueryPacket | undefined {
    if (revision < Revision.withClientInfo) {
      throw new ProtocolError(
        `a QueryPacket of revision ${revision} has no ClientInfo; clickwire reads ${Revision.withClientInfo} and later`,
      )
    }
    const queryId = reader.string()
    if (reader.short) return undefined
    const clientInfo = readClientInfo(reader, revision)
    if (clientInfo === undefined) return undefined
    const settings = readSettings(reader, revision)
    if (settings === undefined) return undefined
    const externalRoles = revision >= Revision.withInterserverExternallyGrantedRoles ? reader.string() : ''
    const interserverSecret = revision >= Revision.withInterserverSecret ? reader.string() : ''
    const stage = reader.varUInt()
    const compression = reader.varUInt()
    const query = reader.string()
    if (reader.short) return undefined
    if (compression > 1) throw new ProtocolError(`compression flag ${compression}`, { path: 'Query' })
    const parameters = readParameters(reader, revision)
    if (parameters === undefined) return undefined
    return {
      type: 'Query',
      queryId,
      clientInfo,
      settings,
      externalRoles,
      interserverSecret,
      stage,
      compression: compression === 1,
      query,
      parameters,
    }
  },
}
