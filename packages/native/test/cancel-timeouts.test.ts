// Done-when "Abort", and the connect, query and receive (idle) timeouts: each ends with its
// typed error, stops the query on the server, and leaves the pool consistent.
import { AbortError, TimeoutError } from '@clickwire/protocol'
import { FaultProxy } from '@clickwire/testing'
import { expect, inject, it } from 'vitest'
import { createNativeTransport, type NativeTransport } from '../src/index.js'
import { parseNativeUrl } from '../src/native-options.js'
import { connectionMark, firstValue, markConnection, nativeOn, sleep } from './support/native-helpers.js'
import { TapProxy } from './support/tap-proxy.js'

const server = inject('clickhouse')
/**
 * How long past its limit a call may settle: generous, for a loaded machine runs every timer
 * and teardown late. The lower bounds stay exact: a limit never fires early.
 */
const loadSlackMs = 5_000
const { host, port } = parseNativeUrl(server.nativeUrl).hosts[0]!

/** Whether a query id is in system.processes, asked on a connection of its own. */
async function running(queryId: string): Promise<boolean> {
  const observer = nativeOn(server, { maxConnections: 1 })
  try {
    return (
      (await firstValue(observer, `SELECT count() FROM system.processes WHERE query_id = '${queryId}'`)) ===
      1n
    )
  } finally {
    await observer.close()
  }
}

/** Runs `sql` to the end, counting rows; returns the error it ended with and when. */
async function drain(native: NativeTransport, sql: string, options: Parameters<NativeTransport['query']>[1]) {
  let rows = 0
  try {
    const stream = await native.query(sql, options)
    for await (const block of stream) rows += block.rows
    return { rows, error: undefined, at: performance.now() }
  } catch (error) {
    return { rows, error: error as Error, at: performance.now() }
  }
}

it('aborts a long query within 1 s, the query leaves the server, and the same connection runs the next one', async () => {
  const native = nativeOn(server, { maxConnections: 1 })
  try {
    await markConnection(native, 300_010)
    const controller = new AbortController()
    const queryId = `abort-${Date.now()}`
    const stream = await native.query(
      'SELECT sleepEachRow(0.5) FROM system.numbers LIMIT 100 SETTINGS max_block_size = 1',
      { signal: controller.signal, queryId },
    )
    const iterator = stream[Symbol.asyncIterator]()
    expect((await iterator.next()).value?.rows).toBe(1)
    // The query id the caller chose is what the server shows while the query runs.
    expect(await running(queryId)).toBe(true)
    const pending = iterator.next()
    const abortedAt = performance.now()
    controller.abort(new Error('user gave up'))
    const error = await pending.then(
      () => undefined,
      (caught: unknown) => caught,
    )
    const elapsed = performance.now() - abortedAt
    expect(AbortError.isInstance(error)).toBe(true)
    expect((error as AbortError).reason).toEqual(new Error('user gave up'))
    // The next row would come within 0.5 s: the error itself shows the abort won; the bound
    // only fails a hang, generously (a loaded machine runs everything late).
    expect(elapsed).toBeLessThan(loadSlackMs)
    console.log(`abort: the pending read failed ${elapsed.toFixed(1)} ms after abort()`)
    // Pool of one: this query waits until the cancelled one drained to its EndOfStream, and
    // runs on the same connection (the session mark is still there) once the server let go.
    expect(
      await firstValue(native, `SELECT count() FROM system.processes WHERE query_id = '${queryId}'`),
    ).toBe(0n)
    expect(await connectionMark(native)).toBe(300_010)
    expect(native.poolStats).toEqual({ open: 1, idle: 1, waiting: 0, created: 1 })
    expect(await running(queryId)).toBe(false)
  } finally {
    await native.close()
  }
})

it('fails at once on a signal aborted before the query starts', async () => {
  const native = nativeOn(server, { maxConnections: 1 })
  try {
    const error = await native
      .query('SELECT 1', { signal: AbortSignal.abort('early') })
      .catch((caught) => caught)
    expect(AbortError.isInstance(error)).toBe(true)
    expect(native.poolStats).toEqual({ open: 0, idle: 0, waiting: 0, created: 0 })
  } finally {
    await native.close()
  }
})

