// Composite types 18.16 lacks, against ClickHouse 26.7 in-process (chdb): its Native bytes
// decode to the expected values, and it reads back what we encode.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { typedValue } from '../src/columns/typed-value.js'
import { decodeNative, encodeNative, parseJsonEachRow } from './support/composite-native.js'

interface ChdbResult {
  bytes(): Uint8Array
  text(): string
}
const { queryAsync } = createRequire(import.meta.url)('chdb') as {
  queryAsync(sql: string, options: { format: string }): Promise<ChdbResult>
}

const folder = mkdtempSync(join(tmpdir(), 'clickwire-composite-'))
let files = 0
afterAll(() => rmSync(folder, { recursive: true, force: true }))

async function chdbNative(sql: string) {
  return decodeNative((await queryAsync(sql, { format: 'Native' })).bytes())
}

/** Writes one Native block to a file and returns what chdb reads from it, as JSONEachRow rows. */
async function chdbReads(type: string, values: unknown[], settings = '') {
  const path = join(folder, `block-${files++}.native`)
  writeFileSync(path, encodeNative([{ rows: values.length, columns: [{ name: 'c', type, values }] }]))
  const sql = `SELECT c, toTypeName(c) AS t FROM file('${path}', 'Native') SETTINGS output_format_json_quote_64bit_integers = 0${settings}`
  const rows = parseJsonEachRow((await queryAsync(sql, { format: 'JSONEachRow' })).text())
  return { types: [...new Set(rows.map((row) => row.t))], values: rows.map((row) => row.c) }
}

interface Case {
  type: string
  /** A ClickHouse expression yielding one row per element (`arrayJoin` of literals). */
  expression: string
  /** What our decoder gives for chdb's rows. */
  decoded: unknown[]
  /** What we encode (defaults to `decoded`). */
  input?: unknown[]
  /** chdb's JSONEachRow text of what we encoded, parsed. */
  json: unknown[]
  settings?: string
}

