// The drop-in's text formats against the server's own: over HTTP the bytes are the server's,
// over native the drop-in writes them from Native blocks, and both must equal what the
// server's HTTP interface writes for the same query (the oracle, fetched without clickwire).
import { afterAll, describe, expect, it } from 'vitest'
import { createClient } from '../src/compat/index.js'
import { serverRun } from './support/server-oracle.js'
import { server, transports, urlFor } from './support/transports.js'

const legacy = server.generation === 'legacy'

/** Values every generation has, with the characters each format escapes. */
const common = `
  SELECT
    number AS n,
    toInt8(-number) AS i8,
    toInt64(number) * -1000000000000 AS i64,
    toUInt64(18446744073709551615) AS u64,
    toFloat32(number / 10) AS f32,
    number / 3 AS f64,
    [1e21, 1e-7, -0., 0.30000000000000004][number % 4 + 1] AS f64s,
    concat('a/b"c\\\\d\\'e', toString(number), '\\t\\n,') AS s,
    toFixedString(toString(number), 3) AS fs,
    toDate('2020-01-02') + number AS d,
    toDateTime('2020-01-02 03:04:05', 'UTC') AS dt,
    toDecimal32(number + 0.5, 2) AS dec,
    if(number % 2 = 0, NULL, number) AS nul,
    ['x', 'y\\'z', toString(number)] AS arr,
    (number, 'tu') AS tup,
    toUUID('00000000-0000-0000-0000-000000000001') AS uuid,
    CAST(number % 2 + 1, 'Enum8(\\'one\\' = 1, \\'two\\' = 2)') AS e
  FROM system.numbers LIMIT 3`

/** Values of servers newer than 18.16. */
const modern = `
  SELECT
    toBool(number % 2) AS b,
    map('k', number, 'l', 2) AS m,
    toIPv4('1.2.3.4') AS ip4,
    toIPv6('::1') AS ip6,
    CAST((number, 'x'), 'Tuple(a UInt64, b String)') AS named,
    toLowCardinality(toString(number)) AS lc,
    toDateTime64('2020-01-02 03:04:05.123', 3, 'UTC') AS dt64,
    toInt128(number) + toInt128('-170141183460469231731687303715884105728') AS i128
  FROM system.numbers LIMIT 2`

const everyFormat = [
  'TabSeparated',
  'TSV',
  'TabSeparatedWithNames',
  'TSVWithNamesAndTypes',
  'TabSeparatedRaw',
  'CSV',
  'CSVWithNames',
  'JSONEachRow',
  'JSON',
  'JSONCompact',
]
/** Formats 18.16 does not have (no oracle there). */
const modernFormats = [
  'CSVWithNamesAndTypes',
  'JSONCompactEachRow',
  'JSONCompactEachRowWithNamesAndTypes',
  'JSONObjectEachRow',
]
const formats = legacy ? everyFormat : [...everyFormat, ...modernFormats]

/** The JSON documents' statistics, which no two runs share, as placeholders. */
function withoutTimings(text: string): string {
  return text.replace(/"elapsed": [\d.e-]+/, '"elapsed": 0')
}

describe.each(transports)('compat formats over %s', (transport) => {
  const client = createClient({ url: urlFor(transport) })
  afterAll(() => client.close())

  const queries = legacy ? { common } : { common, modern }
  for (const [name, query] of Object.entries(queries)) {
    it.each(formats)(`${name} values in %s are the server's text`, async (format) => {
      const expected = await serverRun(`${query} FORMAT ${format}`)
      const text = await (await client.query({ query, format })).text()
      expect(withoutTimings(text)).toBe(withoutTimings(expected))
    })
  }

  it('follows output settings given per call, as the server does', async () => {
    const settings = { output_format_json_quote_64bit_integers: 0, format_csv_delimiter: ';' }
    for (const format of ['JSONEachRow', 'CSV']) {
      const query = 'SELECT toUInt64(number) AS n, toString(number) AS s FROM system.numbers LIMIT 2'
      const expected = await serverRun(`${query} FORMAT ${format}`, {
        output_format_json_quote_64bit_integers: '0',
        format_csv_delimiter: ';',
      })
      const rs = await client.query({ query, format, clickhouse_settings: settings })
      expect(await rs.text()).toBe(expected)
    }
  })

  it('JSON gives meta, data, rows, rows_before_limit_at_least and statistics as the server', async () => {
    const rs = await client.query({ query: 'SELECT number FROM system.numbers LIMIT 3', format: 'JSON' })
    const json = await rs.json<{ number: string }>()
    const oracle = JSON.parse(await serverRun('SELECT number FROM system.numbers LIMIT 3 FORMAT JSON'))
    expect({ ...json, statistics: undefined }).toEqual({ ...oracle, statistics: undefined })
    expect(Object.keys(json.statistics)).toEqual(['elapsed', 'rows_read', 'bytes_read'])
    expect(json.rows).toBe(3)
  })

  it('WITH TOTALS gives the totals row', async () => {
    const query =
      'SELECT number % 2 AS k, count() AS c FROM (SELECT number FROM system.numbers LIMIT 4) GROUP BY k WITH TOTALS ORDER BY k'
    const json = await (await client.query({ query, format: 'JSON' })).json<{ k: number; c: string }>()
    const oracle = JSON.parse(await serverRun(`${query} FORMAT JSON`))
    expect(json.data).toEqual(oracle.data)
    expect(json.totals).toEqual(oracle.totals)
    expect(json.totals).toEqual({ k: 0, c: oracle.data[0].c === 2 ? 4 : '4' })
  })

  it('stream() hands out rows with their text and JSON', async () => {
    const rs = await client.query({
      query: 'SELECT toUInt8(number) AS n, toString(number) AS s FROM system.numbers LIMIT 5',
      format: 'JSONEachRow',
    })
    const seen: unknown[] = []
    for await (const rows of rs.stream()) for (const row of rows) seen.push([row.text, row.json()])
    expect(seen).toEqual([0, 1, 2, 3, 4].map((n) => [`{"n":${n},"s":"${n}"}`, { n, s: String(n) }]))
  })

  it('stream() of a one-document format is a UsageError', async () => {
    const rs = await client.query({ query: 'SELECT 1', format: 'JSON' })
    expect(() => rs.stream()).toThrow(/one document/)
    rs.close()
  })

  // 18.16's HTTP interface calls every format text/plain.
  it.skipIf(legacy && transport === 'http')('says what the content is, as the server does', async () => {
    const rs = await client.query({ query: 'SELECT 1', format: 'JSONEachRow' })
    expect(rs.response_headers['content-type']).toBe('application/x-ndjson; charset=UTF-8')
    await rs.text()
  })
})

describe('compat formats over native: what the native protocol cannot carry', () => {
  const client = createClient({ url: urlFor('native') })
  afterAll(() => client.close())

  it('a format the drop-in does not write is a UsageError naming HTTP, before anything is sent', async () => {
    const error = await client.query({ query: 'SELECT 1', format: 'Parquet' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).name).toBe('UsageError')
    expect((error as Error).message).toMatch(
      /format Parquet is not available over the native protocol.*http:\/\//,
    )
  })
})