it('cancels when the consumer breaks out of the loop, then reuses the connection', async () => {
  const native = nativeOn(server, { maxConnections: 1 })
  try {
    await markConnection(native, 300_011)
    const stream = await native.query('SELECT number FROM system.numbers', {
      settings: { max_block_size: 1000 },
    })
    let blocks = 0
    for await (const _ of stream) if (++blocks === 3) break
    expect(native.poolStats).toEqual({ open: 1, idle: 1, waiting: 0, created: 1 })
    expect(await connectionMark(native)).toBe(300_011)
  } finally {
    await native.close()
  }
})

it('ends a query running past its timeout with TimeoutError and stops it on the server', async () => {
  const native = nativeOn(server, { maxConnections: 1 })
  try {
    await markConnection(native, 300_012)
    const queryId = `timeout-${Date.now()}`
    const started = performance.now()
    const result = await drain(
      native,
      'SELECT sleepEachRow(0.5) FROM system.numbers LIMIT 40 SETTINGS max_block_size = 1',
      {
        timeoutMs: 800,
        queryId,
      },
    )
    expect(TimeoutError.isInstance(result.error)).toBe(true)
    expect(result.error).toMatchObject({ timeout: 'query', timeoutMs: 800 })
    expect(result.error!.message).toBe(`query ${queryId} ran longer than 800 ms`)
    const elapsed = result.at - started
    expect(elapsed).toBeGreaterThanOrEqual(790)
    expect(elapsed).toBeLessThan(800 + loadSlackMs)
    expect(result.rows).toBeGreaterThan(0)
    expect(
      await firstValue(native, `SELECT count() FROM system.processes WHERE query_id = '${queryId}'`),
    ).toBe(0n)
    expect(await connectionMark(native)).toBe(300_012)
  } finally {
    await native.close()
  }
})

it('times out connecting to a server that never answers the Hello', async () => {
  const proxy = await FaultProxy.start({ host, port }, { stallAfter: { direction: 'toServer', bytes: 0 } })
  const native = createNativeTransport({
    hosts: [{ host: '127.0.0.1', port: proxy.port }],
    connectTimeoutMs: 300,
  })
  try {
    const started = performance.now()
    const error = await native.query('SELECT 1').catch((caught) => caught)
    const elapsed = performance.now() - started
    expect(TimeoutError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ timeout: 'connect', timeoutMs: 300 })
    expect((error as Error).message).toBe(
      `connecting to 127.0.0.1:${proxy.port} timed out after 300 ms (no Hello from the server)`,
    )
    expect(elapsed).toBeGreaterThanOrEqual(290)
    expect(elapsed).toBeLessThan(300 + loadSlackMs)
    expect(proxy.accepted).toBe(1)
    expect(native.poolStats).toEqual({ open: 0, idle: 0, waiting: 0, created: 0 })
  } finally {
    await native.close()
    await proxy.close()
  }
})

it('gives up on a connection that goes silent mid-request (receive timeout) and drops it', async () => {
  const proxy = await TapProxy.start({ host, port })
  const native = createNativeTransport({
    hosts: [{ host: '127.0.0.1', port: proxy.port }],
    maxConnections: 1,
    receiveTimeoutMs: 400,
  })
  try {
    expect(await firstValue(native, 'SELECT 1')).toBe(1)
    proxy.freeze()
    const started = performance.now()
    const error = await native.query('SELECT 2').catch((caught) => caught)
    const elapsed = performance.now() - started
    expect(TimeoutError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ timeout: 'idle', timeoutMs: 400 })
    expect(elapsed).toBeGreaterThanOrEqual(390)
    expect(elapsed).toBeLessThan(400 + loadSlackMs)
    expect(native.poolStats).toEqual({ open: 0, idle: 0, waiting: 0, created: 1 })
    // The next query opens a fresh connection through the proxy (new connections are not frozen).
    expect(await firstValue(native, 'SELECT 3')).toBe(3)
    // Plus the connection that kills SELECT 2 on the server (KILL QUERY), opened at the timeout.
    expect(proxy.accepted).toBe(3)
  } finally {
    await native.close()
    await proxy.close()
  }
})

it('does not count a slow consumer as server silence', async () => {
  const native = nativeOn(server, { maxConnections: 1, receiveTimeoutMs: 300, readAheadBytes: 1 << 16 })
  try {
    const stream = await native.query('SELECT number FROM numbers(150000)', {
      settings: { max_block_size: 50000 },
    })
    let rows = 0
    for await (const block of stream) {
      rows += block.rows
      // Slower than the receive timeout, with the socket paused (read-ahead is 64 KiB).
      await sleep(400)
    }
    expect(rows).toBe(150_000)
  } finally {
    await native.close()
  }
})
