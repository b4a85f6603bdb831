import type { Settings } from '@clickwire/protocol'
import type { ResolvedOptions } from './http-options.js'
import type { ServerFeatures } from './server-features.js'

/** A statement ready to send: its text and the `param_<name>` URL fields it needs. */
export interface BoundStatement {
  readonly text: string
  readonly fields: ReadonlyArray<readonly [string, string]>
  /**
   * With external tables (their `_structure` fields are among `fields`): the multipart body
   * of `sql` with the tables empty, for a DESCRIBE of the statement.
   */
  readonly describeBody?: ((sql: string) => Promise<{ body: Uint8Array; contentType: string }>) | undefined
}

/**
 * Binds `{name:Type}` placeholders the way the options' parameter mode says: as
 * `param_<name>` fields for servers that take them (`server`, or `auto` on 20.1+), else
 * substituted into the text as typed literals (`client`, or `auto` on older servers),
 * within `max_query_size`. The parameter code loads on the first statement that has
 * parameters or a `{`, so a page whose queries have neither never downloads it.
 */
export async function bindParameters(
  options: ResolvedOptions,
  sql: string,
  params: Readonly<Record<string, unknown>> | undefined,
  server: ServerFeatures,
  settings: Settings | undefined,
): Promise<BoundStatement> {
  const empty = !params || Object.keys(params).length === 0
  // Without a `{` there is no placeholder to miss a value for.
  if (empty && !sql.includes('{')) return { text: sql, fields: [] }
  const { httpQueryParameters, maxQuerySizeOf, requirePlaceholderValues, substituteParameters } =
    await import('@clickwire/protocol/params')
  if (empty) {
    requirePlaceholderValues(sql)
    return { text: sql, fields: [] }
  }
  const mode = options.parameters
  const onServer = mode === 'server' || (mode === 'auto' && server.queryParameters)
  return onServer
    ? { text: sql, fields: httpQueryParameters(sql, params) }
    : { text: substituteParameters(sql, params, maxQuerySizeOf(options.settings, settings)), fields: [] }
}
