import { httpQueryParameters, maxQuerySizeOf, type Settings, substituteParameters } from '@clickwire/protocol'
import type { ResolvedOptions } from './http-options.js'
import type { ServerFeatures } from './server-features.js'

/** A statement ready to send: its text and the `param_<name>` URL fields it needs. */
export interface BoundStatement {
  readonly text: string
  readonly fields: ReadonlyArray<readonly [string, string]>
}

/**
 * Binds `{name:Type}` placeholders the way the options' parameter mode says: as
 * `param_<name>` fields for servers that take them (`server`, or `auto` on 20.1+), else
 * substituted into the text as typed literals (`client`, or `auto` on older servers),
 * within `max_query_size`.
 */
export function bindParameters(
  options: ResolvedOptions,
  sql: string,
  params: Readonly<Record<string, unknown>> | undefined,
  server: ServerFeatures,
  settings: Settings | undefined,
): BoundStatement {
  if (!params || Object.keys(params).length === 0) return { text: sql, fields: [] }
  const mode = options.parameters
  const onServer = mode === 'server' || (mode === 'auto' && server.queryParameters)
  return onServer
    ? { text: sql, fields: httpQueryParameters(sql, params) }
    : { text: substituteParameters(sql, params, maxQuerySizeOf(options.settings, settings)), fields: [] }
}
