import { describe, expect, it } from 'vitest'
import { ClickHouseError } from './clickhouse-error.js'
import { errorCodeName } from './error-codes.js'
import { parseExceptionText } from './exception-text.js'

describe('parseExceptionText', () => {
  it('reads the 18.16 HTTP form (no name in the text: it comes from the table)', () => {
    // Verbatim bodies of clickhouse-server 18.16.1 HTTP errors.
    expect(
      parseExceptionText(
        "Code: 60, e.displayText() = DB::Exception: Table default.x doesn't exist., e.what() = DB::Exception\n",
      ),
    ).toEqual({
      code: 60,
      name: 'UNKNOWN_TABLE',
      type: 'DB::Exception',
      message: "Table default.x doesn't exist.",
      stackTrace: '',
      version: undefined,
    })
    expect(
      parseExceptionText(
        'Code: 193, e.displayText() = DB::Exception: Wrong password for user clickwire_password, e.what() = DB::Exception\n',
      ),
    ).toMatchObject({
      code: 193,
      name: 'WRONG_PASSWORD',
      message: 'Wrong password for user clickwire_password',
    })
    expect(
      parseExceptionText(
        "Code: 395, e.displayText() = DB::Exception: Value passed to 'throwIf' function is non zero, e.what() = DB::Exception\n",
      ),
    ).toMatchObject({ code: 395, name: 'FUNCTION_THROW_IF_VALUE_IS_NON_ZERO' })
  })

  it('reads the 19.x-21.x form with the version at the end', () => {
    expect(
      parseExceptionText(
        "Code: 60, e.displayText() = DB::Exception: Table default.x doesn't exist (version 20.3.5.21 (official build))",
      ),
    ).toEqual({
      code: 60,
      name: 'UNKNOWN_TABLE',
      type: 'DB::Exception',
      message: "Table default.x doesn't exist",
      stackTrace: '',
      version: '20.3.5.21 (official build)',
    })
  })

  it('reads the modern form with the name and version', () => {
    expect(
      parseExceptionText(
        'Code: 60. DB::Exception: Table default.x does not exist. (UNKNOWN_TABLE) (version 23.8.1.1)\n',
      ),
    ).toEqual({
      code: 60,
      name: 'UNKNOWN_TABLE',
      type: 'DB::Exception',
      message: 'Table default.x does not exist.',
      stackTrace: '',
      version: '23.8.1.1',
    })
    // chdb 26.7 prints no version; the name of a code missing from the table comes from the text.
    expect(
      parseExceptionText(
        "Code: 60. DB::Exception: Unknown table expression identifier 'x' in scope SELECT * FROM x. (UNKNOWN_TABLE)",
      ),
    ).toMatchObject({
      code: 60,
      name: 'UNKNOWN_TABLE',
      message: "Unknown table expression identifier 'x' in scope SELECT * FROM x.",
    })
    expect(parseExceptionText('Code: 1001. DB::Exception: boom. (STD_EXCEPTION)')).toMatchObject({
      code: 1001,
      name: 'STD_EXCEPTION',
    })
  })

  it('splits off a stack trace and keeps other exception classes', () => {
    expect(
      parseExceptionText(
        'Code: 210. DB::NetException: Connection refused (localhost:9000). (NETWORK_ERROR), Stack trace (when copying this message, always include the lines below):\n\n0. DB::Exception::Exception()\n1. main\n',
      ),
    ).toEqual({
      code: 210,
      name: 'NETWORK_ERROR',
      type: 'DB::NetException',
      message: 'Connection refused (localhost:9000).',
      stackTrace: '0. DB::Exception::Exception()\n1. main',
      version: undefined,
    })
  })

  it('takes a parenthesized word at the end for the name only in the modern form', () => {
    expect(
      parseExceptionText(
        'Code: 1000, e.displayText() = Poco::Exception: refused (TCP), e.what() = Poco::Exception',
      ),
    ).toEqual({
      // The table's name for 1000, never the message's last parenthesized word.
      code: 1000,
      name: 'POCO_EXCEPTION',
      type: 'Poco::Exception',
      message: 'refused (TCP)',
      stackTrace: '',
      version: undefined,
    })
    expect(
      parseExceptionText('Code: 62. DB::Exception: Syntax error (at position 1). (SYNTAX_ERROR)'),
    ).toMatchObject({
      message: 'Syntax error (at position 1).',
      name: 'SYNTAX_ERROR',
    })
  })

  it('returns undefined for anything else', () => {
    expect(parseExceptionText('Not found')).toBeUndefined()
    expect(parseExceptionText('')).toBeUndefined()
  })
})

