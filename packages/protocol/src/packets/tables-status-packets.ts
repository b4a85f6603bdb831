import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { maxPacketListLength, type PacketCodec, type PacketInput } from './packet-codec.js'
import { ClientPacketId, ServerPacketId } from './packet-ids.js'
import { Revision } from './protocol-revision.js'

/*
 * Replica health checks (src/Interpreters/TablesStatus.cpp), revision >= 54226: the client
 * names tables, the server answers for those it has, with the replication delay of
 * replicated ones. Distributed queries use it to skip stale replicas.
 */

export interface QualifiedTableName {
  readonly database: string
  readonly table: string
}

export interface TablesStatusRequestPacket {
  readonly type: 'TablesStatusRequest'
  readonly tables: readonly QualifiedTableName[]
}

export interface TableStatus extends QualifiedTableName {
  readonly isReplicated: boolean
  /** Seconds the replica lags behind; 0 for tables that are not replicated. */
  readonly absoluteDelay: number
  /** Revision >= 54467, replicated tables only. */
  readonly isReadonly: boolean
}

export interface TablesStatusResponsePacket {
  readonly type: 'TablesStatusResponse'
  /** The tables the server has, in its order (one it lacks is left out). */
  readonly tables: readonly TableStatus[]
}

function checkRevision(revision: number): void {
  if (revision < Revision.withTablesStatus) {
    throw new UsageError(
      `tables status needs revision ${Revision.withTablesStatus}; this server speaks ${revision}`,
    )
  }
}

function readCount(reader: ByteReader, path: string): number {
  const count = reader.varUInt()
  if (count > maxPacketListLength) throw new ProtocolError(`${count} tables`, { path })
  return count
}

export const tablesStatusRequestCodec: PacketCodec<TablesStatusRequestPacket> = {
  id: ClientPacketId.TablesStatusRequest,
  type: 'TablesStatusRequest',
  encode(writer: ByteWriter, request: PacketInput<TablesStatusRequestPacket>, revision: number): void {
    checkRevision(revision)
    writer.varUInt(ClientPacketId.TablesStatusRequest)
    writer.varUInt(request.tables.length)
    for (const { database, table } of request.tables) {
      writer.string(database)
      writer.string(table)
    }
  },
  decodeBody(reader: ByteReader): TablesStatusRequestPacket | undefined {
    const count = readCount(reader, 'TablesStatusRequest')
    const tables: QualifiedTableName[] = []
    for (let i = 0; i < count && !reader.short; i++) {
      const database = reader.string()
      const table = reader.string()
      tables.push({ database, table })
    }
    if (reader.short) return undefined
    return { type: 'TablesStatusRequest', tables }
  },
}

export const tablesStatusResponseCodec: PacketCodec<TablesStatusResponsePacket> = {
  id: ServerPacketId.TablesStatusResponse,
  type: 'TablesStatusResponse',
  encode(writer: ByteWriter, response: PacketInput<TablesStatusResponsePacket>, revision: number): void {
    checkRevision(revision)
    writer.varUInt(ServerPacketId.TablesStatusResponse)
    writer.varUInt(response.tables.length)
    for (const status of response.tables) {
      writer.string(status.database)
      writer.string(status.table)
      writer.u8(status.isReplicated ? 1 : 0)
      if (!status.isReplicated) continue
      writer.varUInt(status.absoluteDelay)
      if (revision >= Revision.withTableReadOnlyCheck) writer.varUInt(status.isReadonly ? 1 : 0)
    }
  },
  decodeBody(reader: ByteReader, revision: number): TablesStatusResponsePacket | undefined {
    const count = readCount(reader, 'TablesStatusResponse')
    const tables: TableStatus[] = []
    for (let i = 0; i < count && !reader.short; i++) {
      const database = reader.string()
      const table = reader.string()
      const isReplicated = reader.u8() !== 0
      let absoluteDelay = 0
      let isReadonly = false
      if (isReplicated) {
        absoluteDelay = reader.varUInt()
        if (revision >= Revision.withTableReadOnlyCheck) isReadonly = reader.varUInt() !== 0
      }
      tables.push({ database, table, isReplicated, absoluteDelay, isReadonly })
    }
    if (reader.short) return undefined
    return { type: 'TablesStatusResponse', tables }
  },
}
