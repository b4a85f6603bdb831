// chdb (ClickHouse 26.x in-process, the `chdb` npm package) as an oracle: for the types and
// features 18.16 lacks (Time types, server-side parameters), with no server to start. It is
// loaded on first use, so suites that never call it do not load the engine.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

interface ChdbResult {
  bytes(): Uint8Array
  text(): string
}

interface Chdb {
  queryAsync(sql: string, options: { format: string }): Promise<ChdbResult>
}

let chdb: Chdb | undefined

function engine(): Chdb {
  chdb ??= createRequire(import.meta.url)('chdb') as Chdb
  return chdb
}

/** Runs SQL in chdb as it is and returns its TabSeparated output. */
export async function chdbQuery(sql: string): Promise<string> {
  return (await engine().queryAsync(sql, { format: 'TabSeparated' })).text()
}

/**
 * Runs SQL with real server-side parameters: `SET param_<name> = <literal>` stores the
 * parameter text in the session (ParserSetQuery: the string literal's contents become the
 * text), and the query's placeholders are then replaced by the server's own
 * ReplaceQueryParameterVisitor. `quote` writes each text as a string literal; tests pass the
 * quoting under test (protocol's `quoteSqlString`, the way the native Query packet carries
 * values), which the SQL lexer unquotes the same way the server's readQuoted does.
 */
export async function chdbQueryWithParameters(
  sql: string,
  params: readonly { readonly name: string; readonly text: string }[],
  quote: (text: string) => string,
): Promise<string> {
  const sets = params.map(({ name, text }) => `SET param_${name} = ${quote(text)}; `).join('')
  return chdbQuery(sets + sql)
}

/** Settings every typed oracle query runs with: Time types on, Decimals printed with all S digits. */
const chdbSettings = 'SETTINGS enable_time_time64_type = 1, output_format_decimal_trailing_zeros = 1'

/** The bytes chdb writes for a query in `format`, with {@link chdbSettings} (Native is revision 0: no BlockInfo). */
export async function chdbBytes(sql: string, format = 'Native'): Promise<Uint8Array> {
  return (await engine().queryAsync(`${sql} ${chdbSettings}`, { format })).bytes()
}

/**
 * Lets chdb read a Native body we encoded: writes it to a temporary file and runs
 * `SELECT <select> FROM file(path, 'Native')`, returning the output bytes in `format`.
 */
export async function chdbReadNativeBytes(
  body: Uint8Array,
  select = '*',
  format = 'TSV',
): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), 'clickwire-scalar-'))
  const path = join(dir, 'body.native')
  try {
    writeFileSync(path, body)
    return await chdbBytes(`SELECT ${select} FROM file('${path}', 'Native')`, format)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** {@link chdbReadNativeBytes} as text (TSV by default). */
export async function chdbReadNative(body: Uint8Array, select = '*', format = 'TSV'): Promise<string> {
  return new TextDecoder().decode(await chdbReadNativeBytes(body, select, format))
}
