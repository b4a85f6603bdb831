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
  withRowsBeforeAggregation: 54469,
  withChunkedPackets: 54470,
  withV2DynamicAndJsonSerialization: 54473,
  withStringWithSizeStreamSerialization: 54492,
} as const

/**
 * The revision clickwire announces: the level of the peers (ch-go, clickhouse-go). Every
 * gated field up to it is implemented; sparse columns (54465) and chunked framing (54470)
 * lie above it, so servers never send them to us.
 */
export const clientRevision = 54460

/** Debian bookworm's clickhouse-server 18.16.1. */
export const revision18_16 = 54412
