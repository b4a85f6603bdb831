// insert(table, values): every input shape, every type 18.16 stores, blocks of insertBlockRows
// however small the chunks, and bounded memory for long inputs. Same on both transports.
import { DateDay, Field, Int32, List, Table, tableFromArrays, Utf8, vectorFromArray } from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { ClickHouseError, type Client, UsageError } from '../src/index.js'
import { clientFor, server, thrown, transports, uniqueTable } from './support/transports.js'
import { catalog, catalogDefinitions, catalogRows } from './support/type-catalog.js'

/** A fresh table for one test (Memory unless told), dropped afterwards. */
async function withTable(
  ch: Client,
  prefix: string,
  columns: string,
  run: (table: string) => Promise<void>,
  engine = 'Memory',
): Promise<void> {
  const table = uniqueTable(prefix)
  await ch.command(`CREATE TABLE ${table} (${columns}) ENGINE = ${engine}`)
  try {
    await run(table)
  } finally {
    await ch.command(`DROP TABLE IF EXISTS ${table}`)
  }
}

async function rowsOf(ch: Client, sql: string): Promise<Record<string, unknown>[]> {
  return (await ch.query(sql)).rows()
}

/**
 * A table that shows each insert block the server received: a MergeTree writes one part per
 * block, and its merges are stopped. (A Memory table no longer does on 26.x: it squashes
 * the blocks of one INSERT into one when the INSERT ends, and only then shows any rows.)
 */
const partPerBlock = 'MergeTree ORDER BY tuple()'

/** How many parts of each size a `partPerBlock` table has, i.e. blocks the client sent. */
async function blockSizes(ch: Client, table: string): Promise<{ rows: number; blocks: number }[]> {
  const sizes = await rowsOf(
    ch,
    `SELECT rows AS size, count() AS c FROM system.parts
     WHERE database = currentDatabase() AND table = '${table}' AND active GROUP BY size ORDER BY size`,
  )
  return sizes.map(({ size, c }) => ({ rows: Number(size), blocks: Number(c) }))
}

/** Server settings that keep each block the client sends as one block of the table. */
const keepBlocks = { min_insert_block_size_rows: 0, min_insert_block_size_bytes: 0 }

const pairRows = [
  { id: 1, name: 'a' },
  { id: 2, name: 'b' },
  { id: 3, name: 'c' },
]

