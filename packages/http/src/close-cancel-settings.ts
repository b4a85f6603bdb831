import type { Settings } from '@clickwire/protocol'
import type { ServerFeatures } from './server-features.js'

/** The setting that makes the server cancel a read-only HTTP query whose client went away. */
const cancelSetting = 'cancel_http_readonly_queries_on_client_close'

/**
 * A statement that can only read: `SELECT` or `WITH` first (a `WITH` starts nothing but a
 * SELECT in ClickHouse's grammar), after comments and opening parentheses. Anything else,
 * an INSERT … SELECT included, is not one.
 */
const readOnlyStart = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/|\()*(?:SELECT|WITH)(?![\w$])/i

/** Whether `sql` is a statement that can only read (see {@link readOnlyStart}). */
export function isReadOnlyStatement(sql: string): boolean {
  return readOnlyStart.test(sql)
}

/**
 * The settings that let the server stop a read-only query when its connection closes, for
 * when the KILL QUERY sent after a timeout, an abort or close() never arrives (the server
 * unreachable for a new connection, the client closed at once). ClickHouse checks the peer
 * at each step of progress, but only for a query at `readonly` > 0 that carries
 * `cancel_http_readonly_queries_on_client_close` (HTTPHandler.cpp, since 19.x; 18.16 has
 * neither the setting nor the check). So a SELECT at `readonly` 0 also gets `readonly = 2`,
 * which refuses writes and changing `readonly` only: the SELECT reads and sets settings as
 * before. Nothing is added where it could change what a statement does or be refused:
 *
 * - a statement that is not a plain SELECT (see {@link isReadOnlyStatement}), or names
 *   `readonly` itself (`SETTINGS readonly = …`);
 * - settings of the caller's that name either setting;
 * - a request in a session, whose `SET readonly` the probe does not see;
 * - a `readonly = 1` level, which refuses every setting, or an unknown one.
 */
export function closeCancelSettings(
  sql: string,
  server: ServerFeatures,
  inSession: boolean,
  ...callerSettings: ReadonlyArray<Settings | undefined>
): Settings | undefined {
  if (!server.cancelsOnClientClose || inSession) return undefined
  if (server.readonly !== 0 && server.readonly !== 2) return undefined
  if (/readonly/i.test(sql) || !isReadOnlyStatement(sql)) return undefined
  for (const settings of callerSettings) {
    if (settings && ('readonly' in settings || cancelSetting in settings)) return undefined
  }
  return server.readonly === 0 ? { readonly: 2, [cancelSetting]: 1 } : { [cancelSetting]: 1 }
}
