import { describe, expect, it } from 'vitest'
import { UsageError } from '../errors/usage-error.js'
import { parseType } from '../types/type-parser.js'
import { parameterText } from './server-parameters.js'

function rejects(type: string, value: unknown): string {
  try {
    parameterText(parseType(type), value, 'x')
  } catch (error) {
    expect(UsageError.isInstance(error)).toBe(true)
    return (error as Error).message
  }
  throw new Error(`${type} accepted ${String(value)}`)
}

describe('parameter values are checked against the declared type', () => {
  it('integers: non-numbers, fractions and out-of-range values', () => {
    expect(rejects('UInt64', 'abc')).toBe('parameter {x}: "abc" is not a valid UInt64')
    expect(rejects('UInt8', 300)).toBe('parameter {x}: 300 is not a valid UInt8 (out of range)')
    expect(rejects('UInt8', -1)).toBe('parameter {x}: -1 is not a valid UInt8 (out of range)')
    expect(rejects('Int8', 1.5)).toBe('parameter {x}: 1.5 is not a valid Int8 (not an integer)')
    expect(rejects('Int64', 2n ** 63n)).toBe(
      'parameter {x}: 9223372036854775808n is not a valid Int64 (out of range)',
    )
    expect(rejects('UInt32', ' 1')).toBe('parameter {x}: " 1" is not a valid UInt32')
  })

  it('floats: values a float cannot hold exactly or at all', () => {
    expect(rejects('Float64', 2n ** 53n + 1n)).toBe(
      'parameter {x}: 9007199254740993n is not a valid Float64 (not exactly representable)',
    )
    expect(rejects('Float32', 1e39)).toBe('parameter {x}: 1e+39 is not a valid Float32 (out of range)')
    expect(rejects('Float64', '1,5')).toBe('parameter {x}: "1,5" is not a valid Float64')
  })

  it('decimals: non-finite numbers, excess digits, bad text', () => {
    expect(rejects('Decimal(10, 2)', Number.POSITIVE_INFINITY)).toBe(
      'parameter {x}: Infinity is not a valid Decimal(10, 2) (not finite)',
    )
    expect(rejects('Decimal(10, 2)', '1.005')).toBe(
      'parameter {x}: "1.005" is not a valid Decimal(10, 2) (more than 2 digits after the point; round it first)',
    )
    expect(rejects('Decimal(4, 2)', 100)).toBe(
      'parameter {x}: 100 is not a valid Decimal(4, 2) (out of range)',
    )
    expect(rejects('Decimal(10, 2)', '1e3')).toBe(
      'parameter {x}: "1e3" is not a valid Decimal(10, 2) (expected decimal digits)',
    )
    expect(rejects('Decimal(80, 2)', '1')).toMatch(/precision must be 1-76/)
    expect(parameterText(parseType('Decimal(10, 2)'), '1.2300')).toBe('1.23')
  })

  it('strings: lone surrogates cannot be sent as UTF-8', () => {
    expect(rejects('String', 'a\ud800b')).toBe(
      'parameter {x}: "a\\ud800b" is not a valid String (contains a lone UTF-16 surrogate, which has no UTF-8 encoding)',
    )
    expect(rejects('String', '\udc00')).toMatch(/lone UTF-16 surrogate/)
    expect(parameterText(parseType('String'), '\ud83d\ude00')).toBe('😀')
    expect(rejects('String', 5)).toBe(
      'parameter {x}: 5 is not a valid String (expected a string or Uint8Array)',
    )
  })

  it('FixedString counts UTF-8 bytes', () => {
    expect(rejects('FixedString(2)', 'é!')).toBe(
      'parameter {x}: "é!" is not a valid FixedString(2) (3 bytes do not fit 2)',
    )
    expect(parameterText(parseType('FixedString(2)'), 'é')).toBe('é')
  })

  it('enums, UUIDs and IP addresses', () => {
    expect(rejects("Enum8('a' = 1)", 'b')).toBe(
      `parameter {x}: "b" is not a valid Enum8('a' = 1) (not an element of the enum)`,
    )
    expect(rejects("Enum8('a' = 1)", 2)).toMatch(/not an element of the enum/)
    expect(rejects('UUID', '61f0c404-5cb3-11e7-907b-a6006ad3dba')).toMatch(/is not a valid UUID$/)
    expect(rejects('IPv4', '1.2.3.256')).toBe('parameter {x}: "1.2.3.256" is not a valid IPv4')
    expect(rejects('IPv6', '1:2:3:4:5:6:7:8:9')).toMatch(/not a valid IPv6/)
    expect(rejects('IPv6', '1::2::3')).toMatch(/not a valid IPv6/)
    expect(rejects('IPv6', '::ffff:1.2.3')).toMatch(/not a valid IPv6/)
    expect(parameterText(parseType('IPv6'), '::')).toBe('::')
    expect(parameterText(parseType('IPv6'), '1:2:3:4:5:6:1.2.3.4')).toBe('1:2:3:4:5:6:1.2.3.4')
  })

  it('dates and times: shape, calendar and range', () => {
    expect(rejects('Date', '2017-02-29')).toBe(
      `parameter {x}: "2017-02-29" is not a valid Date (expected 'YYYY-MM-DD' or a Date)`,
    )
    expect(rejects('Date', '1969-12-31')).toBe(
      'parameter {x}: "1969-12-31" is not a valid Date (outside 1970-01-01 to 2149-06-06)',
    )
    expect(rejects('Date', new Date(Number.NaN))).toBe(
      'parameter {x}: an invalid Date is not a valid Date (invalid Date)',
    )
    expect(rejects('DateTime', '2017-01-01T00:00:00')).toMatch(
      /expected 'YYYY-MM-DD hh:mm:ss', a Date or Unix seconds/,
    )
    expect(rejects('DateTime', '2017-01-01 24:00:00')).toMatch(/is not a valid DateTime/)
    expect(rejects('DateTime', -1)).toBe('parameter {x}: -1 is not a valid DateTime (outside 1970 to 2106)')
    expect(rejects('DateTime', 1.5)).toBe(
      'parameter {x}: 1.5 is not a valid DateTime (Unix seconds must be an integer)',
    )
    expect(rejects('DateTime64(2)', '2017-01-01 00:00:00.123')).toMatch(/with up to 2 fraction digits/)
    expect(rejects('DateTime64(3)', new Date('1899-12-31T23:59:59Z'))).toMatch(/outside 1900 to 2299/)
    expect(rejects('DateTime64(10)', '2017-01-01 00:00:00')).toMatch(/precision must be 0-9/)
    expect(rejects('DateTime64(3)', new Date(-1))).toBe(
      "parameter {x}: Date 1969-12-31T23:59:59.999Z is not a valid DateTime64(3) (instants in the second before 1970 need DateTime64(p, 'UTC'))",
    )
    expect(rejects('Time', '12:60:00')).toMatch(/expected '\[-\]hhh:mm:ss' with up to 0 fraction digits/)
  })

  it('null only for Nullable types, and Nothing only as null', () => {
    expect(rejects('UInt8', null)).toBe(
      'parameter {x}: null is not a valid UInt8 (only Nullable types take null)',
    )
    expect(rejects('LowCardinality(String)', undefined)).toMatch(/only Nullable types take null/)
    expect(rejects('Nothing', 1)).toBe(
      'parameter {x}: 1 is not a valid Nothing (Nothing has no values except in Nullable)',
    )
    expect(rejects('Array(Nothing)', [1])).toBe(
      'parameter {x} [0]: 1 is not a valid Nothing (Nothing has no values except in Nullable)',
    )
  })

  it('composites: shape errors name the position', () => {
    expect(rejects('Array(UInt8)', 'abc')).toBe(
      'parameter {x}: "abc" is not a valid Array(UInt8) (expected an array)',
    )
    expect(rejects('Array(Array(UInt8))', [[1], [2, 'z']])).toBe(
      'parameter {x} [1] [1]: "z" is not a valid UInt8',
    )
    expect(rejects('Tuple(UInt8, String)', [1])).toMatch(/\(expected 2 elements\)$/)
    expect(rejects('Tuple(a UInt8, b String)', { a: 1 })).toMatch(/\(element "b" is missing\)$/)
    expect(rejects('Tuple(a UInt8, b String)', { a: 1, b: 'x', c: 2 })).toMatch(/\(no element named "c"\)$/)
    expect(rejects('Map(UInt8, String)', { x: 'y' })).toBe('parameter {x} ["x"]: "x" is not a valid UInt8')
    expect(rejects('Map(String, UInt8)', [1])).toMatch(/expected a Map or an object/)
  })

  it('types without parameter support say so', () => {
    expect(rejects('JSON', {})).toMatch(/JSON parameters are not supported; pass the value as a String/)
    expect(rejects('Variant(String, UInt8)', 'a')).toMatch(/Variant parameters are not supported/)
    expect(rejects('Foo', 1)).toBe('parameter {x}: 1 is not a valid Foo (unknown type)')
    expect(rejects('Array(Identifier)', ['t'])).toMatch(/Identifier cannot be nested/)
    expect(rejects('Identifier', '')).toMatch(/\(empty\)$/)
  })
})
