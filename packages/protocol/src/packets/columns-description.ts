import { ProtocolError } from '../errors/protocol-error.js'
import { unescapeSqlText, unquoteSqlString } from '../sql/sql-quoting.js'

/** One column of a TableColumns packet. */
export interface ColumnDescription {
  readonly name: string
  /** The type as the server prints it. */
  readonly type: string
  /** How the column gets a value when an INSERT gives none; '' for the type's default value. */
  readonly defaultKind: '' | 'DEFAULT' | 'MATERIALIZED' | 'ALIAS' | 'EPHEMERAL'
  /** The SQL of the default, '' when there is none. */
  readonly defaultExpression: string
  readonly comment: string
  /** E.g. `CODEC(ZSTD(1))`, '' when none. */
  readonly codec: string
  /** The TTL expression, '' when none. */
  readonly ttl: string
}

const header = /^columns format version: 1\n(\d+) columns:\n/
const defaultKinds = new Set(['DEFAULT', 'MATERIALIZED', 'ALIAS', 'EPHEMERAL'])

/** Reads a back-quoted name at the start of `line`; returns it and where the rest starts. */
function backQuotedName(line: string, where: string): [string, number] {
  if (line[0] !== '`')
    throw new ProtocolError('a column line must start with a back-quoted name', { path: where })
  for (let i = 1; i < line.length; i++) {
    if (line[i] === '\\') i++
    else if (line[i] === '`') {
      const name = unescapeSqlText(line.slice(1, i), '`')
      if (name === undefined) break
      return [name, i + 1]
    }
  }
  throw new ProtocolError('unterminated column name', { path: where })
}

function unescaped(text: string, where: string): string {
  const value = unescapeSqlText(text)
  if (value === undefined) throw new ProtocolError('malformed escape sequence', { path: where })
  return value
}

/**
 * Parses the columns text of a TableColumns packet (ColumnsDescription::toString):
 *
 *     columns format version: 1
 *     2 columns:
 *     `a` UInt8
 *     `s` String<TAB>DEFAULT<TAB>'x'<TAB>COMMENT 'note'
 *
 * After the back-quoted name and the type come tab-separated extras: the default kind and its
 * expression, `COMMENT <literal>`, the codec, `SETTINGS (...)`, `TTL <expression>`. The parts
 * are written with TSV escapes, so a raw tab or newline only ever separates them.
 */
export function parseColumnsDescription(text: string): ColumnDescription[] {
  const start = header.exec(text)
  if (!start) throw new ProtocolError('not a columns description', { path: 'TableColumns' })
  const count = Number(start[1])
  const lines = text.slice(start[0].length).split('\n')
  if (lines.at(-1) === '') lines.pop()
  if (lines.length !== count) {
    throw new ProtocolError(`${lines.length} column lines, expected ${count}`, { path: 'TableColumns' })
  }
  return lines.map((line, index) => {
    const where = `TableColumns > column [${index}]`
    const [name, end] = backQuotedName(line, where)
    if (line[end] !== ' ') throw new ProtocolError('expected a space after the column name', { path: where })
    const parts = line.slice(end + 1).split('\t')
    const column = {
      name,
      type: unescaped(parts[0]!, where),
      defaultKind: '' as ColumnDescription['defaultKind'],
      defaultExpression: '',
      comment: '',
      codec: '',
      ttl: '',
    }
    let i = 1
    const kind = parts[1]
    if (kind !== undefined && defaultKinds.has(kind)) {
      const expression = parts[2]
      if (expression === undefined)
        throw new ProtocolError('default kind without expression', { path: where })
      column.defaultKind = kind as ColumnDescription['defaultKind']
      column.defaultExpression = unescaped(expression, where)
      i = 3
    }
    for (; i < parts.length; i++) {
      const part = unescaped(parts[i]!, where)
      if (part.startsWith('COMMENT ')) column.comment = unquoteSqlString(part.slice(8)) ?? part.slice(8)
      else if (part.startsWith('TTL ')) column.ttl = part.slice(4)
      else if (part.startsWith('CODEC(')) column.codec = part
    }
    return column
  })
}
