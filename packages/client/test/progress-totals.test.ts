// Progress, profile info, WITH TOTALS and extremes. The rows are the same on both
// transports; what comes beside them is not, on 18.16, for reasons outside the client:
// the HTTP interface of Debian's 18.16 sends no progress headers (its Poco lacks the
// patch), and ClickHouse's Native output format drops totals and extremes (IOutputFormat
// ignores them unless a format writes them). The table below names each such gap so the
// expectations stay exact; see the README's "Transport differences".
import { emptyProgress } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { clientFor, server, transports } from './support/transports.js'

const old = server.version.startsWith('18.')

/** What each transport delivers besides the rows, on the test server. */
const delivers = {
  native: { progress: true, totals: true, profileInfo: true },
  http: { progress: !old, totals: false, profileInfo: false },
} as const

describe.each(transports)('%s', (transport) => {
  const gets = delivers[transport]

  it('reports the progress of a query once its result is read', async () => {
    await using ch = clientFor(transport)
    const reports: number[] = []
    const rs = await ch.query('SELECT count() AS c FROM numbers(100000)', {
      settings: { max_block_size: 10_000 },
      onProgress: (_increment, total) => reports.push(total.readRows),
    })
    expect(await rs.rows()).toEqual([{ c: 100_000n }])
    if (gets.progress) {
      expect(rs.progress.readRows).toBe(100_000)
      expect(rs.progress.readBytes).toBe(800_000)
      expect(reports.at(-1)).toBe(100_000)
    } else {
      expect(rs.progress).toEqual(emptyProgress)
      expect(reports).toEqual([])
    }
  })

  it('counts the rows an insert wrote, on both transports', async () => {
    await using ch = clientFor(transport)
    const table = `progress_${transport}_${Date.now()}`
    await ch.command(`CREATE TABLE ${table} (x UInt8) ENGINE = Memory`)
    try {
      const result = await ch.insert(table, { x: new Uint8Array(1234) })
      expect(result.rowsWritten).toBe(1234)
    } finally {
      await ch.command(`DROP TABLE ${table}`)
    }
  })

  it('gives WITH TOTALS and extremes beside the rows, never among them', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query<{ k: number; c: bigint }>(
      'SELECT number % 2 AS k, count() AS c FROM numbers(5) GROUP BY k WITH TOTALS ORDER BY k',
      { settings: { extremes: 1 } },
    )
    expect(await rs.rows()).toEqual([
      { k: 0, c: 3n },
      { k: 1, c: 2n },
    ])
    if (gets.totals) {
      expect(rs.totals).toEqual({ k: 0, c: 5n })
      expect(rs.extremes).toEqual([
        { k: 0, c: 2n },
        { k: 1, c: 3n },
      ])
    } else {
      expect(rs.totals).toBeUndefined()
      expect(rs.extremes).toBeUndefined()
    }
  })

  it('gives the profile info of a complete result', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query('SELECT number FROM numbers(10) LIMIT 3')
    expect((await rs.rows()).length).toBe(3)
    if (gets.profileInfo) expect(rs.profileInfo).toMatchObject({ rows: 3, appliedLimit: true })
    else expect(rs.profileInfo).toBeUndefined()
  })
})
