// The application's name as the server records it (`clientName`, alias `application`):
// native sends it as the client name, HTTP (Node) first in the User-Agent; and extra HTTP
// headers (`httpHeaders`, per call too), which native refuses. The oracle for the name is
// the server's system.query_log (log_queries: 18.16 logs nothing by default); a server
// without that log skips the check and says so.
import { describe, expect, it } from 'vitest'
import { createClient, UsageError } from '../src/index.js'
import { readLog } from './support/server-logs.js'
import { clientFor, transports, urlFor } from './support/transports.js'

/**
 * What the server logged for a query id. A query's entry is written after the client has
 * its answer, and system.query_log itself is created with its first entry, so it is read
 * until the entry is there (readLog waits generously: a loaded machine writes it late).
 */
function logged(queryId: string) {
  return readLog(
    async (ch) =>
      (
        await ch.query<{ client_name: string; http_user_agent: string }>(
          'SELECT client_name, http_user_agent FROM system.query_log WHERE query_id = {id:String} AND type = 2',
          { params: { id: queryId } },
        )
      ).rows(),
    (rows) => rows.length > 0,
  )
}

describe.each(transports)('%s', (transport) => {
  it('reports clientName where the server records it, and application as its alias', async ({ skip }) => {
    for (const options of [{ clientName: 'ledger-sync' }, { application: 'ledger-sync' }]) {
      await using ch = clientFor(transport, options)
      const queryId = `identity-${transport}-${Object.keys(options)[0]}-${Date.now()}`
      await (await ch.query('SELECT 1', { queryId, settings: { log_queries: 1 } })).rows()
      const node = `clickwire-js (node ${process.version})`
      const entry = await logged(queryId)
      if (entry === 'absent') {
        skip('the server keeps no system.query_log (it never appeared within 30 s of a logged query)')
        return
      }
      expect(entry.value).toEqual([
        transport === 'native'
          ? { client_name: 'ledger-sync', http_user_agent: '' }
          : { client_name: '', http_user_agent: `ledger-sync ${node}` },
      ])
    }
  })

  it('refuses clientName and application that disagree', () => {
    expect(() => createClient({ url: urlFor(transport), clientName: 'a', application: 'b' })).toThrow(
      UsageError,
    )
  })
})

describe('http', () => {
  /** A fetch that records each request's headers. */
  function recordingFetch() {
    const seen: Record<string, string>[] = []
    const recording: typeof fetch = (input, init) => {
      seen.push(Object.fromEntries(new Headers(init?.headers).entries()))
      return fetch(input, init)
    }
    return { seen, fetch: recording }
  }

  it('sends httpHeaders with every request, and a call’s own over them', async () => {
    const recorder = recordingFetch()
    await using ch = createClient({
      url: urlFor('http'),
      fetch: recorder.fetch,
      httpHeaders: { 'x-route': 'analytics', 'x-team': 'core' },
    })
    await (await ch.query('SELECT 1', { httpHeaders: { 'x-team': 'billing' } })).rows()
    await ch.command('SELECT 2')
    const calls = recorder.seen.filter((headers) => headers['x-route'] !== undefined)
    expect(calls.map((headers) => [headers['x-route'], headers['x-team']])).toContainEqual([
      'analytics',
      'billing',
    ])
    expect(calls.at(-1)).toMatchObject({ 'x-route': 'analytics', 'x-team': 'core' })
    expect(recorder.seen.every((headers) => headers['x-route'] === 'analytics')).toBe(true)
    // The User-Agent names the client; a caller's own User-Agent would win.
    expect(calls.at(-1)?.['user-agent']).toBe(`clickwire-js (node ${process.version})`)
  })
})

describe('native', () => {
  it('refuses HTTP headers: the protocol has none', async () => {
    expect(() => createClient({ url: urlFor('native'), httpHeaders: { 'x-route': 'a' } })).toThrow(UsageError)
    await using ch = clientFor('native')
    await expect(ch.query('SELECT 1', { httpHeaders: { 'x-route': 'a' } })).rejects.toThrow(UsageError)
  })
})
