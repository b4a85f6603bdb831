// The sql tag: values become typed parameters (never SQL text), identifiers and raw SQL go in
// through sql.id and sql.raw, and `{name:Type}` placeholders take `params`. Same on both
// transports (18.16 has no server-side parameters: both substitute typed literals). A value's
// type follows the server: 18.16 has no Bool and no DateTime64, 26.x has both.
import { describe, expect, it } from 'vitest'
import { sql, UsageError } from '../src/index.js'
import { clientFor, server, transports } from './support/transports.js'

const modern = server.generation === 'modern'

describe.each(transports)('%s', (transport) => {
  it('sends each interpolated value as a parameter typed from the JS value', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query(
      sql`SELECT ${1} AS int, ${1.5} AS float, ${-5n} AS big, ${2n ** 63n} AS unsigned, ${"it's"} AS text,
        ${true} AS flag, toString(${new Date('2020-01-02T03:04:05Z')}) AS date, ${[1, 2]} AS ints,
        ${null} AS nothing, ${['a', null]} AS texts, ${[[1.5], []]} AS nested`,
    )
    expect(rs.meta.map((column) => [column.name, column.type])).toEqual([
      ['int', 'Int64'],
      ['float', 'Float64'],
      ['big', 'Int64'],
      ['unsigned', 'UInt64'],
      ['text', 'String'],
      // 18.16 has no Bool: booleans are UInt8 0/1.
      ['flag', modern ? 'Bool' : 'UInt8'],
      ['date', 'String'],
      ['ints', 'Array(Int64)'],
      ['nothing', 'Nullable(Nothing)'],
      ['texts', 'Array(Nullable(String))'],
      ['nested', 'Array(Array(Float64))'],
    ])
    expect(await rs.rows()).toEqual([
      {
        int: 1n,
        float: 1.5,
        big: -5n,
        unsigned: 2n ** 63n,
        text: "it's",
        flag: modern ? true : 1,
        // A Date is a DateTime64(3, 'UTC'); 18.16 has no DateTime64, and there a Date of
        // whole seconds is a DateTime('UTC').
        date: modern ? '2020-01-02 03:04:05.000' : '2020-01-02 03:04:05',
        ints: [1n, 2n],
        nothing: null,
        texts: ['a', null],
        nested: [[1.5], []],
      },
    ])
  })

  it('never lets a value become SQL', async () => {
    await using ch = clientFor(transport)
    const hostile = ["'; DROP TABLE users; --", 'back\\slash', 'quote\'s "double"', '{p0:String}', '\n\t\0']
    for (const value of hostile) {
      const rows = await (await ch.query<{ v: string }>(sql`SELECT ${value} AS v`)).rows()
      expect(rows).toEqual([{ v: value }])
    }
  })

  it('quotes identifiers with sql.id and inserts SQL with sql.raw', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query(
      sql`SELECT ${sql.raw('1 + 1')} AS two, dummy AS ${sql.id('odd name`')} FROM ${sql.id('system', 'one')}`,
    )
    expect(rs.meta.map((column) => column.name)).toEqual(['two', 'odd name`'])
    expect(await rs.rows()).toEqual([{ two: 2, 'odd name`': 0 }])
  })

  it('types a value explicitly with sql.typed, and composes fragments with sql.join', async () => {
    await using ch = clientFor(transport)
    const conditions = [sql`number > ${2}`, sql`number < ${sql.typed(6, 'UInt8')}`]
    const rs = await ch.query(
      sql`SELECT number, ${sql.typed(7, 'UInt8')} AS seven FROM numbers(10) WHERE ${sql.join(conditions, sql` AND `)}`,
    )
    expect(rs.meta.map((column) => column.type)).toEqual(['UInt64', 'UInt8'])
    expect(await rs.rows()).toEqual([
      { number: 3n, seven: 7 },
      { number: 4n, seven: 7 },
      { number: 5n, seven: 7 },
    ])
    const list = await (await ch.query(sql`SELECT ${sql.join([1, 2, 3])} `)).arrays()
    expect(list).toEqual([[1n, 2n, 3n]])
  })

  it('fills {name:Type} placeholders from params, in queries and commands', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query('SELECT {d:Date} AS d, {n:UInt8} + 1 AS n, {s:Array(String)} AS s', {
      params: { d: '2017-01-04', n: 41, s: ['x', "y'z"] },
    })
    expect(await rs.rows()).toEqual([{ d: '2017-01-04', n: 42, s: ['x', "y'z"] }])
    await ch.command('SELECT {n:UInt8}', { params: { n: 1 } })
  })

  it('sends a Date with milliseconds as DateTime64(3), and refuses it where the server has none', async () => {
    await using ch = clientFor(transport)
    const query = sql`SELECT toString(${new Date('2020-01-01T00:00:00.5Z')}) AS at`
    // 18.16 has no DateTime64, and DateTime('UTC') would drop the milliseconds: the client
    // refuses before sending anything rather than send a different instant.
    if (modern) expect(await (await ch.query(query)).rows()).toEqual([{ at: '2020-01-01 00:00:00.500' }])
    else await expect(ch.query(query)).rejects.toBeInstanceOf(UsageError)
  })

  it('refuses what it cannot type exactly, before anything is sent', async () => {
    await using ch = clientFor(transport)
    await expect(ch.query(sql`SELECT ${[1, 'a']}`)).rejects.toBeInstanceOf(UsageError)
    await expect(ch.query(sql`SELECT ${1}`, { params: { p0: 2 } })).rejects.toThrow('given twice')
  })
})

