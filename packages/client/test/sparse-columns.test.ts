// Columns a MergeTree part stores sparse (mostly default values) decode to the server's own
// values on both transports. The native protocol at revision >= 54465 sends them in the sparse
// layout, Nullable ones too from 54483, and Tuple elements each with their own kinds.
import { describe, expect, it } from 'vitest'
import type { Client } from '../src/index.js'
import { clientFor, server, transports, uniqueTable } from './support/transports.js'

const modern = server.generation === 'modern'

const columns = `id UInt32, u UInt32, i64 Int64, f Float64, s String, fs FixedString(3),
  n Nullable(Int32), ns Nullable(String), d Decimal(18, 4), uid UUID, dt DateTime64(3, 'UTC'),
  t Tuple(x UInt8, y String), ip IPv6, b Bool`

// Mostly defaults (well past ratio_of_defaults_for_sparse_serialization = 0.9375), a few values.
const fill = `SELECT number,
  if(number % 97 = 3, number * 1000, 0), if(number % 89 = 5, -toInt64(number) * 1000000007, 0),
  if(number % 83 = 7, number + 0.5, 0), if(number % 79 = 11, concat('v', toString(number)), ''),
  if(number % 73 = 13, 'abc', ''), if(number % 71 = 17, toInt32(number), NULL),
  if(number % 67 = 19, repeat('x', number % 200), NULL), if(number % 61 = 23, toDecimal64(number, 4) / 7, 0),
  if(number % 59 = 29, generateUUIDv4(), toUUID('00000000-0000-0000-0000-000000000000')),
  if(number % 53 = 31, toDateTime64(number * 86400, 3, 'UTC') + 0.123, toDateTime64(0, 3, 'UTC')),
  (if(number % 47 = 37, 9, 0), if(number % 43 = 41, 'tuple', '')),
  if(number % 41 = 1, toIPv6('2001:db8::1'), toIPv6('::')), number % 113 = 2
FROM numbers(5000)`

const names = ['u', 'i64', 'f', 's', 'fs', 'n', 'ns', 'd', 'uid', 'dt', 't', 'ip', 'b']

/** The server's rendering of each value: toString of each column, NULL as null, over plain HTTP. */
async function serverText(table: string): Promise<string[][]> {
  const select = names
    .map((name) =>
      name === 't'
        ? 'toString(t)'
        : name === 'fs'
          ? 'hex(fs)'
          : name === 'd'
            ? 'toDecimalString(d, 4)'
            : `if(isNull(${name}), '\\\\N', toString(${name}))`,
    )
    .join(', ')
  const response = await fetch(server.httpUrl, {
    method: 'POST',
    body: `SELECT ${select} FROM ${table} ORDER BY id FORMAT TSVRaw`,
  })
  expect(response.status).toBe(200)
  const text = await response.text()
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'))
}

/** Our decoded value rendered the way toString renders it. */
function render(name: string, value: unknown): string {
  if (value === null) return '\\N'
  if (name === 't') {
    const tuple = value as { x: number; y: string }
    return `(${tuple.x},'${tuple.y}')`
  }
  if (name === 'b') return value ? 'true' : 'false'
  if (name === 'fs')
    return Buffer.from(value as string, 'latin1')
      .toString('hex')
      .toUpperCase()
  return String(value)
}

async function withSparseTable(ch: Client, run: (table: string) => Promise<void>): Promise<void> {
  const table = uniqueTable('sparse')
  // Wide parts keep a serialization per column; one part keeps rows in key order.
  await ch.command(
    `CREATE TABLE ${table} (${columns}) ENGINE = MergeTree ORDER BY id SETTINGS min_bytes_for_wide_part = 0`,
  )
  try {
    await ch.command(`INSERT INTO ${table} ${fill}`)
    await run(table)
  } finally {
    await ch.command(`DROP TABLE IF EXISTS ${table}`)
  }
}

describe.each(transports)('sparse columns over %s', (transport) => {
  it.skipIf(!modern)(
    'decode to the server’s values (modern only: 18.16 has no sparse serialization)',
    async () => {
      const ch = clientFor(transport)
      try {
        await withSparseTable(ch, async (table) => {
          const kinds = await ch.query(
            `SELECT column, serialization_kind FROM system.parts_columns
           WHERE table = '${table}' AND active AND column != 'id' ORDER BY column`,
          )
          const sparse = (await kinds.rows()).filter((row) => row.serialization_kind === 'Sparse')
          // The table really stores them sparse, or this test proves nothing.
          expect(sparse.map((row) => row.column)).toEqual(
            expect.arrayContaining(['u', 'i64', 'f', 's', 'fs', 'd', 'uid', 'dt', 'ip', 'b']),
          )
          const expected = await serverText(table)
          expect(expected).toHaveLength(5000)
          // No ORDER BY: reading one part in order keeps the columns as stored (ORDER BY would densify).
          const rs = await ch.query(`SELECT ${names.join(', ')} FROM ${table}`, {
            settings: { max_threads: 1 },
          })
          const rows = await rs.rows()
          const got = rows.map((row) => names.map((name) => render(name, row[name])))
          expect(got).toEqual(expected)
        })
      } finally {
        await ch.close()
      }
    },
  )

  it.skipIf(!modern)(
    'match in columns() as in rows() (modern only: 18.16 has no sparse serialization)',
    async () => {
      const ch = clientFor(transport)
      try {
        await withSparseTable(ch, async (table) => {
          const rows = await (
            await ch.query(`SELECT u, s, n FROM ${table}`, { settings: { max_threads: 1 } })
          ).rows()
          const columns = await (
            await ch.query(`SELECT u, s, n FROM ${table}`, { settings: { max_threads: 1 } })
          ).columns()
          expect(columns.u).toBeInstanceOf(Uint32Array)
          expect(Array.from(columns.u as Uint32Array)).toEqual(rows.map((row) => row.u))
          expect(Array.from(columns.s as string[])).toEqual(rows.map((row) => row.s))
          expect(Array.from(columns.n as (number | null)[])).toEqual(rows.map((row) => row.n))
        })
      } finally {
        await ch.close()
      }
    },
  )
})
