import { describe, expect, it } from 'vitest'
import { AbortError, TimeoutError } from '../src/index.js'
import { goneWithin, waitRunning } from './support/server-processes.js'
import { clientFor, server, thrown, transports } from './support/transports.js'

const silentQuery =
  'SELECT count() AS n FROM numbers(200) WHERE sleepEachRow(0.5) = 0 ' +
  'SETTINGS max_block_size = 1, interactive_delay = 60000000, send_progress_in_http_headers = 0'

describe.each(transports)('%s', (transport) => {
  const id = (what: string) =>
    `deadline-${what}-${transport}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`

  // The modern engine sends Progress every 100 ms over native whatever interactive_delay
  // says, so its receive timeout never fires on a running query (todo: stall it with a proxy).
  const silentServer = !(transport === 'native' && server.generation === 'modern')
  it.runIf(silentServer)('a receive timeout kills the query on the server', async () => {
    await using ch = clientFor(transport, { receiveTimeoutMs: 500 })
    await using observer = clientFor(transport)
    const queryId = id('receive')
    const watching = waitRunning(observer, queryId)
    const error = await thrown(async () => (await ch.query(silentQuery, { queryId })).rows())
    await watching.catch(() => {})
    expect(error).toBeInstanceOf(TimeoutError)
    expect(await goneWithin(observer, queryId, 10_000)).toBeGreaterThanOrEqual(0)
  })

  it('a request timeout kills the query on the server', async () => {
    await using ch = clientFor(transport, { requestTimeoutMs: 700 })
    await using observer = clientFor(transport)
    const queryId = id('request')
    const error = await thrown(async () => (await ch.query(silentQuery, { queryId })).rows())
    expect(error).toBeInstanceOf(TimeoutError)
    expect(await goneWithin(observer, queryId, 10_000)).toBeGreaterThanOrEqual(0)
  })

  it('a per-call timeout kills the query on the server', async () => {
    await using ch = clientFor(transport)
    await using observer = clientFor(transport)
    const queryId = id('call')
    const error = await thrown(async () => (await ch.query(silentQuery, { queryId, timeoutMs: 700 })).rows())
    expect(error).toBeInstanceOf(TimeoutError)
    expect(await goneWithin(observer, queryId, 10_000)).toBeGreaterThanOrEqual(0)
  })

  it('an abort kills the query on the server', async () => {
    await using ch = clientFor(transport)
    await using observer = clientFor(transport)
    const queryId = id('abort')
    const controller = new AbortController()
    void waitRunning(observer, queryId).then(
      () => controller.abort(),
      () => controller.abort(),
    )
    const error = await thrown(async () =>
      (await ch.query(silentQuery, { queryId, signal: controller.signal })).rows(),
    )
    expect(error).toBeInstanceOf(AbortError)
    expect(await goneWithin(observer, queryId, 10_000)).toBeGreaterThanOrEqual(0)
  })

  // close() right after the error, as `await using` and a try/finally do: the KILL QUERY
  // that the deadline sent is still out then, and close() must wait for it, not abort it.
  it('a per-call timeout, then close() at once: the query is gone from the server', async () => {
    const ch = clientFor(transport)
    await using observer = clientFor(transport)
    const queryId = id('call-close')
    const seen = waitRunning(observer, queryId).then(
      () => true,
      () => false,
    )
    const error = await thrown(async () => (await ch.query(silentQuery, { queryId, timeoutMs: 1500 })).rows())
    await ch.close()
    expect(error).toBeInstanceOf(TimeoutError)
    expect(await seen).toBe(true)
    // The query would run 100 s if nothing stopped it: 5 s tells the two apart on a loaded machine.
    expect(await goneWithin(observer, queryId, 10_000)).toBeGreaterThanOrEqual(0)
  })

  it('an abort, then close() at once: the query is gone from the server', async () => {
    const ch = clientFor(transport)
    await using observer = clientFor(transport)
    const queryId = id('abort-close')
    const controller = new AbortController()
    const seen = waitRunning(observer, queryId).then(
      () => true,
      () => false,
    )
    void seen.then(() => controller.abort())
    const error = await thrown(async () =>
      (await ch.query(silentQuery, { queryId, signal: controller.signal })).rows(),
    )
    await ch.close()
    expect(error).toBeInstanceOf(AbortError)
    expect(await seen).toBe(true)
    expect(await goneWithin(observer, queryId, 10_000)).toBeGreaterThanOrEqual(0)
  })

  it('close() kills the query on the server', async () => {
    const ch = clientFor(transport)
    await using observer = clientFor(transport)
    const queryId = id('close')
    const result = thrown(async () => (await ch.query(silentQuery, { queryId })).rows())
    await waitRunning(observer, queryId)
    await ch.close()
    const error = await result
    expect(error).toBeInstanceOf(Error)
    expect(await goneWithin(observer, queryId, 10_000)).toBeGreaterThanOrEqual(0)
  })
})
