/**
 * The first keyword of a statement, after whitespace, comments and opening parentheses,
 * in upper case ('' when there is none).
 */
export function firstKeyword(sql: string): string {
  let at = 0
  const n = sql.length
  for (;;) {
    while (at < n && (/\s/.test(sql[at]!) || sql[at] === '(')) at++
    if (sql.startsWith('--', at) || sql[at] === '#') {
      const end = sql.indexOf('\n', at)
      at = end < 0 ? n : end + 1
    } else if (sql.startsWith('/*', at)) {
      const end = sql.indexOf('*/', at + 2)
      at = end < 0 ? n : end + 2
    } else break
  }
  const match = /^[A-Za-z]+/.exec(sql.slice(at, at + 16))
  return match ? match[0].toUpperCase() : ''
}

const readOnly = new Set(['SELECT', 'WITH', 'SHOW', 'DESCRIBE', 'DESC', 'EXISTS', 'EXPLAIN', 'CHECK'])

/**
 * Whether a statement only reads, so that sending it twice is harmless. Such requests may
 * be retried once when a kept-alive socket turns out to be closed; anything else (INSERT,
 * DDL, KILL, SYSTEM, OPTIMIZE, ...) never is.
 */
export function isReadOnlyStatement(sql: string): boolean {
  return readOnly.has(firstKeyword(sql))
}
