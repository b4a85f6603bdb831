// Every type that holds Strings reads and writes as the server renders it, on both transports,
// at the revision clickwire speaks with each server and forced below 54492. On 26.9 the native
// protocol (and HTTP Native, asked at client_protocol_version) carries Strings in the
// size-stream layout of revision 54492; at 54488, and on older servers, in the prefixed one.
// The oracle is the server's own JSONEachRow of the same rows.

import { clientRevision } from '@clickwire/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../src/index.js'
import { clientFor, server, transports, uniqueTable } from './support/transports.js'

const legacy = server.generation === 'legacy'
const latest = server.line === '26.9'

/** `repeat(value, count)` in functions 18.16 has too (it has no repeat). */
const rep = (value: string, count: string) =>
  `arrayStringConcat(arrayMap(r -> ${value}, range(toUInt64(${count}))))`

// Strings of every shape: empty, ASCII, multi-byte, control characters and quotes, long.
const text = (n: string) => `multiIf(${n} % 5 = 0, '', ${n} % 5 = 1, concat('v', toString(${n})),
  ${n} % 5 = 2, ${rep("'é€😀'", `${n} % 40`)}, ${n} % 5 = 3, concat('tab\\tnl\\nq''\\\\', toString(${n})),
  ${rep("'x'", `200 + ${n} % 300`)})`

const legacyColumns = `id UInt32, s String, n Nullable(String), lc LowCardinality(String),
  ln LowCardinality(Nullable(String)), f FixedString(4), a Array(String), aa Array(Array(String)),
  t Tuple(String, String), ns Nested(k String, v String)`
const legacyFill = `SELECT number, ${text('number')}, if(number % 3 = 0, NULL, ${text('(number + 1)')}),
  toString(number % 7), if(number % 4 = 0, NULL, toString(number % 3)), toFixedString(toString(number % 1000), 4),
  arrayMap(i -> concat(toString(i), ${rep("'y'", 'i % 5')}), range(number % 4)),
  [arrayMap(i -> ${rep("'é'", 'i')}, range(number % 3)), []],
  tuple(toString(number), ${text('(number + 2)')}),
  arrayMap(i -> concat('k', toString(i)), range(number % 3)), arrayMap(i -> ${rep("'w'", 'i')}, range(number % 3))
FROM numbers(3000)`

const modernColumns = `${legacyColumns.replace('t Tuple(String, String)', 't Tuple(x String, y String)')},
  m Map(String, String), v Variant(String, Array(String)), d Dynamic, j JSON`
const modernFill = `SELECT number, ${text('number')}, if(number % 3 = 0, NULL, ${text('(number + 1)')}),
  toString(number % 7), if(number % 4 = 0, NULL, toString(number % 3)), toFixedString(toString(number % 1000), 4),
  arrayMap(i -> concat(toString(i), ${rep("'y'", 'i % 5')}), range(number % 4)),
  [arrayMap(i -> ${rep("'é'", 'i')}, range(number % 3)), []],
  tuple(toString(number), ${text('(number + 2)')}),
  arrayMap(i -> concat('k', toString(i)), range(number % 3)), arrayMap(i -> ${rep("'w'", 'i')}, range(number % 3)),
  mapFromArrays(arrayMap(i -> concat('k', toString(i)), range(number % 3)), arrayMap(i -> ${text('i')}, range(number % 3))),
  if(number % 2 = 0, ${text('number')}::Variant(String, Array(String)), [toString(number), '']::Variant(String, Array(String))),
  if(number % 3 = 0, ${text('number')}::Dynamic, [${text('number')}]::Dynamic),
  concat('{"a":"', toString(number), '","b":{"c":"', ${rep("'q'", 'number % 4')}, '"}}')::JSON
FROM numbers(3000)`

const columns = legacy ? legacyColumns : modernColumns
const fill = legacy ? legacyFill : modernFill
const table = uniqueTable('strings')
// 18.16 keeps LowCardinality behind a setting; later servers know no such setting.
const createSettings = legacy ? { allow_experimental_low_cardinality_type: 1 } : undefined