describe('ClickHouseError.fromText', () => {
  it('builds the error with its code name', () => {
    const error = ClickHouseError.fromText(
      "Code: 60, e.displayText() = DB::Exception: Table default.x doesn't exist., e.what() = DB::Exception",
      'q1',
    )!
    expect(ClickHouseError.isInstance(error)).toBe(true)
    expect([error.code, error.codeName, error.type, error.message, error.queryId]).toEqual([
      60,
      'UNKNOWN_TABLE',
      'DB::Exception',
      "Table default.x doesn't exist.",
      'q1',
    ])
    expect(ClickHouseError.fromText('oops')).toBeUndefined()
  })

  it('names the codes tests meet', () => {
    const codes = [60, 62, 47, 81, 164, 192, 193, 194, 241, 159, 394, 395, 396, 209, 210, 516]
    expect(codes.map((code) => errorCodeName(code))).toEqual([
      'UNKNOWN_TABLE',
      'SYNTAX_ERROR',
      'UNKNOWN_IDENTIFIER',
      'UNKNOWN_DATABASE',
      'READONLY',
      'UNKNOWN_USER',
      'WRONG_PASSWORD',
      'REQUIRED_PASSWORD',
      'MEMORY_LIMIT_EXCEEDED',
      'TIMEOUT_EXCEEDED',
      'QUERY_WAS_CANCELLED',
      'FUNCTION_THROW_IF_VALUE_IS_NON_ZERO',
      'TOO_MANY_ROWS_OR_BYTES',
      'SOCKET_TIMEOUT',
      'NETWORK_ERROR',
      'AUTHENTICATION_FAILED',
    ])
    expect(errorCodeName(123_456)).toBeUndefined()
  })
  it('names the codes 18.16 prints without a name: sessions, formats and parsing', () => {
    // 18.16's text for a temporary table over HTTP without a session: the name comes from our table.
    const error = ClickHouseError.fromText(
      'Code: 113, e.displayText() = DB::Exception: There is no session, e.what() = DB::Exception',
    )!
    expect([error.code, error.codeName, error.message]).toEqual([
      113,
      'THERE_IS_NO_SESSION',
      'There is no session',
    ])
    const codes = [3, 26, 35, 56, 85, 116, 372, 373, 374, 389, 399, 408, 1001]
    expect(codes.map((code) => errorCodeName(code))).toEqual([
      'UNEXPECTED_END_OF_FILE',
      'CANNOT_PARSE_QUOTED_STRING',
      'TOO_FEW_ARGUMENTS_FOR_FUNCTION',
      'UNKNOWN_STORAGE',
      'FORMAT_IS_NOT_SUITABLE_FOR_INPUT',
      'THERE_IS_NO_DEFAULT_VALUE',
      'SESSION_NOT_FOUND',
      'SESSION_IS_LOCKED',
      'INVALID_SESSION_TIMEOUT',
      'INSERT_WAS_DEDUPLICATED',
      'FORMAT_IS_NOT_SUITABLE_FOR_OUTPUT',
      'BAD_REQUEST_PARAMETER',
      'STD_EXCEPTION',
    ])
  })
})