describe.each(transports)('placeholders and lists over %s', (transport) => {
  it('names a {name:Type} placeholder left without a value, also when no params are given', async () => {
    await using ch = clientFor(transport)
    // Sent as it is, the server would answer with a SYNTAX_ERROR that names nothing.
    for (const params of [undefined, {}, { b: 1 }]) {
      const error = await ch.query('SELECT {a:UInt8} AS a', { params }).catch((caught: unknown) => caught)
      expect(UsageError.isInstance(error), String(error)).toBe(true)
      expect((error as Error).message).toBe('no value for placeholder {a:UInt8} at offset 7')
    }
    await expect(ch.command('SELECT {a:UInt8}')).rejects.toThrow(
      'no value for placeholder {a:UInt8} at offset 7',
    )
    // A brace inside a string literal is no placeholder.
    expect(await (await ch.query("SELECT '{a:UInt8}' AS s")).rows()).toEqual([{ s: '{a:UInt8}' }])
  })

  it('ignores a param no placeholder uses, as ClickHouse does', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query('SELECT {a:UInt8} AS a', { params: { a: 1, unused: 'x' } })
    expect(await rs.rows()).toEqual([{ a: 1 }])
  })

  it('refuses an array inside IN (...), pointing to has() and sql.join, which both work', async () => {
    await using ch = clientFor(transport)
    const ids = [1, 3]
    const error = await ch
      .query(sql`SELECT number FROM numbers(5) WHERE number NOT IN (${ids})`)
      .catch((caught: unknown) => caught)
    expect(UsageError.isInstance(error), String(error)).toBe(true)
    expect((error as Error).message).toContain(`has(\${array}, column)`)
    expect((error as Error).message).toContain(`IN (\${sql.join(array)})`)
    const viaHas = await ch.query(
      sql`SELECT number FROM numbers(5) WHERE has(${ids}, number) ORDER BY number`,
    )
    expect(await viaHas.rows()).toEqual([{ number: 1n }, { number: 3n }])
    const viaJoin = await ch.query(
      sql`SELECT number FROM numbers(5) WHERE number IN (${sql.join(ids)}) ORDER BY number`,
    )
    expect(await viaJoin.rows()).toEqual([{ number: 1n }, { number: 3n }])
    // An empty list has no element type to infer (Array(Nothing), which 18.16's has() refuses)
    // and sql.join would leave `IN ()`: give the type with sql.typed.
    const none = await ch.query(
      sql`SELECT number FROM numbers(5) WHERE has(${sql.typed([], 'Array(UInt64)')}, number)`,
    )
    expect(await none.rows()).toEqual([])
  })
})