/** The server's own JSONEachRow of `from`, ordered by id, as plain HTTP without clickwire. */
async function serverRows(from: string): Promise<unknown[]> {
  const query = `SELECT * FROM ${from} ORDER BY id FORMAT JSONEachRow`
  const response = await fetch(server.httpUrl, { method: 'POST', body: query })
  const body = await response.text()
  expect(response.status, body.slice(0, 300)).toBe(200)
  return body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown)
}

/** Our decoded row as JSON values: Maps become objects, as the server's JSON writes them. */
function asJson(row: unknown): unknown {
  return JSON.parse(
    JSON.stringify(row, (_key, value: unknown) =>
      value instanceof Map ? Object.fromEntries(value) : typeof value === 'bigint' ? Number(value) : value,
    ),
  )
}

let setup: Client
let expected: unknown[]

beforeAll(async () => {
  setup = clientFor('http')
  await setup.command(`CREATE TABLE ${table} (${columns}) ENGINE = MergeTree ORDER BY id`, {
    settings: createSettings,
  })
  await setup.command(`INSERT INTO ${table} ${fill}`)
  expected = await serverRows(table)
  expect(expected).toHaveLength(3000)
}, 60_000)

afterAll(async () => {
  await setup?.command(`DROP TABLE IF EXISTS ${table}`)
  await setup?.close()
})

// The revisions each server is read at: clickwire's own (HTTP then asks for revision 0), the
// same named (HTTP then asks 26.9 for 54492 too), and forced to 54488, the last with prefixed
// Strings.
const revisions = [undefined, 54492, 54488] as const

describe.each(transports)('String-holding types over %s', (transport) => {
  it.each(revisions)(
    'read and write as the server renders them (protocolRevision %s)',
    async (protocolRevision) => {
      const ch = clientFor(transport, protocolRevision === undefined ? {} : { protocolRevision })
      const copy = uniqueTable('strings_copy')
      try {
        const info = await ch.serverInfo()
        // The revision each line speaks: 26.9 at 54492 (native and HTTP alike), 26.7 at 54488, 18.16 at 54412.
        const spoken = legacy ? 54412 : latest ? (protocolRevision ?? clientRevision) : 54488
        expect(info.revision).toBe(spoken)
        const rows = await (await ch.query(`SELECT * FROM ${table} ORDER BY id`)).rows()
        expect(rows.map(asJson)).toEqual(expected)
        // Inserted back through the same client (native at its revision, HTTP at 0), the server stores the same values.
        await ch.command(`CREATE TABLE ${copy} AS ${table}`, { settings: createSettings })
        await ch.insert(copy, rows)
        expect(await serverRows(copy)).toEqual(expected)
      } finally {
        await ch.command(`DROP TABLE IF EXISTS ${copy}`)
        await ch.close()
      }
    },
    120_000,
  )

  it.each(revisions)(
    'hand Arrow the same strings (protocolRevision %s)',
    async (protocolRevision) => {
      const ch = clientFor(transport, protocolRevision === undefined ? {} : { protocolRevision })
      try {
        const arrow = await (await ch.query(`SELECT id, s, n, a FROM ${table} ORDER BY id`)).arrow()
        const byServer = expected as { s: string; n: string | null; a: string[] }[]
        expect(arrow.numRows).toBe(3000)
        const s = arrow.getChild('s')!
        const n = arrow.getChild('n')!
        const a = arrow.getChild('a')!
        for (let row = 0; row < 3000; row += 7) {
          expect(s.get(row)).toBe(byServer[row]!.s)
          expect(n.get(row)).toBe(byServer[row]!.n)
          expect(Array.from(a.get(row) ?? [])).toEqual(byServer[row]!.a)
        }
      } finally {
        await ch.close()
      }
    },
    120_000,
  )
})
