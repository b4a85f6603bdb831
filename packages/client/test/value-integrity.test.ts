// No value silently changed or lost, and insert errors that name the right place: on both
// transports with the same expectations.
import { describe, expect, it } from 'vitest'
import { type Client, sql, UsageError } from '../src/index.js'
import { clientFor, transports, uniqueTable } from './support/transports.js'

const surrogate =
  'contains a lone UTF-16 surrogate, which has no UTF-8 encoding; pass a Uint8Array to store arbitrary bytes'

async function thrown(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a rejection')
}

async function withTable(ch: Client, columns: string, run: (table: string) => Promise<void>) {
  const table = uniqueTable('integrity')
  await ch.command(`CREATE TABLE ${table} (${columns}) ENGINE = Memory`)
  try {
    await run(table)
  } finally {
    await ch.command(`DROP TABLE IF EXISTS ${table}`)
  }
}

async function rowsOf(ch: Client, query: string): Promise<unknown[][]> {
  return (await ch.query(query)).arrays()
}

describe.each(transports)('%s', (transport) => {
  it('refuses a lone surrogate in a String or FixedString insert; stores pairs and bytes exactly', async () => {
    await using ch = clientFor(transport)
    await withTable(ch, 'i UInt8, s String, f FixedString(8)', async (table) => {
      const good = [
        [0, 'é😀', 'é😀'],
        [1, new Uint8Array([0xed, 0xa0, 0x80]), new Uint8Array([0xff])],
      ]
      const bad = await thrown(() => ch.insert(table, [...good, [2, 'a\ud800', 'x']]))
      expect(bad).toBeInstanceOf(UsageError)
      expect(bad.message).toBe(
        `column [1] "s" String: row 2: "a\\ud800" is not a valid String (${surrogate})`,
      )
      const badFixed = await thrown(() => ch.insert(table, [...good, [2, 'x', '\udc00']]))
      expect(badFixed).toBeInstanceOf(UsageError)
      expect(badFixed.message).toBe(
        `column [2] "f" FixedString(8): row 2: "\\udc00" is not a valid FixedString(8) (${surrogate})`,
      )
      expect(await rowsOf(ch, `SELECT count() FROM ${table}`)).toEqual([[0n]])
      await ch.insert(table, good)
      expect(await rowsOf(ch, `SELECT i, hex(s), hex(f) FROM ${table} ORDER BY i`)).toEqual([
        [0, 'C3A9F09F9880', 'C3A9F09F98800000'],
        [1, 'EDA080', 'FF00000000000000'],
      ])
    })
  })

  it('refuses an empty sql.id() name and a lone surrogate in one before sending', async () => {
    await using ch = clientFor(transport)
    expect(() => sql`SELECT 1 FROM ${sql.id('')}`).toThrow(new UsageError('sql.id(): name [0] is empty'))
    expect(() => sql.id('db', 'a\ud800')).toThrow(
      new UsageError(
        'sql.id(): name [1] "a\\ud800" contains a lone UTF-16 surrogate, which has no UTF-8 encoding',
      ),
    )
    expect(() => sql.id('db', '')).toThrow(UsageError)
    expect(await (await ch.query(sql`SELECT 1 AS ${sql.id('é😀')}`)).rows()).toEqual([{ 'é😀': 1 }])
  })

  it('keeps __proto__, constructor, toString and hasOwnProperty columns as own properties', async () => {
    await using ch = clientFor(transport)
    const query = 'SELECT 1 AS `__proto__`, 2 AS constructor, 3 AS toString, 4 AS hasOwnProperty'
    const rows = (await (await ch.query(query)).rows()) as Record<string, unknown>[]
    expect(rows.length).toBe(1)
    const row = rows[0]!
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
    expect(Object.entries(row)).toEqual([
      ['__proto__', 1],
      ['constructor', 2],
      ['toString', 3],
      ['hasOwnProperty', 4],
    ])
    const columns = (await (await ch.query(query)).columns()) as Record<string, ArrayLike<number>>
    expect(Object.getPrototypeOf(columns)).toBe(Object.prototype)
    expect(Object.entries(columns).map(([name, values]) => [name, Array.from(values)])).toEqual([
      ['__proto__', [1]],
      ['constructor', [2]],
      ['toString', [3]],
      ['hasOwnProperty', [4]],
    ])
    for await (const block of (await ch.query(query)).blocks()) {
      expect(Object.keys(block.columns())).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
      expect(Object.keys(block.rows()[0]!)).toEqual([
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
      ])
    }
  })

  it('refuses rows() and columns() of a result with two columns of one name; arrays() keeps both', async () => {
    await using ch = clientFor(transport)
    const message = (method: string) =>
      `${method}: the result has two columns named "a", and an object keyed by name would keep only one; alias them apart (AS) or use arrays() or blocks()`
    const rs = await ch.query('SELECT a, a FROM (SELECT 1 AS a)')
    await expect(rs.rows()).rejects.toThrow(new UsageError(message('rows()')))
    await expect(rs.columns()).rejects.toThrow(new UsageError(message('columns()')))
    expect(await rs.arrays()).toEqual([[1, 1]])
    const blocks = await ch.query('SELECT a, a FROM (SELECT 1 AS a)')
    for await (const block of blocks.blocks()) {
      expect(() => block.rows()).toThrow(new UsageError(message('rows()')))
      expect(() => block.columns()).toThrow(new UsageError(message('columns()')))
      expect(block.arrays()).toEqual([[1, 1]])
    }
  })

  it('gives an empty result its columns whatever ends the query', async () => {
    await using ch = clientFor(transport)
    const base = "SELECT toUInt8(1) AS x, 'a' AS s WHERE 0"
    for (const query of [
      base,
      `${base} -- a comment`,
      `${base} FORMAT Native`,
      `${base}\nFORMAT Native; -- why`,
      `${base} /* ) */ ;`,
    ]) {
      const rs = await ch.query(query)
      expect(rs.meta.map(({ name, type }) => [name, type])).toEqual([
        ['x', 'UInt8'],
        ['s', 'String'],
      ])
      expect(await rs.rows()).toEqual([])
    }
  })

  it('names the row of the whole insert across blocks, and the element inside arrays', async () => {
    await using ch = clientFor(transport, { insertBlockRows: 65536 })
    await withTable(ch, 'n UInt8, tags Array(UInt8)', async (table) => {
      const rows = Array.from({ length: 100_000 }, (_, i) => ({ n: i === 70_000 ? 'x' : i % 200, tags: [] }))
      const far = await thrown(() => ch.insert(table, rows))
      expect(far).toBeInstanceOf(UsageError)
      expect(far.message).toBe('column [0] "n" UInt8: row 70000: "x" is not a valid UInt8')
      const arrays = [[1], [], [2, 3], [4], [5, 6, 7], [8, 9, 'x'], [10]].map((tags) => ({ n: 1, tags }))
      const inner = await thrown(() => ch.insert(table, arrays))
      expect(inner).toBeInstanceOf(UsageError)
      expect(inner.message).toBe(
        'column [1] "tags" Array(UInt8): row 5, element [2]: "x" is not a valid UInt8',
      )
    })
    await withTable(ch, 'tags Array(UInt8)', async (table) => {
      // One block: refused before anything is sent.
      const inner = await thrown(() => ch.insert(table, [{ tags: [1, 2] }, { tags: [3, -1] }]))
      expect(inner.message).toBe(
        'column [0] "tags" Array(UInt8): row 1, element [1]: -1 is not a valid UInt8 (out of range)',
      )
      expect(await rowsOf(ch, `SELECT count() FROM ${table}`)).toEqual([[0n]])
    })
  })

  it('refuses a Nested column whose arrays differ in length in one row, naming the row', async () => {
    await using ch = clientFor(transport)
    await withTable(ch, 'id UInt8, n Nested(a UInt8, b String)', async (table) => {
      const rows = [
        { id: 0, 'n.a': [1], 'n.b': ['x'] },
        { id: 1, 'n.a': [], 'n.b': [] },
        { id: 2, 'n.a': [1, 2], 'n.b': ['y', 'z'] },
        { id: 3, 'n.a': [1, 2], 'n.b': ['y'] },
      ]
      const error = await thrown(() => ch.insert(table, rows))
      expect(error).toBeInstanceOf(UsageError)
      expect(error.message).toBe(
        'row 3: the arrays of Nested "n" differ in length (n.a 2, n.b 1); each row needs arrays of one length',
      )
      await ch.insert(table, rows.slice(0, 3))
      expect(await rowsOf(ch, `SELECT id, n.a, n.b FROM ${table} ORDER BY id`)).toEqual([
        [0, [1], ['x']],
        [1, [], []],
        [2, [1, 2], ['y', 'z']],
      ])
    })
  })
})
