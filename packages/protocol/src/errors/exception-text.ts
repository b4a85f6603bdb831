import { errorCodeName } from './error-codes.js'

/** The parts of a ClickHouse exception printed as text. */
export interface ExceptionText {
  readonly code: number
  /** The upper-case error name (`UNKNOWN_TABLE`): from the text when the server printed it, else from clickwire's table. */
  readonly name: string | undefined
  /** The exception class, e.g. `DB::Exception`. */
  readonly type: string
  /** The message without the `Code:` prefix, the class name, the error name and the version. */
  readonly message: string
  /** The server's stack trace when the text carried one, else ''. */
  readonly stackTrace: string
  /** The server version the text names (`23.8.1.1`), when it names one. */
  readonly version: string | undefined
}

const codePrefix = /^Code: (\d+)([.,]) /
const displayTextPrefix = 'e.displayText() = '
const whatSuffix = /, e\.what\(\) = ([^\n]*)$/
const stackTraceMarker = /,? Stack trace(?: \([^)\n]*\))?:\s*\n/
const versionSuffix = /\s*\(version ([^()]*(?:\([^()]*\))?[^()]*)\)$/
const nameSuffix = /\s*\(([A-Z][A-Z0-9_]*)\)$/
const typePrefix = /^([A-Za-z_]\w*(?:::\w+)+): /

/**
 * Parses the text forms of a server exception (HTTP error bodies, `exception` columns of
 * system tables, clickhouse-client output):
 *
 * - 18.16: `Code: 60, e.displayText() = DB::Exception: Table default.x doesn't exist., e.what() = DB::Exception`
 * - 19.x-21.x: `Code: 60, e.displayText() = DB::Exception: Table default.x doesn't exist (version 20.3.5.21 (official build))`
 * - 21.x on: `Code: 60. DB::Exception: Table default.x does not exist. (UNKNOWN_TABLE) (version 23.8.1.1)`
 *
 * with an optional stack trace after `Stack trace:`. Returns undefined when the text does not
 * start with `Code: <number>`.
 */
export function parseExceptionText(text: string): ExceptionText | undefined {
  let rest = text.trim()
  const start = codePrefix.exec(rest)
  if (!start) return undefined
  const code = Number(start[1])
  rest = rest.slice(start[0].length)
  let stackTrace = ''
  const stack = stackTraceMarker.exec(rest)
  if (stack) {
    stackTrace = rest.slice(stack.index + stack[0].length)
    rest = rest.slice(0, stack.index)
  }
  let whatType: string | undefined
  if (rest.startsWith(displayTextPrefix)) {
    rest = rest.slice(displayTextPrefix.length)
    const what = whatSuffix.exec(rest)
    if (what) {
      whatType = what[1]
      rest = rest.slice(0, what.index)
    }
  }
  let version: string | undefined
  const versionMatch = versionSuffix.exec(rest)
  if (versionMatch) {
    version = versionMatch[1]
    rest = rest.slice(0, versionMatch.index)
  }
  // Only the modern form (`Code: 60. `) prints the name; in the older ones a parenthesized
  // word at the end belongs to the message.
  let name: string | undefined
  const nameMatch = start[2] === '.' ? nameSuffix.exec(rest) : null
  if (nameMatch) {
    name = nameMatch[1]
    rest = rest.slice(0, nameMatch.index)
  }
  let type = whatType ?? 'DB::Exception'
  const typeMatch = typePrefix.exec(rest)
  if (typeMatch) {
    type = typeMatch[1]!
    rest = rest.slice(typeMatch[0].length)
  }
  return { code, name: name ?? errorCodeName(code), type, message: rest, stackTrace, version }
}
