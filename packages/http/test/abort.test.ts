import { AbortError, TimeoutError } from '@clickwire/protocol'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const slow = 'SELECT sleepEachRow(0.5) FROM system.numbers LIMIT 100 SETTINGS max_block_size=1'
/**
 * How soon a stopped query must be gone from the server: generous on a loaded machine (the
 * KILL QUERY is one more request, the server notices it at its next row), and far below the
 * 50 s the queries here would run if nothing stopped them.
 */
const goneLimitMs = 10_000
// 18.16 sends nothing, not even the headers, before 1 MiB of output is buffered: rows of
// more than 1 MiB make a slow query stream.
const slowStream =
  'SELECT sleepEachRow(0.5), toString(range(200000)) AS big FROM system.numbers LIMIT 100 SETTINGS max_block_size=1'

describe('cancel and timeouts', () => {
  const http = createHttpTransport({ url: server.httpUrl })
  const observer = createHttpTransport({ url: server.httpUrl })
  afterAll(async () => {
    await http.close()
    await observer.close()
  })

  async function running(queryId: string): Promise<boolean> {
    // Query ids here are plain ASCII, so a literal needs no escaping.
    const result = await observer.query(
      `SELECT count() AS n FROM system.processes WHERE query_id = '${queryId}'`,
    )
    for await (const row of result.rows()) return row.n === 1n
    return false
  }

  async function waitUntil(condition: () => Promise<boolean>, ms: number): Promise<number> {
    const started = Date.now()
    while (!(await condition())) {
      if (Date.now() - started > ms) throw new Error(`condition not met within ${ms} ms`)
      await sleep(25)
    }
    return Date.now() - started
  }

  it('an AbortSignal stops the server-side query, well before it would end', async () => {
    const controller = new AbortController()
    const queryId = `abort-${Date.now()}`
    // The call resolves once the server starts its answer, which a loaded machine can see
    // before the abort: the rows are read too, so the abort fails the call either way.
    const pending = http.query(slow, { signal: controller.signal, queryId }).then(async (result) => {
      for await (const _ of result) {
        // a row every 0.5 s
      }
    })
    pending.catch(() => {})
    await waitUntil(() => running(queryId), 5000)
    const aborted = Date.now()
    controller.abort(new Error('user gave up'))
    const error = await pending.catch((caught: unknown) => caught)
    expect(AbortError.isInstance(error), String(error)).toBe(true)
    expect((error as AbortError).reason).toEqual(new Error('user gave up'))
    await waitUntil(async () => !(await running(queryId)), goneLimitMs)
    expect(Date.now() - aborted).toBeLessThan(goneLimitMs)
  })

  it('an abort while rows stream stops the query, well before it would end', async () => {
    const controller = new AbortController()
    const queryId = `abort-stream-${Date.now()}`
    const result = await http.query(slowStream, { signal: controller.signal, queryId })
    const consumed = (async () => {
      for await (const _ of result) {
        // rows arrive one every 0.5 s
      }
    })()
    consumed.catch(() => {})
    await waitUntil(() => running(queryId), 5000)
    const aborted = Date.now()
    controller.abort(new Error('user gave up'))
    const error = await consumed.catch((caught: unknown) => caught)
    expect(AbortError.isInstance(error), String(error)).toBe(true)
    await waitUntil(async () => !(await running(queryId)), goneLimitMs)
    expect(Date.now() - aborted).toBeLessThan(goneLimitMs)
  })

  it('breaking out of the iteration cancels the query', async () => {
    const queryId = `break-${Date.now()}`
    const result = await http.query(slowStream, { queryId })
    let seen = false
    for await (const _ of result) {
      // A row came and 99 more are due, one every 0.5 s: the server runs the query now.
      seen = await running(queryId)
      break
    }
    expect(seen).toBe(true)
    await waitUntil(async () => !(await running(queryId)), goneLimitMs)
  })

  it('a request timeout is a TimeoutError and stops the query', async () => {
    const queryId = `timeout-${Date.now()}`
    const error = await (async () => {
      const result = await http.query(slowStream, { queryId, timeoutMs: 1200 })
      for await (const _ of result) {
        // rows arrive one every 0.5 s
      }
    })().catch((caught: unknown) => caught)
    expect(TimeoutError.isInstance(error), String(error)).toBe(true)
    // The words and the kind of limit the native transport uses for the same deadline.
    expect((error as TimeoutError).timeout).toBe('query')
    expect((error as TimeoutError).message).toBe(`query ${queryId} ran longer than 1200 ms`)
    await waitUntil(async () => !(await running(queryId)), goneLimitMs)
  })

  it('an idle timeout is a TimeoutError', async () => {
    const idle = createHttpTransport({ url: server.httpUrl, receiveTimeoutMs: 300 })
    try {
      const error = await idle
        .query('SELECT sleepEachRow(1) FROM system.numbers LIMIT 2 SETTINGS max_block_size=1')
        .then(async (result) => {
          for await (const _ of result) {
            // the first row takes 1 s
          }
        })
        .catch((caught: unknown) => caught)
      expect(TimeoutError.isInstance(error), String(error)).toBe(true)
      expect((error as TimeoutError).timeout).toBe('idle')
    } finally {
      await idle.close()
    }
  })

  it('a refused connection is a ConnectionError', async () => {
    const refused = createHttpTransport({ url: 'http://127.0.0.1:1' })
    const error = await refused.ping().catch((caught: unknown) => caught)
    expect((error as Error).name).toBe('ConnectionError')
    expect((error as { code?: string }).code).toBe('ECONNREFUSED')
    await refused.close()
  })
})