const cases: Case[] = [
  {
    type: 'Map(String, Array(UInt64))',
    expression: "arrayJoin([map('a', [1, 2], 'b', []), map()])",
    decoded: [
      new Map([
        ['a', [1n, 2n]],
        ['b', []],
      ]),
      new Map(),
    ],
    json: [{ a: [1, 2], b: [] }, {}],
  },
  {
    type: 'Map(LowCardinality(String), Nullable(Int32))',
    expression: "arrayJoin([map('x', 1, 'y', NULL), map('x', -5)])",
    decoded: [
      new Map([
        ['x', 1],
        ['y', null],
      ]),
      new Map([['x', -5]]),
    ],
    json: [{ x: 1, y: null }, { x: -5 }],
  },
  {
    type: 'Tuple(a UInt8, `b c` String, d Tuple(e Array(Nullable(String))))',
    expression: "arrayJoin([(1, 'x', tuple(['p', NULL])), (2, '', tuple([]))])",
    decoded: [
      { a: 1, 'b c': 'x', d: { e: ['p', null] } },
      { a: 2, 'b c': '', d: { e: [] } },
    ],
    json: [
      { a: 1, 'b c': 'x', d: { e: ['p', null] } },
      { a: 2, 'b c': '', d: { e: [] } },
    ],
  },
  {
    type: 'Nested(x UInt8, y String)',
    expression: "arrayJoin([[(1, 'a'), (2, 'b')], []])",
    decoded: [
      [
        { x: 1, y: 'a' },
        { x: 2, y: 'b' },
      ],
      [],
    ],
    json: [
      [
        { x: 1, y: 'a' },
        { x: 2, y: 'b' },
      ],
      [],
    ],
    settings: ', flatten_nested = 0',
  },
  {
    type: 'Variant(String, UInt64, Array(UInt8))',
    expression: "arrayJoin([1::Variant(String, UInt64, Array(UInt8)), 'x', NULL, [1, 2]::Array(UInt8)])",
    decoded: [1n, 'x', null, [1, 2]],
    json: [1, 'x', null, [1, 2]],
  },
  {
    type: 'Dynamic',
    expression:
      "arrayJoin([42::Int64::Dynamic, 'a'::String, 1.5::Float64, NULL, [1, NULL]::Array(Nullable(Int64))::Dynamic, map('k', 1::Int64)::Dynamic])",
    decoded: [42n, 'a', 1.5, null, [1n, null], new Map([['k', 1n]])],
    json: [42, 'a', 1.5, null, [1, null], { k: 1 }],
  },
  {
    type: 'Dynamic',
    expression: "arrayJoin([1::Int64::Dynamic(max_types = 1), 'x'::Dynamic(max_types = 1), NULL])",
    decoded: [1n, 'x', null],
    json: [1, 'x', null],
  },
  {
    type: 'JSON',
    expression: `arrayJoin(['{"a":{"b":1},"c":"x"}', '{"a":{"b":2},"d":[1,2]}', '{}'])::JSON`,
    decoded: [{ a: { b: 1n }, c: 'x' }, { a: { b: 2n }, d: [1n, 2n] }, {}],
    input: [{ a: { b: 1 }, c: 'x' }, { a: { b: 2 }, d: typedValue('Array(Nullable(Int64))', [1, 2]) }, {}],
    json: [{ a: { b: 1 }, c: 'x' }, { a: { b: 2 }, d: [1, 2] }, {}],
  },
  {
    type: 'JSON(`a.b` UInt32, SKIP z)',
    expression: `arrayJoin(['{"a":{"b":1},"c":[{"k":"v"}]}', '{"z":1}'])`,
    decoded: [{ a: { b: 1 }, c: [{ k: 'v' }] }, { a: { b: 0 } }],
    input: [
      {
        a: { b: 1 },
        c: typedValue('Array(JSON(max_dynamic_types=16, max_dynamic_paths=256))', [{ k: 'v' }]),
      },
      { z: 1 },
    ],
    json: [{ a: { b: 1 }, c: [{ k: 'v' }] }, { a: { b: 0 } }],
  },
  {
    type: 'Point',
    expression: 'arrayJoin([(1.5, 2), (0, -1)])',
    decoded: [
      [1.5, 2],
      [0, -1],
    ],
    json: [
      [1.5, 2],
      [0, -1],
    ],
  },
  {
    type: 'Ring',
    expression: 'arrayJoin([[(1, 2), (3, 4)], []])',
    decoded: [
      [
        [1, 2],
        [3, 4],
      ],
      [],
    ],
    json: [
      [
        [1, 2],
        [3, 4],
      ],
      [],
    ],
  },
  { type: 'LineString', expression: 'arrayJoin([[(1, 2)]])', decoded: [[[1, 2]]], json: [[[1, 2]]] },
  {
    type: 'Polygon',
    expression: 'arrayJoin([[[(1, 2)], []]])',
    decoded: [[[[1, 2]], []]],
    json: [[[[1, 2]], []]],
  },
  {
    type: 'MultiLineString',
    expression: 'arrayJoin([[[(1, 2)]]])',
    decoded: [[[[1, 2]]]],
    json: [[[[1, 2]]]],
  },
  {
    type: 'MultiPolygon',
    expression: 'arrayJoin([[[[(1, 2), (3, 4)]]], []])',
    decoded: [
      [
        [
          [
            [1, 2],
            [3, 4],
          ],
        ],
      ],
      [],
    ],
    json: [
      [
        [
          [
            [1, 2],
            [3, 4],
          ],
        ],
      ],
      [],
    ],
  },
]