describe.each(transports)('%s', (transport) => {
  it('inserts every type 18.16 stores, from row objects, and reads the same rows back', async () => {
    await using ch = clientFor(transport)
    await withTable(ch, 'insert_catalog', catalogDefinitions(), async (table) => {
      const result = await ch.insert(table, catalogRows())
      expect(result.rowsWritten).toBe(3)
      const names = catalog.map((column) => `\`${column.name}\``).join(', ')
      expect(await rowsOf(ch, `SELECT ${names} FROM ${table} ORDER BY i8`)).toEqual(catalogRows())
    })
  })

  it('inserts rows as arrays in column order, columns, and Arrow tables', async () => {
    await using ch = clientFor(transport)
    await withTable(ch, 'insert_shapes', 'id UInt32, name String', async (table) => {
      expect((await ch.insert(table, [[1, 'a']])).rowsWritten).toBe(1)
      expect((await ch.insert(table, { id: new Uint32Array([2, 3]), name: ['b', 'c'] })).rowsWritten).toBe(2)
      const arrow = tableFromArrays({ id: new Uint32Array([4, 5]), name: ['d', 'e'] })
      expect((await ch.insert(table, arrow)).rowsWritten).toBe(2)
      expect(await rowsOf(ch, `SELECT * FROM ${table} ORDER BY id`)).toEqual([
        { id: 1, name: 'a' },
        { id: 2, name: 'b' },
        { id: 3, name: 'c' },
        { id: 4, name: 'd' },
        { id: 5, name: 'e' },
      ])
    })
  })

  it('inserts from iterables and async iterables of rows, chunks, columns and record batches', async () => {
    await using ch = clientFor(transport)
    await withTable(ch, 'insert_iterables', 'id UInt32, name String', async (table) => {
      function* oneByOne() {
        yield* pairRows
      }
      async function* chunks() {
        yield pairRows.slice(0, 2)
        yield [pairRows[2]!]
      }
      async function* columns() {
        yield { id: [1, 2], name: ['a', 'b'] }
        yield { id: new Uint32Array([3]), name: ['c'] }
      }
      async function* batches() {
        yield* tableFromArrays({ id: new Uint32Array([1, 2, 3]), name: ['a', 'b', 'c'] }).batches
      }
      for (const source of [oneByOne(), chunks(), columns(), batches()]) {
        const result = await ch.insert(table, source)
        expect(result.rowsWritten).toBe(3)
        expect(await rowsOf(ch, `SELECT * FROM ${table} ORDER BY id`)).toEqual(pairRows)
        await ch.command(`TRUNCATE TABLE ${table}`)
      }
    })
  })

  it('inserts Arrow columns with nulls, lists and timestamps into the matching types', async () => {
    await using ch = clientFor(transport)
    const columns = "n Nullable(Int32), tags Array(String), at DateTime('UTC'), d Date"
    await withTable(ch, 'insert_arrow_types', columns, async (table) => {
      const arrow = new Table({
        n: vectorFromArray([1, null, 3], new Int32()),
        tags: vectorFromArray([['x'], [], ['y', 'z']], new List(new Field('item', new Utf8(), false))),
        at: vectorFromArray([
          new Date('2020-01-01T00:00:01Z'),
          new Date('2021-06-15T12:30:00Z'),
          new Date('1999-12-31T23:59:59Z'),
        ]),
        d: vectorFromArray(
          [Date.parse('2020-02-29'), Date.parse('1970-01-01'), Date.parse('2038-01-19')],
          new DateDay(),
        ),
      })
      expect((await ch.insert(table, arrow)).rowsWritten).toBe(3)
      expect(await rowsOf(ch, `SELECT * FROM ${table} ORDER BY at`)).toEqual([
        { n: 3, tags: ['y', 'z'], at: '1999-12-31 23:59:59', d: '2038-01-19' },
        { n: 1, tags: ['x'], at: '2020-01-01 00:00:01', d: '2020-02-29' },
        { n: null, tags: [], at: '2021-06-15 12:30:00', d: '1970-01-01' },
      ])
    })
  })

  it('inserts into the named columns; the others get their defaults', async () => {
    await using ch = clientFor(transport)
    await withTable(
      ch,
      'insert_defaults',
      "id UInt32, name String DEFAULT 'none', n UInt8 DEFAULT 7",
      async (table) => {
        await ch.insert(table, [{ id: 1 }])
        await ch.insert(table, [[2, 'two']], { columns: ['id', 'name'] })
        expect(await rowsOf(ch, `SELECT * FROM ${table} ORDER BY id`)).toEqual([
          { id: 1, name: 'none', n: 7 },
          { id: 2, name: 'two', n: 7 },
        ])
      },
    )
  })

  it('sends blocks of insertBlockRows however small the chunks a generator yields', async () => {
    await using ch = clientFor(transport, { insertBlockRows: 1000 })
    await withTable(
      ch,
      'insert_coalesce',
      'x UInt32',
      async (table) => {
        await ch.command(`SYSTEM STOP MERGES ${table}`)
        async function* tenAtATime() {
          for (let start = 0; start < 2_500; start += 10) {
            yield Array.from({ length: 10 }, (_, i) => ({ x: start + i }))
          }
        }
        const result = await ch.insert(table, tenAtATime(), { settings: keepBlocks })
        expect(result.rowsWritten).toBe(2_500)
        expect(await blockSizes(ch, table)).toEqual([
          { rows: 500, blocks: 1 },
          { rows: 1000, blocks: 2 },
        ])
        const sums = await rowsOf(ch, `SELECT count() AS c, sum(x) AS s FROM ${table}`)
        expect(sums).toEqual([{ c: 2_500n, s: 3_123_750n }])
      },
      partPerBlock,
    )
  })

  it('cuts large inputs into blocks of blockRows', async () => {
    await using ch = clientFor(transport)
    await withTable(
      ch,
      'insert_cut',
      'x UInt32',
      async (table) => {
        await ch.command(`SYSTEM STOP MERGES ${table}`)
        const x = Uint32Array.from({ length: 25_000 }, (_, i) => i)
        await ch.insert(table, { x }, { blockRows: 10_000, settings: keepBlocks })
        expect(await blockSizes(ch, table)).toEqual([
          { rows: 5000, blocks: 1 },
          { rows: 10_000, blocks: 2 },
        ])
      },
      partPerBlock,
    )
  })

  it('sends column chunks cut across block boundaries exactly (strings by range, not copies)', async () => {
    await using ch = clientFor(transport)
    await withTable(
      ch,
      'insert_ranges',
      'i UInt32, s String, f FixedString(4), n Nullable(String)',
      async (table) => {
        await ch.command(`SYSTEM STOP MERGES ${table}`)
        // Strings around the ASCII fast path's edges: empty, 127/128 characters (one or two
        // length bytes), longer, 2- to 4-byte UTF-8, a control character.
        const texts = [
          '',
          'abc',
          'é',
          'x'.repeat(127),
          'y'.repeat(128),
          'z'.repeat(300),
          '日本語',
          '😀a',
          't\tb',
        ]
        const fixed = ['', 'ab', 'abcd', 'é', '€x']
        const total = 40
        const sizes = [5, 11, 1, 13, 10]
        const chunks: { i: Uint32Array; s: string[]; f: string[]; n: (string | null)[] }[] = []
        for (let start = 0, k = 0; start < total; start += sizes[k++]!) {
          const rows = Array.from({ length: sizes[k]! }, (_, j) => start + j)
          chunks.push({
            i: Uint32Array.from(rows),
            s: rows.map((row) => texts[row % texts.length]!),
            f: rows.map((row) => fixed[row % fixed.length]!),
            n: rows.map((row) => (row % 3 === 0 ? null : texts[row % texts.length]!)),
          })
        }
        const result = await ch.insert(
          table,
          (function* () {
            yield* chunks
          })(),
          { blockRows: 7, settings: keepBlocks },
        )
        expect(result.rowsWritten).toBe(total)
        expect(await blockSizes(ch, table)).toEqual([
          { rows: 5, blocks: 1 },
          { rows: 7, blocks: 5 },
        ])
        // The server's own rendering of the bytes it stored.
        const stored = await rowsOf(
          ch,
          `SELECT i, hex(s) AS s, hex(f) AS f, if(isNull(n), 'NULL', hex(assumeNotNull(n))) AS n FROM ${table} ORDER BY i`,
        )
        const hex = (text: string, size?: number) => {
          const bytes = Buffer.from(text, 'utf8')
          const padded =
            size === undefined ? bytes : Buffer.concat([bytes, Buffer.alloc(size - bytes.length)])
          return padded.toString('hex').toUpperCase()
        }
        expect(stored).toEqual(
          Array.from({ length: total }, (_, row) => ({
            i: row,
            s: hex(texts[row % texts.length]!),
            f: hex(fixed[row % fixed.length]!, 4),
            n: row % 3 === 0 ? 'NULL' : hex(texts[row % texts.length]!),
          })),
        )
      },
      partPerBlock,
    )
  })

  it('streams a long async input: the server has the rows before the input ends (bounded memory)', async () => {
    await using ch = clientFor(transport)
    await using observer = clientFor(transport)
    await withTable(
      ch,
      'insert_stream',
      'id UInt32, payload String',
      async (table) => {
        const total = 200_000
        const chunk = 1_000
        let produced = 0
        let largestLead = 0
        let countedBeforeEnd = 0
        // 200 bytes of text per row that LZ4 cannot shrink (a value repeats only 1024 rows
        // later, beyond its window): 1 MB per 5000-row block, 40 MB in all.
        let seed = 12_345
        const pool = Array.from({ length: 1024 }, () =>
          Array.from({ length: 25 }, () => {
            seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
            return seed.toString(16).padStart(8, '0')
          }).join(''),
        )
        async function* rows() {
          for (; produced < total; ) {
            if (produced % 20_000 === 0 && produced > 0) {
              const counted = Number((await rowsOf(observer, `SELECT count() AS c FROM ${table}`))[0]!.c)
              largestLead = Math.max(largestLead, produced - counted)
              countedBeforeEnd = counted
            }
            yield Array.from({ length: chunk }, (_, i) => ({
              id: produced + i,
              payload: pool[(produced + i) % 1024]!,
            }))
            produced += chunk
          }
        }
        const result = await ch.insert(table, rows(), { blockRows: 5_000, settings: keepBlocks })
        expect(result.rowsWritten).toBe(total)
        // The server stored most rows while the input was still being produced, and the input
        // was never more than half its size (socket buffers included) ahead of the server.
        expect(countedBeforeEnd).toBeGreaterThanOrEqual(80_000)
        expect(largestLead).toBeLessThanOrEqual(100_000)
        expect(await rowsOf(ch, `SELECT count() AS c, uniqExact(id) AS u FROM ${table}`)).toEqual([
          { c: BigInt(total), u: BigInt(total) },
        ])
      },
      partPerBlock,
    )
  })

  it('inserts nothing for an empty input', async () => {
    await using ch = clientFor(transport)
    await withTable(ch, 'insert_empty', 'x UInt8', async (table) => {
      expect((await ch.insert(table, [])).rowsWritten).toBe(0)
      async function* none() {}
      expect((await ch.insert(table, none())).rowsWritten).toBe(0)
      expect(await rowsOf(ch, `SELECT count() AS c FROM ${table}`)).toEqual([{ c: 0n }])
    })
  })

  it('reports a missing table as ClickHouseError and a bad value as UsageError naming the row', async () => {
    await using ch = clientFor(transport)
    const missing = await thrown(() => ch.insert('no_such_table_for_insert', [{ x: 1 }]))
    expect(missing).toBeInstanceOf(ClickHouseError)
    expect(missing).toMatchObject({ code: 60, codeName: 'UNKNOWN_TABLE' })
    await withTable(ch, 'insert_bad_value', 'x UInt8', async (table) => {
      const bad = await thrown(() => ch.insert(table, [{ x: 1 }, { x: 'many' }]))
      expect(bad).toBeInstanceOf(UsageError)
      expect((bad as Error).message).toContain('row 1')
      expect(await rowsOf(ch, `SELECT count() AS c FROM ${table}`)).toEqual([{ c: 0n }])
    })
  })

  // A known difference: 18.16 reads no rows from an INSERT's text over the native protocol
  // (it asks the client for blocks), so the client refuses such a statement there rather
  // than let it hang; HTTP runs it, and 26.x reads the inline rows itself on both
  // protocols. insert() works everywhere.
  it('refuses an INSERT with rows in its text only where the server cannot take it', async () => {
    await using ch = clientFor(transport)
    const refused = transport === 'native' && server.generation === 'legacy'
    await withTable(ch, 'insert_inline', 'x UInt8', async (table) => {
      const run = () => ch.command(`INSERT INTO ${table} VALUES (1), (2)`)
      if (refused) await expect(run()).rejects.toBeInstanceOf(UsageError)
      else await run()
      await ch.command(`INSERT INTO ${table} SELECT number FROM system.numbers LIMIT 2`)
      const expected = refused ? 2n : 4n
      expect(await rowsOf(ch, `SELECT count() AS c FROM ${table}`)).toEqual([{ c: expected }])
    })
  })
})
