import type * as FormatClauses from '@clickwire/protocol/format-clause'

/*
 * The statement's FORMAT clause, found with the SQL lexer, which loads on demand: a FORMAT
 * clause needs the word, so a statement without `format` anywhere in its text (most) has
 * none, and a browser page whose statements name no format never downloads the lexer.
 */

let loading: Promise<typeof FormatClauses> | undefined
const load = () => {
  loading ??= import('@clickwire/protocol/format-clause').catch((error: unknown) => {
    // A chunk that could not be fetched (a page offline for a moment): the next call tries again.
    loading = undefined
    throw error
  })
  return loading
}

const mayHaveFormatClause = (sql: string) => /format/i.test(sql)

/** `checkQueryFormat` of `@clickwire/protocol`: refuses a FORMAT clause other than Native. */
export async function checkQueryFormat(sql: string): Promise<void> {
  if (mayHaveFormatClause(sql)) (await load()).checkQueryFormat(sql)
}

/** The format the statement's own FORMAT clause names, if it has one. */
export async function statementFormat(sql: string): Promise<string | undefined> {
  return mayHaveFormatClause(sql) ? (await load()).findFormatClause(sql)?.format : undefined
}

/** `queryFormatError` of `@clickwire/protocol`: the error for a result in another format. */
export async function queryFormatError(format: string): Promise<Error> {
  return (await load()).queryFormatError(format)
}

/** `subqueryText` of `@clickwire/protocol`: the statement as a subquery of DESCRIBE. */
export async function subqueryText(sql: string): Promise<string> {
  return (await load()).subqueryText(sql)
}
