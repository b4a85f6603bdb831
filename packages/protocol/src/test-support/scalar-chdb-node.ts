// chdb (ClickHouse 26.7 in-process) as an oracle for the scalar types 18.16 lacks. Not
// part of the published build.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

interface ChdbResult {
  bytes(): Uint8Array
}
interface Chdb {
  queryAsync(sql: string, options: { format: string }): Promise<ChdbResult>
}

const chdb = createRequire(import.meta.url)('chdb') as Chdb

/** Settings every oracle query runs with: Time types on, Decimals printed with all S digits. */
export const chdbSettings = 'SETTINGS enable_time_time64_type = 1, output_format_decimal_trailing_zeros = 1'

/** The bytes chdb writes for a query in `format` (Native is revision 0: no BlockInfo). */
export async function chdbBytes(sql: string, format = 'Native'): Promise<Uint8Array> {
  return (await chdb.queryAsync(`${sql} ${chdbSettings}`, { format })).bytes()
}

/** The text chdb writes for a query in `format` (TSV by default). */
export async function chdbText(sql: string, format = 'TSV'): Promise<string> {
  return new TextDecoder().decode(await chdbBytes(sql, format))
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
