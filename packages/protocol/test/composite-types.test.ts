// Composite types against the live ClickHouse 18.16 server: our Native bytes are inserted
// over HTTP, read back as the server's Native bytes, and checked against the C++ client.
import { clickhouseClient } from '@clickwire/testing'
import type {} from '@clickwire/testing/global-setup'
import { afterAll, describe, expect, inject, it } from 'vitest'
import type { ColumnToWrite } from '../src/blocks/native-block-writer.js'
import {
  decodeNative,
  encodeNative,
  httpQuery,
  parseJsonEachRow,
  uniqueTable,
} from './support/composite-native.js'

const server = inject('clickhouse')
const tables: string[] = []

afterAll(async () => {
  for (const table of tables) await httpQuery(server, `DROP TABLE IF EXISTS ${table}`)
})

/** Creates a table, inserts `columns` as one Native block per entry, returns the table name. */
async function insertTable(structure: string, blocks: { columns: ColumnToWrite[]; rows: number }[]) {
  const table = uniqueTable('composite')
  tables.push(table)
  await httpQuery(server, `CREATE TABLE ${table} (${structure}) ENGINE = Memory`)
  await httpQuery(server, `INSERT INTO ${table} FORMAT Native`, encodeNative(blocks))
  return table
}

async function readBack(sql: string) {
  return decodeNative(await httpQuery(server, `${sql} FORMAT Native`))
}

async function cliRows(sql: string) {
  return parseJsonEachRow(await clickhouseClient(server, `${sql} FORMAT JSONEachRow`))
}

