import { parameterCases } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { UsageError } from '../errors/usage-error.js'
import { parseType } from '../types/type-parser.js'
import {
  httpQueryParameters,
  nativeParameterFlags,
  nativeQueryParameters,
  parameterText,
  serverParameters,
} from './server-parameters.js'

describe('parameterText', () => {
  for (const c of parameterCases) {
    it(`${c.type} ${JSON.stringify(String(c.value))}`, () => {
      expect(parameterText(parseType(c.type), c.value)).toBe(c.text)
    })
  }

  it('escapes exactly what the escaped reader treats specially at the top level', () => {
    expect(parameterText(parseType('String'), '\'"`{}$#-/*')).toBe('\'"`{}$#-/*')
    expect(parameterText(parseType('String'), '\\\t\n\r\0\b\f\x1b')).toBe('\\\\\\t\\n\\r\\0\\b\\f\\x1B')
  })

  it('sends an Identifier as the bare name, never unescaped by the server', () => {
    expect(parameterText(parseType('Identifier'), 'my `table`\\x')).toBe('my `table`\\x')
  })
})

describe('serverParameters', () => {
  const sql = "SELECT {a:String}, {b:Array(UInt8)}, '{c:String}', {a:String} -- {d:String}"

  it('gives one text per placeholder name, in order of first use, and ignores extra values', () => {
    expect(serverParameters(sql, { b: [1, 2], a: 'x\ty', extra: 1, c: 'not a placeholder' })).toEqual([
      { name: 'a', text: 'x\\ty' },
      { name: 'b', text: '[1,2]' },
    ])
  })

  it('names a placeholder that has no value', () => {
    expect(() => serverParameters(sql, { a: 'x' })).toThrow(
      new UsageError('no value for placeholder {b:Array(UInt8)} at offset 19'),
    )
    expect(() => serverParameters('SELECT {n:Nullable(UInt8)}', {})).toThrow(UsageError)
  })

  it('takes an own undefined as null, and a missing key as missing', () => {
    expect(serverParameters('SELECT {n:Nullable(UInt8)}', { n: undefined })).toEqual([
      { name: 'n', text: '\\N' },
    ])
    expect(() => serverParameters('SELECT {n:Nullable(UInt8)}', Object.create({ n: 1 }))).toThrow(/no value/)
  })

  it('accepts a name used with two types when both read the same text, and refuses otherwise', () => {
    expect(serverParameters('SELECT {x:UInt8}, {x:String}', { x: '7' })).toEqual([{ name: 'x', text: '7' }])
    expect(() => serverParameters('SELECT {x:UInt8}, {x:Bool}', { x: true })).toThrow(
      new UsageError(
        'parameter x is used with types whose text forms differ ("1" and "true"); use one type or two names',
      ),
    )
  })

  it('leaves a brace group with an unreadable type alone unless a value names it', () => {
    expect(serverParameters('SELECT {x:Foo Bar}', {})).toEqual([])
    expect(() => serverParameters('SELECT {x:Foo Bar}', { x: 1 })).toThrow(
      /cannot read the type of placeholder/,
    )
  })

  it('checks values against the declared type before anything is sent', () => {
    expect(() => serverParameters('SELECT {x:UInt8}', { x: 300 })).toThrow(
      new UsageError('parameter {x:UInt8}: 300 is not a valid UInt8 (out of range)'),
    )
  })
})

describe('nativeQueryParameters', () => {
  it('quotes each text the way the server unquotes it (readQuoted)', () => {
    expect(
      nativeQueryParameters('SELECT {s:String}, {a:Array(String)}', { s: "it's a\\b", a: ["x'y"] }),
    ).toEqual([
      ['s', "'it\\'s a\\\\\\\\b'"],
      ['a', "'[\\'x\\\\\\'y\\']'"],
    ])
    expect(nativeParameterFlags).toBe(2)
  })
})

describe('httpQueryParameters', () => {
  it('prefixes names with param_ and sends the text itself', () => {
    expect(
      httpQueryParameters('SELECT {d:Date}, {ids:Array(UInt64)}', { d: '2017-01-04', ids: [1n, 2n] }),
    ).toEqual([
      ['param_d', '2017-01-04'],
      ['param_ids', '[1,2]'],
    ])
  })
})
