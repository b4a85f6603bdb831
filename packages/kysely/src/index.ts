export { withSignal } from './abort-signal-plugin.js'
export { ClickHouseAdapter } from './clickhouse-adapter.js'
export {
  type ArrayJoinArrays,
  type ArrayJoinColumns,
  type ArrayJoined,
  type ArrayJoinScope,
  arrayJoin,
  final,
  globalIn,
  globalJoin,
  globalNotIn,
  leftArrayJoin,
  limitBy,
  prewhere,
  type QuerySettings,
  type SampleSize,
  sample,
  settings,
  withTotals,
} from './clickhouse-clauses.js'
export { ClickHouseConnection, type ClickHouseQueryResult } from './clickhouse-connection.js'
export { ClickHouseDialect } from './clickhouse-dialect.js'
export type { ClickHouseDialectConfig, MutationWaitOptions } from './clickhouse-dialect-config.js'
export { ClickHouseDriver, noTransactionsMessage } from './clickhouse-driver.js'
export {
  type ClickHouseColumnMetadata,
  ClickHouseIntrospector,
  type ClickHouseTableMetadata,
} from './clickhouse-introspector.js'
export {
  ClickHouseQueryCompiler,
  type ClickHouseQueryCompilerOptions,
  type DeleteStatement,
  type UpdateStatement,
} from './clickhouse-query-compiler.js'
export { executeWithTotals } from './execute-with-totals.js'
export { type ServerProfile, serverProfile } from './server-profile.js'
export { typed } from './typed-value.js'
