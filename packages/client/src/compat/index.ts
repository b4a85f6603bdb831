/**
 * `@clickwire/client/compat`: a drop-in for `@clickhouse/client`. Change the import and
 * nothing else: the same `createClient` configuration, `query` / `insert` / `command` /
 * `exec` / `ping` / `close` calls, result sets and error shape, over HTTP and, which
 * @clickhouse/client has not, over the native protocol (`clickhouse://`).
 *
 * @example
 * ```ts
 * import { createClient } from '@clickwire/client/compat'
 *
 * const client = createClient({ url: 'http://localhost:8123', username: 'default', password: '' })
 * const rs = await client.query({ query: 'SELECT number FROM system.numbers LIMIT 2', format: 'JSONEachRow' })
 * console.log(await rs.json()) // [ { number: '0' }, { number: '1' } ]
 * await client.close()
 * ```
 */
import { createClient as createClickwireClient } from '../create-client-node.js'
import { ClickHouseClient } from './compat-client.js'
import type { CompatClientConfig } from './compat-config.js'

/**
 * Creates a client from @clickhouse/client's configuration (`url`, `username`, `password`,
 * `database`, `clickhouse_settings`, `request_timeout`, `compression`,
 * `max_open_connections`, `session_id`, `keep_alive`, `application`, `log`,
 * `http_headers`, `access_token`, `role`, `json`). An unknown key is a UsageError.
 */
export function createClient(config: CompatClientConfig = {}): ClickHouseClient {
  return new ClickHouseClient(config, createClickwireClient)
}

export {
  type BaseQueryParams,
  type CallAuth,
  ClickHouseClient,
  type CommandParams,
  type CommandResult,
  type ExecParams,
  type ExecResult,
  type InsertParams,
  type InsertResult,
  type PingResult,
  type QueryParams,
} from './compat-client.js'
export type { CompatClientConfig as ClickHouseClientConfigOptions, JsonHandling } from './compat-config.js'
export { ClickHouseError } from './compat-error.js'
export {
  ClickHouseLogLevel,
  type CompatLogger as Logger,
  type ErrorLogParams,
  type LogParams,
} from './compat-logger.js'
export { CompatResultSet as ResultSet, type Row } from './compat-result-set.js'
export type { ClickHouseSummary } from './compat-summary.js'
export { type ClickHouseSettings, SettingsMap, TupleParam } from './compat-values.js'