describe('composite types on ClickHouse 18.16', () => {
  it('Nullable, Array, Tuple and deep nesting round-trip exactly', async () => {
    const ids = [1, 2, 3]
    const deep = [[[1, null], []], [], [[null], [255, 0]]]
    const strings = [['a', null, ''], [], [null]]
    const nullable = ['x', null, '']
    const tuples = [
      [1, 'p'],
      [2, ''],
      [3, 'é'],
    ]
    const nested = [[[['a']], []], [], [[[], ['b', 'c']]]]
    const table = await insertTable(
      'id UInt32, deep Array(Array(Nullable(UInt8))), strings Array(Nullable(String)), nullable Nullable(String), ' +
        'pair Tuple(UInt8, String), nested Array(Array(Array(String))), wide Array(Nullable(UInt64))',
      [
        {
          rows: 3,
          columns: [
            { name: 'id', type: 'UInt32', values: ids },
            { name: 'deep', type: 'Array(Array(Nullable(UInt8)))', values: deep },
            { name: 'strings', type: 'Array(Nullable(String))', values: strings },
            { name: 'nullable', type: 'Nullable(String)', values: nullable },
            { name: 'pair', type: 'Tuple(UInt8, String)', values: tuples },
            { name: 'nested', type: 'Array(Array(Array(String)))', values: nested },
            { name: 'wide', type: 'Array(Nullable(UInt64))', values: [[2n ** 64n - 1n, null], [], [0n]] },
          ],
        },
      ],
    )
    const sql = `SELECT * FROM ${table} ORDER BY id`
    const back = await readBack(sql)
    expect(back.types).toEqual([
      'UInt32',
      'Array(Array(Nullable(UInt8)))',
      'Array(Nullable(String))',
      'Nullable(String)',
      'Tuple(UInt8, String)',
      'Array(Array(Array(String)))',
      'Array(Nullable(UInt64))',
    ])
    expect(back.columns).toEqual([
      ids,
      deep,
      strings,
      nullable,
      tuples,
      nested,
      [[2n ** 64n - 1n, null], [], [0n]],
    ])
    expect(await cliRows(sql)).toEqual([
      {
        id: 1,
        deep: [[1, null], []],
        strings: ['a', null, ''],
        nullable: 'x',
        pair: [1, 'p'],
        nested: [[['a']], []],
        wide: ['18446744073709551615', null],
      },
      { id: 2, deep: [], strings: [], nullable: null, pair: [2, ''], nested: [], wide: [] },
      {
        id: 3,
        deep: [[null], [255, 0]],
        strings: [null],
        nullable: '',
        pair: [3, 'é'],
        nested: [[[], ['b', 'c']]],
        wide: ['0'],
      },
    ])
  })

  it('Nested is flattened into n.x and n.y Array columns', async () => {
    const table = await insertTable('id UInt32, n Nested(x UInt8, y String)', [
      {
        rows: 2,
        columns: [
          { name: 'id', type: 'UInt32', values: [1, 2] },
          { name: 'n.x', type: 'Array(UInt8)', values: [[1, 2], []] },
          { name: 'n.y', type: 'Array(String)', values: [['a', 'b'], []] },
        ],
      },
    ])
    const sql = `SELECT * FROM ${table} ORDER BY id`
    const back = await readBack(sql)
    expect(back.names).toEqual(['id', 'n.x', 'n.y'])
    expect(back.columns).toEqual([
      [1, 2],
      [[1, 2], []],
      [['a', 'b'], []],
    ])
    expect(await cliRows(sql)).toEqual([
      { id: 1, 'n.x': [1, 2], 'n.y': ['a', 'b'] },
      { id: 2, 'n.x': [], 'n.y': [] },
    ])
    const joined = await readBack(`SELECT id, n.x, n.y FROM ${table} ARRAY JOIN n ORDER BY id, n.x`)
    expect(joined.columns).toEqual([
      [1, 1],
      [1, 2],
      ['a', 'b'],
    ])
  })

  it('LowCardinality: plain, Nullable, in Array, and over 65,536 distinct values in one block', async () => {
    const rows = 70_000
    const ids = Array.from({ length: rows }, (_, i) => i)
    const many = ids.map((i) => `value-${i}`)
    const nullable = ids.map((i) => (i % 3 === 0 ? null : i % 3 === 1 ? '' : `n${i % 7}`))
    const arrays = ids.map((i) => (i % 4 === 0 ? [] : [`a${i % 5}`, `b${i % 300}`]))
    const table = await insertTable(
      'id UInt32, many LowCardinality(String), nullable LowCardinality(Nullable(String)), arrays Array(LowCardinality(String))',
      [
        {
          rows,
          columns: [
            { name: 'id', type: 'UInt32', values: ids },
            { name: 'many', type: 'LowCardinality(String)', values: many },
            { name: 'nullable', type: 'LowCardinality(Nullable(String))', values: nullable },
            { name: 'arrays', type: 'Array(LowCardinality(String))', values: arrays },
          ],
        },
      ],
    )
    const sql = `SELECT * FROM ${table} ORDER BY id`
    const back = await readBack(sql)
    expect(back.types).toEqual([
      'UInt32',
      'LowCardinality(String)',
      'LowCardinality(Nullable(String))',
      'Array(LowCardinality(String))',
    ])
    expect(back.columns).toEqual([ids, many, nullable, arrays])
    const cli = await cliRows(sql)
    expect(cli.length).toBe(rows)
    expect(cli).toEqual(ids.map((id) => ({ id, many: many[id], nullable: nullable[id], arrays: arrays[id] })))
    const [stats] = await cliRows(
      `SELECT uniqExact(many) AS u, countIf(isNull(nullable)) AS nulls FROM ${table}`,
    )
    expect(stats).toEqual({ u: '70000', nulls: '23334' })
  })

  it('LowCardinality dictionaries written per block across a multi-block insert', async () => {
    const block = (start: number) => ({
      rows: 3,
      columns: [
        { name: 'id', type: 'UInt32', values: [start, start + 1, start + 2] },
        { name: 'lc', type: 'LowCardinality(String)', values: ['x', `y${start}`, 'x'] },
      ],
    })
    const table = await insertTable('id UInt32, lc LowCardinality(String)', [block(0), block(3)])
    const sql = `SELECT * FROM ${table} ORDER BY id`
    expect((await readBack(sql)).columns).toEqual([
      [0, 1, 2, 3, 4, 5],
      ['x', 'y0', 'x', 'x', 'y3', 'x'],
    ])
    expect((await cliRows(sql)).map((row) => row.lc)).toEqual(['x', 'y0', 'x', 'x', 'y3', 'x'])
  })

  it.each([
    ['Array(Array(Nullable(UInt8)))', '[[1, NULL], []]', [[[1, null], []]]],
    ['Array(Nullable(String))', "['a', NULL, '']", [['a', null, '']]],
    ['Tuple(UInt8, String)', "(1, 'x')", [[1, 'x']]],
    ['LowCardinality(String)', "arrayJoin(['a', 'b', 'a', ''])", ['a', 'b', 'a', '']],
    ['LowCardinality(Nullable(String))', "arrayJoin(['a', NULL, '', 'a'])", ['a', null, '', 'a']],
    ['Array(LowCardinality(String))', "arrayJoin([['x', 'y'], [], ['x']])", [['x', 'y'], [], ['x']]],
  ])("%s: our bytes equal the server's own Native output", async (type, expression, values) => {
    const served = await httpQuery(server, `SELECT CAST(${expression} AS ${type}) AS c FORMAT Native`)
    const ours = encodeNative([{ rows: values.length, columns: [{ name: 'c', type, values }] }])
    expect(Buffer.from(ours).toString('hex')).toBe(Buffer.from(served).toString('hex'))
    expect(decodeNative(served).columns).toEqual([values])
  })
})
