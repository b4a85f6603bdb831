/**
 * Packet ids of the native protocol (ClickHouse src/Core/Protocol.h). Every packet starts
 * with its id as a VarUInt; the body that follows depends on the id and the negotiated
 * revision.
 */

/** Packets a client sends. */
export const ClientPacketId = {
  Hello: 0,
  Query: 1,
  Data: 2,
  Cancel: 3,
  Ping: 4,
  TablesStatusRequest: 5,
  /** Declared but not handled by any server's TCPHandler: sending it fails the connection. */
  KeepAlive: 6,
  Scalar: 7,
  IgnoredPartUUIDs: 8,
  ReadTaskResponse: 9,
  MergeTreeReadTaskResponse: 10,
  SSHChallengeRequest: 11,
  SSHChallengeResponse: 12,
  QueryPlan: 13,
  MergeTreeAllRangesAnnouncementResponse: 14,
} as const

/** Packets a server sends. */
export const ServerPacketId = {
  Hello: 0,
  Data: 1,
  Exception: 2,
  Progress: 3,
  Pong: 4,
  EndOfStream: 5,
  ProfileInfo: 6,
  Totals: 7,
  Extremes: 8,
  TablesStatusResponse: 9,
  Log: 10,
  TableColumns: 11,
  PartUUIDs: 12,
  ReadTaskRequest: 13,
  ProfileEvents: 14,
  MergeTreeAllRangesAnnouncement: 15,
  MergeTreeReadTaskRequest: 16,
  TimezoneUpdate: 17,
  SSHChallenge: 18,
  PreviewData: 19,
} as const

export type ClientPacketName = keyof typeof ClientPacketId
export type ServerPacketName = keyof typeof ServerPacketId

function namesById(ids: Readonly<Record<string, number>>): readonly string[] {
  const names: string[] = []
  for (const [name, id] of Object.entries(ids)) names[id] = name
  return names
}

const serverNames = namesById(ServerPacketId)
const clientNames = namesById(ClientPacketId)

/** `Progress (3)` for a known server packet id, the bare number otherwise (for messages). */
export function serverPacketLabel(id: number): string {
  const name = serverNames[id]
  return name === undefined ? String(id) : `${name} (${id})`
}

/** `Query (1)` for a known client packet id, the bare number otherwise (for messages). */
export function clientPacketLabel(id: number): string {
  const name = clientNames[id]
  return name === undefined ? String(id) : `${name} (${id})`
}

/**
 * Query processing stages (src/Core/QueryProcessingStage.h). A client asks for `Complete`;
 * the others are for servers that run parts of a distributed query.
 */
export const QueryStage = {
  FetchColumns: 0,
  WithMergeableState: 1,
  Complete: 2,
  WithMergeableStateAfterAggregation: 3,
  WithMergeableStateAfterAggregationAndLimit: 4,
} as const
