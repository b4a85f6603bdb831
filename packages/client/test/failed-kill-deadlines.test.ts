// A stopped query stops on the server even when the KILL QUERY meant to stop it never
// arrives. The client talks through a proxy that, once the query runs, refuses every new
// connection: the KILL (sent from another connection) fails, and only what travels on the
// query's own connection can stop it. Over native that is the Cancel packet, or the
// connection closing, which the server notices at its next poll of the client (every
// interactive_delay, 100 ms here). Over HTTP it is the closed socket, which the server
// notices for a read-only query that carries cancel_http_readonly_queries_on_client_close
// (it checks the peer at each progress step, for readonly > 0 only). 18.16 has neither the
// setting nor the check: there, over HTTP, only a KILL that gets through stops the query, so
// the client sends it again after a failure (the last test), and a KILL that never gets
// through leaves the query running (asserted as such, then killed by the test).
import { FaultProxy } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { AbortError, type Client, ConnectionError, createClient, TimeoutError } from '../src/index.js'
import { goneWithin, runsNow, waitRunning } from './support/server-processes.js'
import { clientFor, server, thrown, transports } from './support/transports.js'

/** 200 rows at 0.5 s each: 100 s unless something stops it. */
const longQuery =
  'SELECT count() AS n FROM numbers(200) WHERE sleepEachRow(0.5) = 0 SETTINGS max_block_size = 1'

/** Generous on a loaded machine, and far below the query's 100 s. */
const goneLimitMs = 10_000

/**
 * A client through a proxy that resets every connection a KILL QUERY goes out on (a new one
 * or a kept-alive one) before the KILL's bytes reach the server, the first `dropKills` of
 * them (all by default).
 */
async function proxied(transport: (typeof transports)[number], dropKills = Number.POSITIVE_INFINITY) {
  const proxy = await FaultProxy.start(
    { host: server.host, port: transport === 'native' ? server.ports.tcp : server.ports.http },
    {},
    // The modern engines abort on an RST from a connection they read: their side gets a FIN.
    { resetServer: server.generation !== 'modern' },
  )
  let killsDropped = 0
  let killsThrough = 0
  proxy.setTap((connection, direction, bytes) => {
    if (direction !== 'toServer' || !Buffer.from(bytes).includes('KILL QUERY')) return
    if (killsDropped < dropKills && proxy.resetConnection(connection)) killsDropped++
    else killsThrough++
  })
  const scheme = transport === 'native' ? 'clickhouse' : 'http'
  const client = createClient({ url: `${scheme}://127.0.0.1:${proxy.port}` })
  return {
    proxy,
    client,
    get killsDropped() {
      return killsDropped
    },
    get killsThrough() {
      return killsThrough
    },
    async [Symbol.asyncDispose]() {
      await client.close()
      await proxy.close()
    },
  }
}

