import { rowObjects } from '@clickwire/protocol'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')

describe('DateTime time zones over HTTP', () => {
  const http = createHttpTransport({ url: server.httpUrl })
  afterAll(() => http.close())

  it('restores the zone of top-level DateTime columns that the Native format names plainly', async () => {
    const result = await http.query(
      "SELECT toDateTime(0, 'Asia/Tokyo') AS t, toDateTime(0) AS u, [toDateTime(0, 'Asia/Tokyo')] AS a, toDateTime(1500000000, 'America/New_York') AS n",
    )
    expect((await result.columns()).map((column) => column.type)).toEqual([
      "DateTime('Asia/Tokyo')",
      'DateTime',
      "Array(DateTime('Asia/Tokyo'))",
      "DateTime('America/New_York')",
    ])
    const rows = []
    for await (const block of result) rows.push(...rowObjects(block))
    expect(rows).toEqual([
      {
        t: '1970-01-01 09:00:00',
        u: '1970-01-01 00:00:00',
        a: ['1970-01-01 09:00:00'],
        n: '2017-07-13 22:40:00',
      },
    ])
  })

  it('reads a table column with a zone the same as the native protocol does', async () => {
    await http.command('DROP TABLE IF EXISTS http_zones')
    await http.command("CREATE TABLE http_zones (d DateTime('Europe/Moscow')) ENGINE = Memory")
    await http.command("INSERT INTO http_zones VALUES ('2017-01-04 10:20:30')")
    const result = await http.query('SELECT d FROM http_zones')
    const rows = []
    for await (const block of result) rows.push(...rowObjects(block))
    expect(rows).toEqual([{ d: '2017-01-04 10:20:30' }])
    await http.command('DROP TABLE http_zones')
  })
})
