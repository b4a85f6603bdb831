// The application's name as the server records it (`clientName`, alias `application`):
// native sends it as the client name, HTTP (Node) first in the User-Agent; and extra HTTP
// headers (`httpHeaders`, per call too), which native refuses. The oracle for the name is
// the server's system.query_log (log_queries: 18.16 logs nothing by default).
import { describe, expect, it } from 'vitest'
import { createClient, UsageError } from '../src/index.js'
import { clientFor, transports, urlFor } from './support/transports.js'

/**
 * What the server logged for a query id (after SYSTEM FLUSH LOGS). A native query's entry
 * is written just after the client got its end of stream, so it is asked for a few times.
 */
async function logged(queryId: string) {
  await using ch = clientFor('native')
  for (let attempt = 0; ; attempt++) {
    await ch.command('SYSTEM FLUSH LOGS')
    const rs = await ch.query<{ client_name: string; http_user_agent: string }>(
      'SELECT client_name, http_user_agent FROM system.query_log WHERE query_id = {id:String} AND type = 2',
      { params: { id: queryId } },
    )
    const rows = await rs.rows()
    if (rows.length > 0 || attempt === 20) return rows
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.each(transports)('%s', (transport) => {
  it('reports clientName where the server records it, and application as its alias', async () => {
    for (const options of [{ clientName: 'ledger-sync' }, { application: 'ledger-sync' }]) {
      await using ch = clientFor(transport, options)
      const queryId = `identity-${transport}-${Object.keys(options)[0]}-${Date.now()}`
      await (await ch.query('SELECT 1', { queryId, settings: { log_queries: 1 } })).rows()
      const node = `clickwire-js (node ${process.version})`
      expect(await logged(queryId)).toEqual([
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
