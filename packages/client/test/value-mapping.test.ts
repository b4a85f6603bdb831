// The value-mapping options (int64, dates, decimal) give the same values on both transports,
// in rows and in columns, top-level and nested.
import { describe, expect, it } from 'vitest'
import { type ClientOptions, createClient } from '../src/index.js'
import { clientFor, transports, urlFor } from './support/transports.js'

const query = `SELECT
  toInt64(-5) AS i64, toUInt64(18446744073709551615) AS u64, [toInt64(1), toInt64(-2)] AS ai64,
  if(number = 0, NULL, toInt64(7)) AS ni64, toIntervalSecond(30) AS iv,
  toDate('2020-02-29') AS d, toDateTime('2020-02-29 12:34:56') AS dt,
  if(number = 0, NULL, toDateTime('2000-01-01 00:00:00')) AS ndt,
  [toDateTime('2020-01-01 09:00:00', 'Asia/Tokyo')] AS adt, toDateTime('2020-01-01 09:00:00', 'Asia/Tokyo') AS dtz,
  toDecimal32(1.5, 2) AS d32, toDecimal128('-12345678901234567890.123456789', 9) AS d128,
  [toDecimal64(2.25, 3)] AS ad
FROM system.numbers LIMIT 2`

interface Case {
  readonly name: string
  readonly options: Pick<ClientOptions, 'int64' | 'dates' | 'decimal'>
  /** The two rows. */
  readonly rows: readonly [Record<string, unknown>, Record<string, unknown>]
  /** What each column of columns() is (a typed array class, or Array). */
  readonly containers: Record<string, unknown>
}

const tokyoNine = new Date('2020-01-01T00:00:00Z')
/** What the number mappings give for values past 2^53: the nearest double. */
const roundedU64 = Number('18446744073709551615')
const roundedD128 = Number('-12345678901234567890.123456789')
const exactDates = {
  d: '2020-02-29',
  dt: '2020-02-29 12:34:56',
  adt: ['2020-01-01 09:00:00'],
  dtz: '2020-01-01 09:00:00',
}
const dateObjects = {
  d: new Date('2020-02-29T00:00:00Z'),
  dt: new Date('2020-02-29T12:34:56Z'),
  adt: [tokyoNine],
  dtz: tokyoNine,
}

function twoRows(
  first: Record<string, unknown>,
  second: Record<string, unknown>,
): readonly [Record<string, unknown>, Record<string, unknown>] {
  return [first, { ...first, ...second }]
}

const cases: Case[] = [
  {
    name: 'defaults: int64 bigint, dates string, decimal string',
    options: {},
    rows: twoRows(
      {
        i64: -5n,
        u64: 18446744073709551615n,
        ai64: [1n, -2n],
        ni64: null,
        iv: 30n,
        ...exactDates,
        ndt: null,
        d32: '1.50',
        d128: '-12345678901234567890.123456789',
        ad: ['2.250'],
      },
      { ni64: 7n, ndt: '2000-01-01 00:00:00' },
    ),
    containers: {
      i64: BigInt64Array,
      u64: BigUint64Array,
      iv: BigInt64Array,
      d: Array,
      d32: Array,
      d128: Array,
    },
  },
  {
    name: 'int64: number',
    options: { int64: 'number' },
    rows: twoRows(
      {
        i64: -5,
        u64: roundedU64,
        ai64: [1, -2],
        ni64: null,
        iv: 30,
        ...exactDates,
        ndt: null,
        d32: '1.50',
        d128: '-12345678901234567890.123456789',
        ad: ['2.250'],
      },
      { ni64: 7, ndt: '2000-01-01 00:00:00' },
    ),
    containers: { i64: Float64Array, u64: Float64Array, iv: Float64Array },
  },
  {
    name: 'int64: string',
    options: { int64: 'string' },
    rows: twoRows(
      {
        i64: '-5',
        u64: '18446744073709551615',
        ai64: ['1', '-2'],
        ni64: null,
        iv: '30',
        ...exactDates,
        ndt: null,
        d32: '1.50',
        d128: '-12345678901234567890.123456789',
        ad: ['2.250'],
      },
      { ni64: '7', ndt: '2000-01-01 00:00:00' },
    ),
    containers: { i64: Array, u64: Array, iv: Array },
  },
  {
    name: 'dates: date',
    options: { dates: 'date' },
    rows: twoRows(
      {
        i64: -5n,
        u64: 18446744073709551615n,
        ai64: [1n, -2n],
        ni64: null,
        iv: 30n,
        ...dateObjects,
        ndt: null,
        d32: '1.50',
        d128: '-12345678901234567890.123456789',
        ad: ['2.250'],
      },
      { ni64: 7n, ndt: new Date('2000-01-01T00:00:00Z') },
    ),
    containers: { d: Array, dt: Array },
  },
  {
    name: 'decimal: number',
    options: { decimal: 'number' },
    rows: twoRows(
      {
        i64: -5n,
        u64: 18446744073709551615n,
        ai64: [1n, -2n],
        ni64: null,
        iv: 30n,
        ...exactDates,
        ndt: null,
        d32: 1.5,
        d128: roundedD128,
        ad: [2.25],
      },
      { ni64: 7n, ndt: '2000-01-01 00:00:00' },
    ),
    containers: { d32: Float64Array, d128: Float64Array },
  },
  {
    name: 'all changed at once',
    options: { int64: 'number', dates: 'date', decimal: 'number' },
    rows: twoRows(
      {
        i64: -5,
        u64: roundedU64,
        ai64: [1, -2],
        ni64: null,
        iv: 30,
        ...dateObjects,
        ndt: null,
        d32: 1.5,
        d128: roundedD128,
        ad: [2.25],
      },
      { ni64: 7, ndt: new Date('2000-01-01T00:00:00Z') },
    ),
    containers: { i64: Float64Array, d32: Float64Array, d: Array },
  },
]

describe.each(transports)('%s', (transport) => {
  describe.each(cases)('$name', ({ options, rows, containers }) => {
    it('maps row values', async () => {
      await using ch = clientFor(transport, options)
      expect(await (await ch.query(query)).rows()).toEqual(rows)
    })

    it('maps column values the same way, in the documented containers', async () => {
      await using ch = clientFor(transport, options)
      const columns = await (await ch.query(query)).columns()
      for (const [name, container] of Object.entries(containers)) {
        expect(columns[name], name).toBeInstanceOf(container)
      }
      for (const name of Object.keys(rows[0])) {
        expect(Array.from(columns[name]!), name).toEqual(rows.map((row) => row[name]))
      }
    })

    it('takes the options from URL parameters too', async () => {
      const search = new URLSearchParams(options as Record<string, string>).toString()
      await using ch = createClient(`${urlFor(transport)}/?${search}`)
      expect(await (await ch.query(query)).rows()).toEqual(rows)
    })
  })
})
