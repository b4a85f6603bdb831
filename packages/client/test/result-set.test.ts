// Every way of reading a result, over every type 18.16 can store, on both transports with
// the same expectations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UsageError } from '../src/index.js'
import { clientFor, transports, uniqueTable } from './support/transports.js'
import { catalog, catalogDefinitions, catalogRows, catalogValues } from './support/type-catalog.js'

/** The typed array columns() gives per numeric type (default mapping). */
const typedArrays: Record<string, new (length: number) => ArrayLike<unknown>> = {
  Int8: Int8Array,
  Int16: Int16Array,
  Int32: Int32Array,
  Int64: BigInt64Array,
  UInt8: Uint8Array,
  UInt16: Uint16Array,
  UInt32: Uint32Array,
  UInt64: BigUint64Array,
  Float32: Float32Array,
  Float64: Float64Array,
}

const table = uniqueTable('result_catalog')
const expectedRows = catalogRows()
const names = catalog.map((column) => column.name)

beforeAll(async () => {
  // Rows in the statement text need HTTP (the native protocol sends rows as blocks).
  await using ch = clientFor('http')
  await ch.command(`CREATE TABLE ${table} (${catalogDefinitions()}) ENGINE = Memory`)
  // One block per row, so that results can come in several blocks.
  for (const row of catalogValues()) await ch.command(`INSERT INTO ${table} VALUES ${row}`)
})

afterAll(async () => {
  await using ch = clientFor('native')
  await ch.command(`DROP TABLE IF EXISTS ${table}`)
})

