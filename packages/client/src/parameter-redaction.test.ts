import { ClickHouseError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { redactErrorParameters, redactParameterValues } from './parameter-redaction.js'

const value = 'it\'s "q" \\ \n\t ü 🔑 \u0001 end'
/** The value as ClickHouse quotes it in a literal (18.16's substitution and 26.x's analyzer print this). */
const quoted = "'it\\'s \"q\" \\\\ \\n\\t ü 🔑 \u0001 end'"

describe('redactParameterValues', () => {
  it('masks a quoted literal of the value, whatever escapes it uses', () => {
    const p = { p: value }
    expect(
      redactParameterValues(`Unknown table expression identifier 'x' in scope SELECT ${quoted} FROM x`, p),
    ).toBe("Unknown table expression identifier 'x' in scope SELECT {p:***} FROM x")
    // \x escapes and doubled quotes unescape to the same text.
    const other = "'it''s \"q\" \\x5c \\x0a\\x09 ü 🔑 \\x01 end'"
    expect(redactParameterValues(`Cannot parse string ${other} as UInt8`, p)).toBe(
      'Cannot parse string {p:***} as UInt8',
    )
  })

  it('masks a literal the message cuts off, from where it begins like a value', () => {
    const cut = `Syntax error: failed at position 8: ) ${quoted.slice(0, 12)}`
    expect(redactParameterValues(cut, { p: value })).toBe('Syntax error: failed at position 8: ) {p:***}')
    const later = `failed at position 8: ) ${quoted.slice(0, 9)}. Expected one of: x`
    // The value's first characters, up to where the cut text stops being the value.
    expect(redactParameterValues(later, { p: value })).not.toContain("it\\'s")
  })

  it('masks plain forms: raw, escaped, JSON and URL-encoded; a short one only standing alone', () => {
    const p = { p: 'secret/value x', n: 918273645, s: 'ab' }
    expect(redactParameterValues('Value secret/value x cannot be parsed', p)).toBe(
      'Value {p:***} cannot be parsed',
    )
    expect(redactParameterValues('in param_p=secret%2Fvalue%20x', p)).toBe('in param_p={p:***}')
    expect(redactParameterValues("_CAST(918273645, 'UInt64')", p)).toBe("_CAST({n:***}, 'UInt64')")
    expect(redactParameterValues('drab ab abc', p)).toBe('drab {s:***} abc')
  })

  it('masks the leaves of arrays, maps, objects, dates and bytes', () => {
    const text = "SELECT ['first-one', 'second-two'], {'key-k': 'val-v'}, '2024-05-06 07:08:09', 'bytes-b'"
    const redacted = redactParameterValues(text, {
      a: ['first-one', 'second-two'],
      m: new Map([['key-k', 'val-v']]),
      d: new Date(Date.UTC(2024, 4, 6, 7, 8, 9)),
      b: new TextEncoder().encode('bytes-b'),
    })
    expect(redacted).toBe('SELECT [{a:***}, {a:***}], {{m:***}: {m:***}}, {d:***}, {b:***}')
  })

  it('leaves a text without values as it is', () => {
    expect(redactParameterValues("Table default.x doesn't exist.", { p: 'zzz-value' })).toBe(
      "Table default.x doesn't exist.",
    )
    expect(redactParameterValues('anything', {})).toBe('anything')
  })
})

describe('redactErrorParameters', () => {
  it('rewrites the message, the stack and nested errors in place', () => {
    const nested = new ClickHouseError({ code: 6, type: 'DB::Exception', message: `inner ${quoted}` })
    const error = new ClickHouseError({
      code: 62,
      type: 'DB::Exception',
      message: `Syntax error: failed at position 8: ) ${quoted}`,
      nested,
    })
    void error.stack
    redactErrorParameters(error, { p: value })
    expect(error.message).toBe('Syntax error: failed at position 8: ) {p:***}')
    expect(error.stack).toContain('failed at position 8: ) {p:***}')
    expect(error.stack).not.toContain('end')
    expect(nested.message).toBe('inner {p:***}')
    const caused = new Error('outer', { cause: new Error(`why: ${value}`) })
    redactErrorParameters(caused, { p: value })
    expect((caused.cause as Error).message).toBe('why: {p:***}')
  })
})
