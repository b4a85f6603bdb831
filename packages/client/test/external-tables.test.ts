// External tables: data sent along with a query (native: Data packets after the Query;
// HTTP: a multipart body with one Native file per table). The same call gives the same
// rows over both transports; values are checked as the server renders them.
import { afterAll, describe, expect, it } from 'vitest'
import { UsageError } from '../src/index.js'
import { clientFor, server, thrown, transports } from './support/transports.js'

const modern = server.generation === 'modern'

describe.each(transports)('external tables over %s', (transport) => {
  const ch = clientFor(transport)
  afterAll(() => ch.close())

  it('sends rows given as objects, nulls and non-ASCII text included', async () => {
    const rows = await (
      await ch.query("SELECT x, concat(toString(x), ':', ifNull(s, 'NULL')) AS shown FROM ext ORDER BY x", {
        externalTables: [
          {
            name: 'ext',
            columns: [
              { name: 'x', type: 'UInt32' },
              { name: 's', type: 'Nullable(String)' },
            ],
            data: [
              { x: 4294967295, s: 'é ✓ "quoted"' },
              { x: 1, s: "it's" },
              { x: 2, s: null },
            ],
          },
        ],
      })
    ).rows()
    expect(rows).toEqual([
      { x: 1, shown: "1:it's" },
      { x: 2, shown: '2:NULL' },
      { x: 4294967295, shown: '4294967295:é ✓ "quoted"' },
    ])
  })

  it('sends columns of 200,000 values and two tables at once', async () => {
    const ids = Uint32Array.from({ length: 200_000 }, (_, i) => i * 2)
    const rows = await (
      await ch.query(
        `SELECT count() AS n, sum(number) AS total, (SELECT groupArray(label) FROM (SELECT label FROM labels ORDER BY k)) AS labels
         FROM numbers(400000) WHERE toUInt32(number) IN (SELECT id FROM ids)`,
        {
          externalTables: [
            { name: 'ids', columns: [{ name: 'id', type: 'UInt32' }], data: { id: ids } },
            {
              name: 'labels',
              columns: [
                { name: 'k', type: 'Int8' },
                { name: 'label', type: 'LowCardinality(String)' },
              ],
              data: { k: [2, -1, 0], label: ['two', 'minus one', ''] },
            },
          ],
        },
      )
    ).rows()
    // sum of 0, 2, ..., 399998
    expect(rows).toEqual([{ n: 200000n, total: 39999800000n, labels: ['minus one', '', 'two'] }])
  })

  it('sends a table without rows, and an empty result still has its columns', async () => {
    const table = {
      name: 'nothing',
      columns: [
        { name: 'd', type: 'Date' },
        { name: 'v', type: 'Float64' },
      ],
      data: { d: [], v: [] },
    }
    const counted = await (
      await ch.query('SELECT count() AS n FROM nothing', { externalTables: [table] })
    ).rows()
    expect(counted).toEqual([{ n: 0n }])
    const empty = await ch.query('SELECT d, v * 2 AS w FROM nothing', { externalTables: [table] })
    expect(await empty.rows()).toEqual([])
    expect(empty.meta.map(({ name, type }) => ({ name, type }))).toEqual([
      { name: 'd', type: 'Date' },
      { name: 'w', type: 'Float64' },
    ])
  })

  it('a table lacking a column is a UsageError, and nothing runs', async () => {
    const error = await thrown(() =>
      ch.query('SELECT * FROM t', {
        externalTables: [{ name: 't', columns: [{ name: 'a', type: 'UInt8' }], data: { b: [1] } }],
      }),
    )
    expect(error).toBeInstanceOf(UsageError)
    expect((error as Error).message).toBe('external table t has no values for a')
    expect(await (await ch.query('SELECT 1 AS one')).rows()).toEqual([{ one: 1 }])
  })

  const complex = {
    name: 'wide',
    columns: [
      { name: 'a b', type: 'Decimal(18, 2)' },
      { name: 't', type: 'Tuple(n UInt8, s String)' },
    ],
    data: [
      { 'a b': '12.34', t: { n: 7, s: 'x, y' } },
      { 'a b': '-0.5', t: { n: 0, s: '' } },
    ],
  }
  const complexSql = 'SELECT toString(`a b`) AS a, toString(t) AS t FROM wide ORDER BY `a b`'
  // 18.16 renders a Decimal with all its scale's digits.
  const complexRows = [
    { a: modern ? '-0.5' : '-0.50', t: "(0,'')" },
    { a: '12.34', t: "(7,'x, y')" },
  ]

  if (transport === 'http' && !modern) {
    it('a name or type with a space or comma is a UsageError on 18.16 (its HTTP structure field splits there)', async () => {
      const error = await thrown(() => ch.query(complexSql, { externalTables: [complex] }))
      expect(error).toBeInstanceOf(UsageError)
      expect((error as Error).message).toBe(
        'external table wide: column a b Decimal(18, 2) cannot be sent over HTTP to ClickHouse 18.16.1, ' +
          "which splits an external table's structure at spaces and commas (servers from 24.3 do not); " +
          'use the native transport for it',
      )
    })
  } else {
    it('sends any column name and type (quoted names, Decimal, named Tuple)', async () => {
      const rows = await (await ch.query(complexSql, { externalTables: [complex] })).rows()
      expect(rows).toEqual(complexRows)
    })
  }
})
