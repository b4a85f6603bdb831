// What both entry points export besides `createClient`. Every function an error message tells
// users to call is here (typedValue for Variant/Dynamic/JSON values, the sql tag's helpers):
// client-exports.test.ts checks it.
export {
  AbortError,
  ClickHouseError,
  ClickwireError,
  type ColumnMeta,
  ConnectionError,
  type ExternalTable,
  type HostStrategy,
  type HostStrategyName,
  type InsertResult,
  type KnownSettings,
  type ProfileInfo,
  type Progress,
  ProtocolError,
  type RawInsertResult,
  type RawStream,
  type RowObject,
  type ServerInfo,
  type Settings,
  type SettingValue,
  TimeoutError,
  type TypedValue,
  typedValue,
  UsageError,
  type ValueMapping,
} from '@clickwire/protocol'
export type { ArrowTypeMapOf } from './arrow-type-map.js'
export type {
  Client,
  ClientInsertResult,
  ClientRawInsertResult,
  CommandCallOptions,
  CommandResult,
  InsertCallOptions,
  PingCallOptions,
  QueryCallOptions,
  RawInsertBody,
  RawInsertCallOptions,
  RawQueryCallOptions,
  RawQueryResult,
  Session,
  SessionOptions,
} from './clickwire-client.js'
export { consoleLogger, type LogContext, type Logger, type LogLevel } from './client-logger.js'
export { type ClientOptions, parseClientUrl, type TlsOptions } from './client-options.js'
export type { ClusterDiscoveryOptions, ClusterNode } from './cluster-discovery-options.js'
export type { ArrowLike, ColumnValues, InsertChunk, InsertValues } from './insert-values.js'
export { jsonReplacer } from './json-replacer.js'
export { type ClickhouseClientName, clickhouseClientNames } from './option-names.js'
export type { QuerySummary } from './query-summary.js'
export type { SpanLike, TracerLike, TracingOption } from './query-tracing.js'
export type { ColumnValuesOf, NumberArray, ResultColumns } from './result-columns.js'
export { type BlockIterationOptions, ResultBlock, ResultSet } from './result-set.js'
export { ShardInsertError, type ShardOutcome } from './shard-insert-error.js'
export type { ClusterReplica, ShardedInsertOptions } from './sharded-insert.js'
export {
  type CompiledSql,
  SqlFragment,
  SqlIdentifier,
  type SqlInterpolation,
  SqlRaw,
  SqlTypedValue,
  type SqlValue,
  sql,
} from './sql-template.js'
