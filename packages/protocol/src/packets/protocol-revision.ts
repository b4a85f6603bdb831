import { UsageError } from '../errors/usage-error.js'

/**
 * Protocol revisions, named after ClickHouse's src/Core/ProtocolDefines.h. Client and
 * server each announce a revision in Hello; both then use the smaller one, and every
 * field gated below is read or written only when the negotiated revision reaches it.
 */
export const Revision = {
  withBlockInfo: 51903,
  withClientInfo: 54032,
  withServerTimezone: 54058,
  withQuotaKeyInClientInfo: 54060,
  withTablesStatus: 54226,
  withTimezoneParameterInDateTime: 54337,
  withServerDisplayName: 54372,
  withVersionPatch: 54401,
  withLowCardinalityType: 54405,
  withServerLogs: 54406,
  withColumnDefaultsMetadata: 54410,
  withClientWriteInfo: 54420,
  withSettingsSerializedAsStrings: 54429,
  withScalars: 54429,
  withInterserverSecret: 54441,
  withOpenTelemetry: 54442,
  withXForwardedForInClientInfo: 54443,
  withRefererInClientInfo: 54447,
  withDistributedDepth: 54448,
  withInitialQueryStartTime: 54449,
  withIncrementalProfileEvents: 54451,
  withAggregateFunctionsVersioning: 54452,
  withParallelReplicas: 54453,
  withCustomSerialization: 54454,
  withProfileEventsInInsert: 54456,
  withViewIfPermitted: 54457,
  withAddendum: 54458,
  withQuotaKey: 54458,
  withParameters: 54459,
  withServerQueryTimeInProgress: 54460,
  withPasswordComplexityRules: 54461,
  withInterserverSecretV2: 54462,
  withTotalBytesInProgress: 54463,
  withTimezoneUpdates: 54464,
  withSparseSerialization: 54465,
  withSshAuthentication: 54466,
  withTableReadOnlyCheck: 54467,
  withSystemKeywordsTable: 54468,
  withRowsBeforeAggregation: 54469,
  withChunkedPackets: 54470,
  withVersionedParallelReplicasProtocol: 54471,
  withInterserverExternallyGrantedRoles: 54472,
  withV2DynamicAndJsonSerialization: 54473,
  withServerSettings: 54474,
  withQueryAndLineNumbers: 54475,
  withJwtInInterserver: 54476,
  withQueryPlanSerialization: 54477,
  withParallelBlockMarshalling: 54478,
  withVersionedClusterFunctionProtocol: 54479,
  withOutOfOrderBucketsInAggregation: 54480,
  withCompressedLogsProfileEventsColumns: 54481,
  withReplicatedSerialization: 54482,
  withNullableSparseSerialization: 54483,
  withProgressInAsyncInsert: 54484,
  withClientAgentInClientInfo: 54485,
  withInternalQueryFlag: 54486,
  withInterserverSecretTablesStatus: 54487,
  withInterserverCurrentRoles: 54488,
  // 54489 (the aggregation variant of a String key) is between servers; 54490 (the HTTP
  // handler in ClientInfo) concerns queries forwarded from an HTTP interface, not a TCP
  // client's ClientInfo; 54491 (quantileDeterministic's skip degree) changes a state
  // clickwire does not read (its AggregateFunction columns refuse it). None needs a field here.
  /** String columns as cumulative UInt64 offsets and one blob (columns/string-blob-column.ts). */
  withStringWithSizeStreamSerialization: 54492,
} as const

/**
 * The revision clickwire announces: that of ClickHouse 26.9 and of the master branch. Every
 * gated field up to it is implemented. Chunked framing (54470) is negotiated away
 * ("notchunked" both ways), and the inter-server-only fields (JWT, roles, secrets) are sent
 * empty. 54489-54491 change nothing a client writes or reads (see {@link Revision}'s notes).
 */
export const clientRevision = 54492

/**
 * The `protocolRevision` option: the highest revision a client speaks (default
 * {@link clientRevision}). A lower one makes the server use the older layouts, e.g. 54488
 * for String columns before the size-stream layout. From 18.16's 54412 up.
 */
export function resolveProtocolRevision(value: unknown): number {
  if (value === undefined) return clientRevision
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < revision18_16 ||
    value > clientRevision
  )
    throw new UsageError(
      `protocolRevision must be an integer from ${revision18_16} to ${clientRevision}, got ${String(value)}`,
    )
  return value
}

/**
 * The parallel-replicas protocol version a client names in its addendum (revision >= 54471),
 * DBMS_PARALLEL_REPLICAS_PROTOCOL_VERSION of the same ClickHouse as {@link clientRevision}.
 * Only a replica taking part in a parallel read acts on it.
 */
export const clientParallelReplicasProtocolVersion = 8

/** Debian bookworm's clickhouse-server 18.16.1. */
export const revision18_16 = 54412
