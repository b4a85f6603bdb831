import { legacyParameterFeatures, modernParameterFeatures, UsageError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { SqlFragment, sql } from './sql-template.js'

describe('sql', () => {
  it('compiles values to numbered typed placeholders, never to SQL text', () => {
    const name = "x'; DROP TABLE t; --"
    const compiled =
      sql`SELECT * FROM t WHERE id = ${42} AND name = ${name} AND tags IN ${['a', 'b']}`.compile()
    expect(compiled).toEqual({
      query: 'SELECT * FROM t WHERE id = {p0:Int64} AND name = {p1:String} AND tags IN {p2:Array(String)}',
      params: { p0: 42, p1: name, p2: ['a', 'b'] },
    })
  })

  it('infers each JS type', () => {
    const values = [1, 1.5, -1n, 2n ** 64n - 1n, 's', true, new Date(0), [1, null], null, new Map([['k', 1]])]
    const types = values.map((value) => /\{p0:(.*)\}/.exec(sql`${value as never}`.compile().query)![1])
    expect(types).toEqual([
      'Int64',
      'Float64',
      'Int64',
      'UInt64',
      'String',
      'Bool',
      "DateTime64(3, 'UTC')",
      'Array(Nullable(Int64))',
      'Nullable(Nothing)',
      'Map(String, Int64)',
    ])
  })

  it('compiles for an old server: UInt8 for booleans, DateTime for Dates', () => {
    expect(sql`${true} ${new Date(0)}`.compile(legacyParameterFeatures).query).toBe(
      "{p0:UInt8} {p1:DateTime('UTC')}",
    )
    expect(sql`${true}`.compile(modernParameterFeatures).query).toBe('{p0:Bool}')
  })

  it('quotes identifiers, inserts raw SQL, keeps explicit types, and nests fragments', () => {
    const where = sql`a = ${1}`
    const compiled =
      sql`SELECT ${sql.raw('count()')} FROM ${sql.id('my db', 'my`table')} WHERE ${where} AND b = ${sql.typed(2, 'UInt8')}`.compile()
    expect(compiled).toEqual({
      query: 'SELECT count() FROM `my db`.`my\\`table` WHERE a = {p0:Int64} AND b = {p1:UInt8}',
      params: { p0: 1, p1: 2 },
    })
  })

  it('joins fragments and values with a separator', () => {
    const joined = sql.join([sql`a = ${1}`, sql`b = ${2}`], sql` OR `)
    expect(joined.compile().query).toBe('a = {p0:Int64} OR b = {p1:Int64}')
    expect(sql`IN (${sql.join([1, 2, 3])})`.compile().query).toBe('IN ({p0:Int64}, {p1:Int64}, {p2:Int64})')
    expect(sql.join([]).compile().query).toBe('')
  })

  it('is recognized across copies of the package by its brand', () => {
    const fragment = sql`SELECT 1`
    expect(SqlFragment.isInstance(fragment)).toBe(true)
    expect(SqlFragment.isInstance({ strings: [], values: [] })).toBe(false)
    expect(String(sql`SELECT ${1}`)).toBe('SELECT {p0:Int64}')
  })

  it('refuses values it cannot type when compiled', () => {
    expect(() => sql`${[1, 'a'] as never}`.compile()).toThrow('cannot infer a ClickHouse type')
    expect(() => sql.id()).toThrow('at least one name')
  })

  it('refuses an empty identifier and one with a lone surrogate, keeps surrogate pairs', () => {
    expect(() => sql.id('')).toThrow(new UsageError('sql.id(): name [0] is empty'))
    expect(() => sql.id('db', '\udc00')).toThrow(
      new UsageError(
        'sql.id(): name [1] "\\udc00" contains a lone UTF-16 surrogate, which has no UTF-8 encoding',
      ),
    )
    expect(sql`SELECT 1 AS ${sql.id('😀')}`.compile().query).toBe('SELECT 1 AS `😀`')
  })
})

describe('an array inside IN (...)', () => {
  it('is refused with the forms that work', () => {
    expect(() => sql`SELECT 1 WHERE x IN (${[1, 2]})`.compile()).toThrow(UsageError)
    expect(() => sql`SELECT 1 WHERE x global not in ( ${new Uint8Array(2)} )`.compile()).toThrow(
      `write has(\${array}, column)`,
    )
    expect(sql`SELECT 1 WHERE x IN (${sql.join([1, 2])})`.compile().query).toBe(
      'SELECT 1 WHERE x IN ({p0:Int64}, {p1:Int64})',
    )
    expect(sql`SELECT 1 WHERE has(${[1, 2]}, x)`.compile().query).toBe(
      'SELECT 1 WHERE has({p0:Array(Int64)}, x)',
    )
    // An array as one element of a longer list is a value of its own, not the list.
    expect(sql`SELECT 1 WHERE a IN (${[1]}, ${[2]})`.compile().query).toBe(
      'SELECT 1 WHERE a IN ({p0:Array(Int64)}, {p1:Array(Int64)})',
    )
  })
})