describe.each(transports)('%s', (transport) => {
  const id = (what: string) =>
    `failed-kill-${what}-${transport}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`
  /** 18.16 over HTTP: nothing on the query's own connection can stop it (see the top). */
  const onlyKillStops = transport === 'http' && server.generation === 'legacy'
  /** The test's name, saying what 18.16 over HTTP does instead. */
  const title = (what: string) =>
    onlyKillStops
      ? `${what} runs on where its KILL fails (18.16 over HTTP; the test kills it)`
      : `${what} stops the query though its KILL fails`

  /** Starts the query, and once the server runs it, refuses every new connection. */
  async function start(
    setup: Awaited<ReturnType<typeof proxied>>,
    observer: Client,
    queryId: string,
    options: { timeoutMs?: number; signal?: AbortSignal; settings?: Record<string, number> } = {},
  ) {
    const result = thrown(async () => (await setup.client.query(longQuery, { queryId, ...options })).rows())
    await waitRunning(observer, queryId)
    setup.proxy.setFault({ refuse: true })
    return { result }
  }

  /**
   * The query is gone within the bound; where only a KILL could stop it (`onlyKill`: 18.16
   * over HTTP), it still runs 3 s on, and the test then kills it itself.
   */
  async function expectStopped(
    setup: Awaited<ReturnType<typeof proxied>>,
    observer: Client,
    queryId: string,
  ) {
    if (onlyKillStops) {
      await new Promise((resolve) => setTimeout(resolve, 3000))
      expect(await runsNow(observer, queryId)).toBe(true)
      await (await observer.query(`KILL QUERY WHERE query_id = '${queryId}' SYNC`)).rows()
    }
    expect(await goneWithin(observer, queryId, goneLimitMs)).toBeGreaterThanOrEqual(0)
    expect(setup.killsThrough).toBe(0)
  }

  it(title('a per-call timeout'), async () => {
    await using setup = await proxied(transport)
    await using observer = clientFor(transport)
    const queryId = id('timeout')
    const error = await (await start(setup, observer, queryId, { timeoutMs: 3000 })).result
    expect(error).toBeInstanceOf(TimeoutError)
    await expectStopped(setup, observer, queryId)
  })

  it(title('an abort'), async () => {
    await using setup = await proxied(transport)
    await using observer = clientFor(transport)
    const queryId = id('abort')
    const controller = new AbortController()
    const { result } = await start(setup, observer, queryId, { signal: controller.signal })
    controller.abort()
    expect(await result).toBeInstanceOf(AbortError)
    await expectStopped(setup, observer, queryId)
  })

  it(title('a per-call timeout, then close() at once,'), async () => {
    await using setup = await proxied(transport)
    await using observer = clientFor(transport)
    const queryId = id('timeout-close')
    const error = await (await start(setup, observer, queryId, { timeoutMs: 3000 })).result
    await setup.client.close()
    expect(error).toBeInstanceOf(TimeoutError)
    await expectStopped(setup, observer, queryId)
  })

  // 18.16 over native cannot: its handler, failing on the dropped connection, waits for the
  // query's running read to end, and a KILL QUERY ... SYNC from elsewhere does not end it
  // sooner (checked live: still in system.processes 10 s after the KILL). There a shorter
  // query (30 rows, 15 s) shows it runs on to its end.
  const runsToEnd = transport === 'native' && server.generation === 'legacy'
  it(runsToEnd
    ? 'a dropped connection leaves the query to run to its end'
    : title('a dropped connection'), async () => {
    await using setup = await proxied(transport)
    await using observer = clientFor(transport)
    const queryId = id('dropped')
    const sql = runsToEnd ? longQuery.replace('numbers(200)', 'numbers(30)') : longQuery
    const started = Date.now()
    const result = thrown(async () => (await setup.client.query(sql, { queryId })).rows())
    await waitRunning(observer, queryId)
    setup.proxy.setFault({ refuse: true })
    setup.proxy.resetAll()
    expect(await result).toBeInstanceOf(ConnectionError)
    if (runsToEnd) {
      await new Promise((resolve) => setTimeout(resolve, 3000))
      expect(await runsNow(observer, queryId)).toBe(true)
      expect(await goneWithin(observer, queryId, 30_000)).toBeGreaterThanOrEqual(0)
      expect(Date.now() - started).toBeGreaterThanOrEqual(14_000)
      return
    }
    await expectStopped(setup, observer, queryId)
  }, 60_000)

  // The KILL is sent again after a failure: the first one is dropped, a later one arrives.
  // Over HTTP the query opts out of the server's own cancel (where the server has it), so
  // that only the KILL can stop it.
  it('a KILL that fails is sent again, and the query is gone', async () => {
    await using setup = await proxied(transport, 1)
    await using observer = clientFor(transport)
    const queryId = id('retried')
    const settings =
      transport === 'http' && server.generation !== 'legacy'
        ? { cancel_http_readonly_queries_on_client_close: 0 }
        : undefined
    const result = thrown(async () =>
      (await setup.client.query(longQuery, { queryId, timeoutMs: 3000, settings })).rows(),
    )
    await waitRunning(observer, queryId)
    expect(await result).toBeInstanceOf(TimeoutError)
    expect(await goneWithin(observer, queryId, goneLimitMs)).toBeGreaterThanOrEqual(0)
    if (transport === 'http') {
      expect(setup.killsDropped).toBe(1)
      expect(setup.killsThrough).toBeGreaterThanOrEqual(1)
    }
  })
})
