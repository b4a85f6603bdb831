import type { CallDeadline } from '@clickwire/protocol'
import {
  AbortError,
  type ColumnMeta,
  firstKeyword,
  parseTypeCached,
  type Settings,
  settingValueText,
  TimeoutError,
} from '@clickwire/protocol'
import { subqueryText } from './format-clause-loader.js'
import type { BoundStatement } from './http-parameters.js'
import { SharedProbe } from './shared-probe.js'

/*
 * What a `FORMAT Native` answer over HTTP does not tell, and the native protocol does: the
 * result's columns when it has no rows (the server sends no block at all, where native
 * sends the header block), and the time zone of a top-level DateTime column (dropped at
 * revision 0, see result-zones.ts). Both come from `DESCRIBE TABLE (<query>)`, asked only
 * when needed and shared per statement, so an HTTP result has the same columns as a
 * native one.
 */

/**
 * Runs `sql` (with the statement's URL fields, external tables and settings) and returns
 * its TabSeparated answer.
 */
export type DescribeRunner = (
  sql: string,
  statement: BoundStatement,
  settings: Settings | undefined,
  signal: AbortSignal,
) => Promise<string>

const maxCached = 256

/** Whether a statement is a SELECT, whose columns DESCRIBE can tell. */
export function describable(sql: string): boolean {
  const keyword = firstKeyword(sql)
  return keyword === 'SELECT' || keyword === 'WITH'
}

/** `DESCRIBE TABLE` of a statement; its text on lines of its own (it may end in a `-- comment`). */
export async function describeSql(sql: string): Promise<string> {
  return `DESCRIBE TABLE (\n${await subqueryText(sql)}\n) FORMAT TabSeparated`
}

/** Name and type of each column in `DESCRIBE TABLE` output in TabSeparated. */
export function describedResultColumns(tsv: string): ColumnMeta[] {
  return tsv
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [name = '', type = ''] = line.split('\t').map(unescapeTsv)
      return { name, type, typeNode: parseTypeCached(type) }
    })
}

/** The result columns of statements, described once per statement text, fields and settings. */
export class ResultMetadata {
  readonly #described = new Map<string, SharedProbe<readonly ColumnMeta[]>>()

  constructor(private readonly run: DescribeRunner) {}

  /**
   * The result columns of `statement` as the server describes them, waited for within
   * `deadline`; undefined when it cannot describe the statement (not a SELECT, or DESCRIBE
   * failed: the next call asks again). The call's own timeout or abort is raised.
   */
  async columns(
    statement: BoundStatement,
    settings: Settings | undefined,
    deadline: CallDeadline,
  ): Promise<readonly ColumnMeta[] | undefined> {
    if (!describable(statement.text)) return undefined
    const key = cacheKey(statement, settings)
    let probe = this.#described.get(key)
    if (!probe) {
      if (this.#described.size >= maxCached) this.#described.clear()
      probe = new SharedProbe(async (signal) => {
        const sql = await describeSql(statement.text)
        return describedResultColumns(await this.run(sql, statement, settings, signal))
      })
      this.#described.set(key, probe)
    }
    try {
      return await probe.get(deadline)
    } catch (error) {
      if (AbortError.isInstance(error) || TimeoutError.isInstance(error)) {
        // The call's own end (its signal, its time, close()) is the call's error.
        if (deadline.signal?.aborted || deadline.expired || deadline.closing?.aborted) throw error
      }
      // A statement DESCRIBE cannot take: the result has no columns to add.
      return undefined
    }
  }
}

function cacheKey(statement: BoundStatement, settings: Settings | undefined): string {
  const fields = statement.fields.map(([name, value]) => `${name}=${value}`).join('&')
  const set = Object.entries(settings ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${settingValueText(name, value!)}`)
    .join('&')
  return `${statement.text}\u0000${fields}\u0000${set}`
}

const escapes: Readonly<Record<string, string>> = {
  b: '\b',
  f: '\f',
  r: '\r',
  n: '\n',
  t: '\t',
  '0': '\0',
  "'": "'",
  '\\': '\\',
}

function unescapeTsv(field: string): string {
  return field.replace(/\\(.)/g, (_, char: string) => escapes[char] ?? char)
}