describe('composite types on ClickHouse 26.7 (chdb)', () => {
  it.each(cases)('$type: chdb Native decodes to the expected values', async (test) => {
    const settings = test.settings ? ` SETTINGS ${test.settings.slice(2)}` : ''
    const block = await chdbNative(`SELECT CAST(${test.expression} AS ${test.type}) AS c${settings}`)
    expect(block.columns).toEqual([test.decoded])
  })

  it.each(cases)('$type: chdb reads back what we encode', async (test) => {
    const read = await chdbReads(test.type, test.input ?? test.decoded, test.settings)
    expect(read.values).toEqual(test.json)
  })

  it('decodes the FLATTENED Dynamic and JSON layouts and JSON sent as text', async () => {
    const flattened = ' SETTINGS output_format_native_use_flattened_dynamic_and_json_serialization = 1'
    const dynamic = await chdbNative(
      `SELECT arrayJoin([1::Dynamic, 'x'::Dynamic, NULL, [1, 2]::Array(UInt8)]) AS c${flattened}`,
    )
    expect(dynamic.columns).toEqual([['1', 'x', null, [1, 2]]])
    const rows = `arrayJoin(['{"a":{"b":1},"c":"x"}', '{"a":{"b":2},"d":[1,2]}', '{}'])::JSON`
    const json = await chdbNative(`SELECT ${rows} AS c${flattened}`)
    expect(json.columns).toEqual([[{ a: { b: 1n }, c: 'x' }, { a: { b: 2n }, d: [1n, 2n] }, {}]])
    const text = await chdbNative(
      `SELECT ${rows} AS c SETTINGS output_format_native_write_json_as_string = 1`,
    )
    expect(text.columns).toEqual([[{ a: { b: 1 }, c: 'x' }, { a: { b: 2 }, d: [1, 2] }, {}]])
    const shared = await chdbNative(`SELECT CAST(${rows} AS JSON(max_dynamic_paths = 1)) AS c`)
    expect(shared.columns).toEqual([[{ a: { b: 1n }, c: 'x' }, { a: { b: 2n }, d: [1n, 2n] }, {}]])
  })

  it('chdb reads Dynamic values of inferred types and keeps their types', async () => {
    const path = join(folder, 'dynamic-inferred.native')
    const values = ['s', 7, 2.5, 2n ** 64n - 1n, ['a', 'b'], null, typedValue('UInt8', 3), [1, null]]
    writeFileSync(
      path,
      encodeNative([{ rows: values.length, columns: [{ name: 'c', type: 'Dynamic', values }] }]),
    )
    const sql = `SELECT toString(c) AS s, dynamicType(c) AS t FROM file('${path}', 'Native')`
    const rows = parseJsonEachRow((await queryAsync(sql, { format: 'JSONEachRow' })).text())
    expect(rows).toEqual([
      { s: 's', t: 'String' },
      { s: '7', t: 'Int64' },
      { s: '2.5', t: 'Float64' },
      { s: '18446744073709551615', t: 'UInt64' },
      { s: "['a','b']", t: 'Array(String)' },
      // toString of a NULL Dynamic is '' in ClickHouse.
      { s: '', t: 'None' },
      { s: '3', t: 'UInt8' },
      { s: '[1,NULL]', t: 'Array(Nullable(Int64))' },
    ])
  })

  it('round-trips a Variant with many rows and LowCardinality alternatives through chdb', async () => {
    const type = 'Variant(LowCardinality(String), Int64, Array(Map(String, UInt8)))'
    const values = Array.from({ length: 1000 }, (_, i) =>
      i % 3 === 0 ? `s${i % 10}` : i % 3 === 1 ? BigInt(i) : i % 5 === 0 ? null : [new Map([['k', i % 256]])],
    )
    const read = await chdbReads(type, values)
    // The server prints the alternatives in their sorted order.
    expect(read.types).toEqual(['Variant(Array(Map(String, UInt8)), Int64, LowCardinality(String))'])
    expect(read.values).toEqual(
      values.map((value) =>
        typeof value === 'bigint'
          ? Number(value)
          : Array.isArray(value)
            ? value.map((map) => Object.fromEntries(map))
            : value,
      ),
    )
  })
})
