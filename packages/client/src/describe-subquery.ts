/** One token of SQL text that is not a blank or a comment: where it starts and ends. */
interface Token {
  readonly start: number
  readonly end: number
}

/** The end of a quoted string, identifier or comment starting at `at`, or of the token there. */
function tokenEnd(sql: string, at: number): number {
  const char = sql[at]!
  if (char === "'" || char === '"' || char === '`') {
    let i = at + 1
    while (i < sql.length) {
      if (sql[i] === '\\') i += 2
      else if (sql[i] === char) {
        if (sql[i + 1] === char) i += 2
        else return i + 1
      } else i++
    }
    return sql.length
  }
  if (/\w/.test(char)) {
    let i = at + 1
    while (i < sql.length && /\w/.test(sql[i]!)) i++
    return i
  }
  return at + 1
}

/** The tokens of `sql`, blanks and comments (`-- ...`, `/* ... *\/`) left out. */
function tokens(sql: string): Token[] {
  const found: Token[] = []
  let at = 0
  while (at < sql.length) {
    if (/\s/.test(sql[at]!)) at++
    else if (sql.startsWith('--', at)) {
      const newline = sql.indexOf('\n', at)
      at = newline < 0 ? sql.length : newline + 1
    } else if (sql.startsWith('/*', at)) {
      const close = sql.indexOf('*/', at + 2)
      at = close < 0 ? sql.length : close + 2
    } else {
      const end = tokenEnd(sql, at)
      found.push({ start: at, end })
      at = end
    }
  }
  return found
}

/**
 * A SELECT as the subquery of `DESCRIBE TABLE (...)`: without what may follow its last
 * clause (comments, semicolons) and without a trailing `FORMAT name`, which a subquery
 * cannot have. A comment inside stays, so the text is wrapped on its own lines.
 */
export function describeSubquery(sql: string): string {
  const list = tokens(sql)
  while (list.length > 0 && sql.slice(list.at(-1)!.start, list.at(-1)!.end) === ';') list.pop()
  const count = list.length
  if (count >= 2) {
    const keyword = list[count - 2]!
    const name = list[count - 1]!
    if (
      /^format$/i.test(sql.slice(keyword.start, keyword.end)) &&
      /^\w+$/.test(sql.slice(name.start, name.end))
    )
      list.length = count - 2
  }
  const last = list.at(-1)
  return last ? sql.slice(0, last.end) : ''
}
