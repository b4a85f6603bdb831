import { describe, expect, it } from 'vitest'
import { typeToString } from '../types/type-node.js'
import { scanPlaceholders } from './placeholder-scanner.js'

/** name:type@start-end for every placeholder found. */
function found(sql: string): string[] {
  const placeholders = scanPlaceholders(sql)
  for (const p of placeholders) expect(`${sql[p.start]}${sql[p.end - 1]}`).toBe('{}')
  return placeholders.map(
    (p) => `${p.name}:${p.type ? typeToString(p.type) : `!${p.typeText}`}@${p.start}-${p.end}`,
  )
}

describe('scanPlaceholders', () => {
  it('finds placeholders with exact positions, names and parsed types', () => {
    const sql = 'SELECT * FROM t WHERE d < {d:Date} AND id IN {ids:Array(UInt64)}'
    expect(found(sql)).toEqual(['d:Date@26-34', 'ids:Array(UInt64)@45-64'])
    const [first] = scanPlaceholders(sql)
    expect(sql.slice(first!.start, first!.end)).toBe('{d:Date}')
    expect(first!.typeText).toBe('Date')
  })

  it('returns nothing for SQL without braces', () => {
    expect(scanPlaceholders('SELECT 1')).toEqual([])
    expect(scanPlaceholders('')).toEqual([])
  })

  it('allows whitespace and comments inside the braces, as the server does', () => {
    expect(found('SELECT { d : Date }')).toEqual(['d:Date@7-19'])
    expect(found('SELECT {d/*a*/:/*b*/Date -- c\n}')).toEqual(['d:Date@7-31'])
    expect(found('SELECT {x:Array( Nullable( String ) ) }')).toEqual(['x:Array(Nullable(String))@7-39'])
    expect(scanPlaceholders('SELECT {x: Tuple(a UInt8,\n  b String)}')[0]!.typeText).toBe(
      'Tuple(a UInt8,b String)',
    )
  })

  it('reads the type arguments ClickHouse types have', () => {
    expect(found("SELECT {t:DateTime64(3, 'Europe/Moscow')}")).toEqual([
      "t:DateTime64(3, 'Europe/Moscow')@7-41",
    ])
    expect(found("SELECT {e:Enum8('a}' = -1, 'b' = 2)}")).toEqual(["e:Enum8('a}' = -1, 'b' = 2)@7-36"])
    expect(found('SELECT {m:Map(String, Array(Decimal(10, 2)))}')).toEqual([
      'm:Map(String, Array(Decimal(10, 2)))@7-45',
    ])
  })

  it('canonicalizes aliases and multi-word SQL type names', () => {
    expect(
      found('{a:INT} {b:DOUBLE PRECISION} {c:INT(11) UNSIGNED} {d:VARCHAR(255)} {e:bigint signed}'),
    ).toEqual(['a:Int32@0-7', 'b:Float64@8-28', 'c:UInt32@29-49', 'd:String@50-66', 'e:Int64@67-84'])
    expect(found("{x:Enum('a' = 1, 'b' = 200)} {y:Enum('a' = 1)}")).toEqual([
      "x:Enum16('a' = 1, 'b' = 200)@0-28",
      "y:Enum8('a' = 1)@29-46",
    ])
    expect(found('{n:Nullable(TEXT)} {f:FLOAT(12)}')).toEqual(['n:Nullable(String)@0-18', 'f:Float32@19-32'])
  })

  it('ignores braces inside string literals, with both escape styles', () => {
    expect(found("SELECT '{x:String}'")).toEqual([])
    expect(found("SELECT 'it\\'s {x:String}', {y:UInt8}")).toEqual(['y:UInt8@27-36'])
    expect(found("SELECT 'it''s {x:String}', {y:UInt8}")).toEqual(['y:UInt8@27-36'])
    expect(found("SELECT 'a\\\\', {y:UInt8}")).toEqual(['y:UInt8@14-23'])
    expect(found('SELECT \'{"a":{x:String}}\'')).toEqual([])
    expect(found("SELECT format('{}-{x:String}', 'a')")).toEqual([])
  })

  it('ignores braces inside quoted identifiers', () => {
    expect(found('SELECT 1 AS "{x:String}", 2 AS `{y:String}`, {z:UInt8}')).toEqual(['z:UInt8@45-54'])
    expect(found('SELECT 1 AS `a\\`{x:String}`')).toEqual([])
  })

  it('ignores braces inside comments of every kind', () => {
    expect(found('SELECT 1 -- {x:String}\n, {y:UInt8}')).toEqual(['y:UInt8@25-34'])
    expect(found('SELECT 1 // {x:String}\n, {y:UInt8}')).toEqual(['y:UInt8@25-34'])
    expect(found('SELECT 1 # {x:String}\n, {y:UInt8}')).toEqual(['y:UInt8@24-33'])
    expect(found('#!/bin/clickhouse {x:String}\nSELECT {y:UInt8}')).toEqual(['y:UInt8@36-45'])
    expect(found('SELECT 1 /* {x:String} */, {y:UInt8}')).toEqual(['y:UInt8@27-36'])
    // Comments nest: the first */ does not end the outer one.
    expect(found('SELECT 1 /* a /* b */ {x:String} */, {y:UInt8}')).toEqual(['y:UInt8@37-46'])
  })

  it('treats # as a comment only before a space or !', () => {
    expect(found('SELECT #{x:String}')).toEqual(['x:String@8-18'])
  })

  it('ignores braces inside heredocs', () => {
    expect(found('SELECT $${x:String}$$, {y:UInt8}')).toEqual(['y:UInt8@23-32'])
    // biome-ignore lint/suspicious/noTemplateCurlyInString: SQL heredoc syntax, not a template
    expect(found('SELECT $tag${x:String} $$ $tag$, {y:UInt8}')).toEqual(['y:UInt8@33-42'])
    // No closing tag: `$a` is a bare word and the placeholder counts.
    expect(found('SELECT $a {x:String}')).toEqual(['x:String@10-20'])
    expect(found('SELECT $a$ {x:String}')).toEqual(['x:String@11-21'])
    // `$` inside a word does not start a heredoc.
    expect(found('SELECT a$b, {x:String}, c$b')).toEqual(['x:String@12-22'])
  })

  it('swallows the rest of the text after an unclosed string or comment, like the server', () => {
    expect(found("SELECT 'abc {x:String}")).toEqual([])
    expect(found('SELECT /* {x:String}')).toEqual([])
    expect(found("SELECT x'0g {x:String}'")).toEqual([])
  })

  it('skips hex and binary string literals', () => {
    expect(found("SELECT x'4142', b'0101', {y:UInt8}")).toEqual(['y:UInt8@25-34'])
  })

  it('follows the number lexer: an exponent sign is not a comment', () => {
    // `1e-` is one number token, so `-{x:...}` is a minus and a placeholder, not `--`.
    expect(found('SELECT 1e--{x:Int8}')).toEqual(['x:Int8@11-19'])
    expect(found('SELECT 1 --{x:Int8}')).toEqual([])
  })

  it('leaves braces alone that do not have the {identifier:Type} shape', () => {
    expect(found("SELECT {'a': 1}")).toEqual([])
    expect(found('SELECT {x::String}')).toEqual([])
    expect(found('SELECT {x:}')).toEqual([])
    expect(found('SELECT {x:String')).toEqual([])
    expect(found('SELECT {123:String}')).toEqual([])
    expect(found('SELECT {"x":String}')).toEqual([])
    expect(found('SELECT {x:Array(String}')).toEqual([])
    expect(found('SELECT {x:String)}')).toEqual([])
    expect(found('SELECT {{x:String}}')).toEqual(['x:String@8-18'])
  })

  it('accepts the bare words the server accepts as names', () => {
    expect(found('SELECT {select:String}, {_a1:UInt8}, {1a:UInt8}, {$x:UInt8}')).toEqual([
      'select:String@7-22',
      '_a1:UInt8@24-35',
      '1a:UInt8@37-47',
      '$x:UInt8@49-59',
    ])
  })

  it('reports a type it cannot read instead of guessing', () => {
    const [placeholder] = scanPlaceholders('SELECT {x:Foo Bar Baz}')
    expect(placeholder!.type).toBeUndefined()
    expect(placeholder!.typeText).toBe('Foo Bar Baz')
    expect(placeholder!.typeError!.message).toMatch(
      /^cannot read the type of placeholder \{x:Foo Bar Baz\} at offset 7/,
    )
  })

  it('counts offsets in UTF-16 code units', () => {
    expect(found("SELECT '😀é', {x:String}")).toEqual(['x:String@14-24'])
  })
})
