// Over HTTP a plain SELECT carries readonly = 2 and cancel_http_readonly_queries_on_client_close
// (so the server stops it when its socket closes; see @clickwire/http close-cancel-settings.ts).
// These are SELECTs that readonly could refuse: table functions, settings set in the query,
// a server-side temporary table for external data, and a user's own settings. Each must give
// the same rows over both transports as it would without those settings.
import { afterAll, describe, expect, it } from 'vitest'
import { clientFor, endpointFor, server, transports } from './support/transports.js'

describe.each(transports)('SELECTs that readonly = 2 could refuse, over %s', (transport) => {
  const ch = clientFor(transport)
  afterAll(() => ch.close())

  it.skipIf(server.generation === 'legacy')('run at readonly = 2 over HTTP only', async () => {
    // The word "readonly" in the statement would keep both settings off (the user may be
    // setting it), hence the names built from pieces.
    const rows = await (
      await ch.query(
        "SELECT name, value FROM system.settings WHERE name IN (concat('read', 'only'), concat('cancel_http_read', 'only_queries_on_client_close')) ORDER BY name",
      )
    ).rows()
    expect(rows).toEqual([
      { name: 'cancel_http_readonly_queries_on_client_close', value: transport === 'http' ? '1' : '0' },
      { name: 'readonly', value: transport === 'http' ? '2' : '0' },
    ])
  })

  // 18.16 gets neither setting (it has no such check), and lacks these table functions.
  it.skipIf(server.generation === 'legacy')(
    'table functions, which need the right to make temporary tables',
    async () => {
      const rows = await (
        await ch.query(
          `SELECT x FROM url('http://${endpointFor('http')}/?query=SELECT+arrayJoin([1,2,3])', 'TSV', 'x UInt8') ORDER BY x`,
        )
      ).rows()
      expect(rows).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }])
      const generated = await (
        await ch.query("SELECT count() AS c FROM (SELECT * FROM generateRandom('a UInt8', 1) LIMIT 5)")
      ).rows()
      expect(generated).toEqual([{ c: 5n }])
    },
  )

  it('settings in the statement and in the call', async () => {
    const rows = await (
      await ch.query(
        "SELECT name, value FROM system.settings WHERE name IN ('max_threads', 'max_block_size') ORDER BY name SETTINGS max_threads = 3",
        { settings: { max_block_size: '777' } },
      )
    ).rows()
    expect(rows).toEqual([
      { name: 'max_block_size', value: '777' },
      { name: 'max_threads', value: '3' },
    ])
  })

  it('WITH, parentheses and comments before the SELECT', async () => {
    const rows = await (await ch.query('/* c */ -- line\n(WITH 2 AS two SELECT two * 21 AS answer)')).rows()
    expect(rows).toEqual([{ answer: 42 }])
  })
})
