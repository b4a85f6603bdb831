// The summary of queries, inserts and commands (result.summary, insert/command .summary):
// one shape on both transports, from native's Progress and ProfileInfo packets or HTTP's
// X-ClickHouse-Summary header. Debian's 18.16 HTTP interface sends no summary header (its
// Poco lacks the patch, see progress-totals.test.ts), so there the figures are zeros.
import { describe, expect, it } from 'vitest'
import { clientFor, server, transports, uniqueTable } from './support/transports.js'

const old = server.version.startsWith('18.')

describe.each(transports)('%s', (transport) => {
  const summarized = transport === 'native' || !old

  it('sums up a SELECT from numbers(1000) once its result is read', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query('SELECT number FROM numbers(1000)')
    expect((await rs.rows()).length).toBe(1000)
    if (summarized) {
      expect(rs.summary).toMatchObject({
        readRows: 1000,
        readBytes: 8000,
        writtenRows: 0,
        writtenBytes: 0,
        resultRows: 1000,
      })
      // Native's ProfileInfo counts the result's bytes; HTTP's summary header went out with
      // the response headers, before the result was written, and says 0.
      // (18.16 counts the values' 8000 bytes, 26.x the column's allocated 8128).
      expect(rs.summary.resultBytes).toBe(transport === 'http' ? 0 : old ? 8000 : 8128)
    } else {
      expect(rs.summary).toEqual({
        readRows: 0,
        readBytes: 0,
        totalRowsToRead: 0,
        writtenRows: 0,
        writtenBytes: 0,
        elapsedNs: 0,
        // The rows received: the client counts them itself when the server says nothing.
        resultRows: 1000,
        resultBytes: 0,
      })
    }
  })

  it('gives the exact rows and bytes an insert of N rows wrote', async () => {
    await using ch = clientFor(transport)
    const table = uniqueTable('summary_insert')
    await ch.command(`CREATE TABLE ${table} (x UInt32, y UInt64) ENGINE = Memory`)
    try {
      const rows = 2500
      const result = await ch.insert(table, {
        x: Uint32Array.from({ length: rows }, (_, i) => i),
        y: BigUint64Array.from({ length: rows }, (_, i) => BigInt(i)),
      })
      expect(result.rowsWritten).toBe(rows)
      // Native Progress carries written counts from revision 54420 and 18.16 (54412) sends
      // none, nor does its HTTP interface a summary: there the rows the server accepted
      // stand in for the written rows, and the bytes are unknown (0).
      expect(result.summary.writtenRows).toBe(rows)
      // 4 bytes of UInt32 and 8 of UInt64 per row, as the server counts them.
      expect(result.summary.writtenBytes).toBe(old ? 0 : rows * 12)
      if (!old) expect(result.summary).toMatchObject(result.progress)
      const rs = await ch.query(`SELECT count() AS n FROM ${table}`)
      expect(await rs.rows()).toEqual([{ n: BigInt(rows) }])
    } finally {
      await ch.command(`DROP TABLE ${table}`)
    }
  })

  it('gives the rows an INSERT … SELECT command wrote', async () => {
    await using ch = clientFor(transport)
    const table = uniqueTable('summary_command')
    await ch.command(`CREATE TABLE ${table} (x UInt64) ENGINE = Memory`)
    try {
      const result = await ch.command(`INSERT INTO ${table} SELECT number FROM numbers(700)`)
      if (transport === 'native' && old) {
        // No written counts before revision 54420 (see above); what was read is there.
        expect(result.summary).toMatchObject({ writtenRows: 0, writtenBytes: 0, readRows: 700 })
      } else if (summarized) {
        expect(result.summary).toMatchObject({ writtenRows: 700, writtenBytes: 5600, readRows: 700 })
      } else {
        expect(result.summary.writtenRows).toBe(0)
      }
    } finally {
      await ch.command(`DROP TABLE ${table}`)
    }
  })

  it('exposes the response headers over HTTP, none over native', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query('SELECT 1 AS one', { queryId: `headers-${transport}-${Date.now()}` })
    await rs.rows()
    if (transport === 'http') {
      expect(rs.responseHeaders['x-clickhouse-server-display-name']).toBeTypeOf('string')
      // 18.16 names neither the query id nor a summary in its headers.
      if (!old) {
        expect(rs.responseHeaders['x-clickhouse-query-id']).toBe(rs.queryId)
        expect(JSON.parse(rs.responseHeaders['x-clickhouse-summary'] ?? '{}')).toHaveProperty('read_rows')
      }
    } else {
      expect(rs.responseHeaders).toEqual({})
    }
    const command = await ch.command('SELECT 1')
    expect(Object.keys(command.responseHeaders).length > 0).toBe(transport === 'http')
  })
})
