// Oracles for the parameter integration tests: a live server over HTTP, and chdb (ClickHouse
// 26.x in-process) for server-side parameters, which 18.16 does not have. Not published.
import { createRequire } from 'node:module'
import { quoteWireValue } from '../params/parameter-escaping.js'
import type { ServerParameter } from '../params/server-parameters.js'

/** Runs one query over HTTP and returns the body; throws with the server's message on failure. */
export async function httpQuery(httpUrl: string, sql: string, search = ''): Promise<string> {
  const response = await fetch(`${httpUrl}/${search}`, { method: 'POST', body: sql })
  const body = await response.text()
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${body.trim()}`)
  return body
}

interface Chdb {
  queryAsync(sql: string, options: { format: string }): Promise<{ text(): string }>
}

let chdb: Chdb | undefined

/** Runs SQL in chdb and returns TabSeparated output. */
export async function chdbQuery(sql: string): Promise<string> {
  chdb ??= createRequire(import.meta.url)('chdb') as Chdb
  return (await chdb.queryAsync(sql, { format: 'TabSeparated' })).text()
}

/**
 * Runs SQL with real server-side parameters: `SET param_<name> = <value>` stores the parameter
 * text in the session (ParserSetQuery: the string literal's contents become the text), and the
 * query's placeholders are then replaced by the server's own ReplaceQueryParameterVisitor. The
 * value is written as the native Query packet carries it (quoteWireValue), which the SQL
 * lexer unquotes the same way the server's readQuoted does.
 */
export async function chdbQueryWithParameters(
  sql: string,
  params: readonly ServerParameter[],
): Promise<string> {
  const sets = params.map(({ name, text }) => `SET param_${name} = ${quoteWireValue(text)}; `).join('')
  return chdbQuery(sets + sql)
}