describe.each(transports)('%s', (transport) => {
  const select = `SELECT ${names.map((name) => `\`${name}\``).join(', ')} FROM ${table} ORDER BY i8`

  it('gives every column name and ClickHouse type in meta', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query(select)
    expect(rs.meta.map((column) => [column.name, column.type])).toEqual(
      catalog.map((column) => [column.name, column.type]),
    )
    await rs.cancel()
  })

  it('reads every type as row objects', async () => {
    await using ch = clientFor(transport)
    expect(await (await ch.query(select)).rows()).toEqual(expectedRows)
  })

  it('reads every type as arrays of values in column order', async () => {
    await using ch = clientFor(transport)
    expect(await (await ch.query(select)).arrays()).toEqual(
      expectedRows.map((row) => names.map((name) => row[name])),
    )
  })

  it('streams the same rows by async iteration, one block at a time', async () => {
    await using ch = clientFor(transport)
    const rows: unknown[] = []
    for await (const row of await ch.query(select, { settings: { max_block_size: 1 } })) rows.push(row)
    expect(rows).toEqual(expectedRows)
  })

  it('keeps every row of an iteration right when later blocks reuse memory (scalar columns) and when they cannot (an Array column)', async () => {
    await using ch = clientFor(transport)
    const settings = { max_block_size: 10_000 }
    const kept: { n: bigint; s: string; f: number | null }[] = []
    const scalar = await ch.query<{ n: bigint; s: string; f: number | null }>(
      'SELECT number AS n, toString(number) AS s, if(number % 3 = 0, NULL, number / 2) AS f FROM system.numbers LIMIT 200000',
      { settings },
    )
    for await (const row of scalar) kept.push(row)
    expect(kept.length).toBe(200_000)
    const wrong = kept.filter(
      (row, i) => row.n !== BigInt(i) || row.s !== String(i) || row.f !== (i % 3 === 0 ? null : i / 2),
    )
    expect(wrong.slice(0, 3)).toEqual([])
    const arrays: { n: bigint; a: Uint32Array }[] = []
    const withArray = await ch.query<{ n: bigint; a: Uint32Array }>(
      'SELECT number AS n, [toUInt32(number), toUInt32(number * 2)] AS a FROM system.numbers LIMIT 100000',
      { settings },
    )
    for await (const row of withArray) arrays.push(row)
    const wrongArrays = arrays.filter((row, i) => row.n !== BigInt(i) || row.a[0] !== i || row.a[1] !== 2 * i)
    expect(wrongArrays.slice(0, 3)).toEqual([])
  })

  it('reads columns: typed arrays for numbers, arrays for the rest', async () => {
    await using ch = clientFor(transport)
    const columns = await (await ch.query(select)).columns()
    for (const column of catalog) {
      const values = columns[column.name]!
      const Typed = typedArrays[column.type]
      if (Typed) {
        expect(values, column.name).toBeInstanceOf(Typed)
        expect(Array.from(values), column.name).toEqual(column.values)
      } else {
        expect(Array.isArray(values), column.name).toBe(true)
        expect(values, column.name).toEqual(column.values)
      }
    }
  })

  it('joins the columns of several blocks into one typed array per numeric column', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query<{ n: number; s: string }>(
      'SELECT toUInt32(number) AS n, toString(number) AS s FROM system.numbers LIMIT 10',
      { settings: { max_block_size: 3 } },
    )
    const columns = await rs.columns()
    expect(columns.n).toEqual(new Uint32Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))
    expect(columns.s).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
  })

  it('streams columnar blocks with their own rows, arrays, columns and meta', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query(select, { settings: { max_block_size: 1 } })
    const blocks = []
    for await (const block of rs.blocks()) blocks.push(block)
    expect(blocks.map((block) => block.rowCount)).toEqual([1, 1, 1])
    expect(blocks.flatMap((block) => block.rows())).toEqual(expectedRows)
    expect(blocks.flatMap((block) => block.arrays())).toEqual(
      expectedRows.map((row) => names.map((name) => row[name])),
    )
    expect(blocks[0]!.meta).toEqual(catalog.map((column) => ({ name: column.name, type: column.type })))
    expect(blocks[2]!.columns().u32).toEqual(new Uint32Array([4294967295]))
    expect(blocks[1]!.columns().s).toEqual(['hello'])
  })

  it('reads every type block by block with reused memory, each block used inside the loop', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query(select, { settings: { max_block_size: 1 } })
    const rows: unknown[] = []
    for await (const block of rs.blocks({ reuseMemory: true })) rows.push(...block.rows())
    expect(rows).toEqual(expectedRows)
  })

  it('scans millions of rows with reused memory, every value right', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query('SELECT number, number % 7 AS m FROM system.numbers LIMIT 2000000')
    let next = 0n
    for await (const block of rs.blocks({ reuseMemory: true })) {
      const [numbers, remainders] = block.values() as [BigUint64Array, Uint8Array]
      for (let row = 0; row < block.rowCount; row++, next++) {
        if (numbers[row] !== next || remainders[row] !== Number(next % 7n)) {
          throw new Error(`row ${next}: ${numbers[row]}, ${remainders[row]}`)
        }
      }
    }
    expect(next).toBe(2_000_000n)
  })

  it('reads the types only expressions have: Interval, Nothing, Array(Nothing), AggregateFunction', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query(
      'SELECT toIntervalDay(number) AS iv, NULL AS nothing, [] AS empty, sumState(toUInt64(number + 5)) AS state FROM numbers(1) GROUP BY number',
    )
    expect(rs.meta.map((column) => column.type)).toEqual([
      'IntervalDay',
      'Nullable(Nothing)',
      'Array(Nothing)',
      'AggregateFunction(sum, UInt64)',
    ])
    expect(await rs.rows()).toEqual([
      { iv: 0n, nothing: null, empty: [], state: new Uint8Array([5, 0, 0, 0, 0, 0, 0, 0]) },
    ])
  })

  it('gives an empty result its columns too', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query('SELECT toUInt8(1) AS a, [toString(2)] AS b WHERE 0')
    expect(rs.meta.map((column) => [column.name, column.type])).toEqual([
      ['a', 'UInt8'],
      ['b', 'Array(String)'],
    ])
    expect(await rs.rows()).toEqual([])
    const empty = await (await ch.query(`SELECT i8, s FROM ${table} WHERE i8 = 100`)).columns()
    expect(empty).toEqual({ i8: [], s: [] })
    const arrow = await (await ch.query(`SELECT i8, s FROM ${table} WHERE i8 = 100`)).arrow()
    expect(arrow.numRows).toBe(0)
    expect(arrow.schema.fields.map((field) => `${field.name}: ${field.type}`)).toEqual([
      'i8: Int8',
      's: Utf8',
    ])
  })

  it('has no columns for a statement without a result', async () => {
    await using ch = clientFor(transport)
    const scratch = uniqueTable(`no_result_${transport}`)
    const rs = await ch.query(`CREATE TABLE ${scratch} (x UInt8) ENGINE = Memory`)
    expect(rs.meta).toEqual([])
    expect(await rs.rows()).toEqual([])
    await ch.command(`DROP TABLE ${scratch}`)
  })

  it('carries the query id, given or generated, and the server runs the query under it', async () => {
    await using ch = clientFor(transport)
    await using observer = clientFor(transport)
    const given = `given-${transport}-${Date.now()}`
    // Runs 4 s: long enough to be seen in system.processes from another connection, also on
    // a loaded machine (where each look takes a while); it is looked for while it runs.
    const sql = 'SELECT sleep(0.4) AS s FROM system.numbers LIMIT 10 SETTINGS max_block_size = 1'
    const pending = ch.query(sql, { queryId: given })
    let seen: unknown[] = []
    for (const until = Date.now() + 4_000; Date.now() < until && seen.length === 0; ) {
      const running = await observer.query(`SELECT query FROM system.processes WHERE query_id = '${given}'`)
      seen = await running.rows()
      if (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(seen).toEqual([{ query: sql }])
    const rs = await pending
    expect(rs.queryId).toBe(given)
    expect(await rs.rows()).toEqual(Array.from({ length: 10 }, () => ({ s: 0 })))
    const generated = await ch.query('SELECT 1 AS x')
    expect(generated.queryId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    await generated.rows()
  })

  it('is consumed once; a second read is a UsageError', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query('SELECT 1 AS x')
    expect(await rs.rows()).toEqual([{ x: 1 }])
    await expect(rs.rows()).rejects.toSatisfy(UsageError.isInstance)
    await expect(rs.columns()).rejects.toSatisfy(UsageError.isInstance)
  })

  it('cancels the query when the loop breaks, and the client goes on', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query<{ number: bigint }>('SELECT number FROM system.numbers', {
      settings: { max_block_size: 100 },
    })
    let seen = 0
    for await (const row of rs) {
      expect(row.number).toBe(BigInt(seen))
      if (++seen === 250) break
    }
    expect(seen).toBe(250)
    expect(await (await ch.query('SELECT 2 AS y')).rows()).toEqual([{ y: 2 }])
  })

  it('releases an unread result with await using', async () => {
    await using ch = clientFor(transport, { maxConnections: 1 })
    {
      await using rs = await ch.query('SELECT number FROM system.numbers')
      expect(rs.meta.map((column) => column.name)).toEqual(['number'])
    }
    // With one connection allowed, this only works if the first result let go of it.
    expect(await (await ch.query('SELECT 3 AS z')).rows()).toEqual([{ z: 3 }])
  })

  it('never mixes WITH TOTALS and extremes rows into the result rows', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query(
      'SELECT number % 2 AS k, count() AS c FROM numbers(5) GROUP BY k WITH TOTALS ORDER BY k',
      { settings: { extremes: 1 } },
    )
    expect(await rs.rows()).toEqual([
      { k: 0, c: 3n },
      { k: 1, c: 2n },
    ])
  })
})
