// Done-when "Concurrency", and the pool's idle eviction, ping before reuse, and recovery
// from pooled connections the server dropped.
import { FaultProxy } from '@clickwire/testing'
import { afterEach, expect, inject, it, vi } from 'vitest'
import { createNativeTransport } from '../src/index.js'
import { NativeConnection } from '../src/native-connection.js'
import { parseNativeUrl } from '../src/native-options.js'
import { collect, connectionMark, firstValue, markConnection, sleep } from './support/native-helpers.js'
import { TapProxy } from './support/tap-proxy.js'

const server = inject('clickhouse')
const { host, port } = parseNativeUrl(server.nativeUrl).hosts[0]!

afterEach(() => {
  vi.restoreAllMocks()
})

it('runs 8 concurrent queries over a pool of 4, never with more than 4 connections open', async () => {
  const proxy = await FaultProxy.start({ host, port })
  const native = createNativeTransport({
    hosts: [{ host: '127.0.0.1', port: proxy.port }],
    maxConnections: 4,
  })
  let maxPool = 0
  let maxSockets = 0
  let maxWaiting = 0
  const sampler = setInterval(() => {
    maxPool = Math.max(maxPool, native.poolStats.open)
    maxWaiting = Math.max(maxWaiting, native.poolStats.waiting)
    maxSockets = Math.max(maxSockets, proxy.open)
  }, 5)
  try {
    const results = await Promise.all(
      Array.from({ length: 8 }, async (_, index) => {
        const stream = await native.query(
          `SELECT ${index} AS i, number FROM system.numbers WHERE sleepEachRow(0.05) = 0 LIMIT 4 SETTINGS max_block_size = 1`,
        )
        return collect(stream)
      }),
    )
    results.forEach((result, index) => {
      expect(result.columns).toEqual([
        [index, index, index, index],
        [0n, 1n, 2n, 3n],
      ])
    })
    expect(maxPool).toBe(4)
    expect(maxSockets).toBeLessThanOrEqual(4)
    expect(maxWaiting).toBeGreaterThan(0)
    expect(proxy.accepted).toBe(4)
    expect(native.poolStats).toEqual({ open: 4, idle: 4, waiting: 0, created: 4 })
  } finally {
    clearInterval(sampler)
    await native.close()
    await proxy.close()
  }
})

it('closes connections idle longer than the idle timeout', async () => {
  const proxy = await FaultProxy.start({ host, port })
  const native = createNativeTransport({
    hosts: [{ host: '127.0.0.1', port: proxy.port }],
    idleTimeoutMs: 300,
  })
  try {
    expect(await firstValue(native, 'SELECT 1')).toBe(1)
    expect(native.poolStats).toMatchObject({ open: 1, idle: 1 })
    // Until idleTimeoutMs closes it: generous, for a loaded machine runs that timer late.
    for (const until = Date.now() + 10_000; Date.now() < until && proxy.open > 0; ) await sleep(20)
    expect(native.poolStats).toEqual({ open: 0, idle: 0, waiting: 0, created: 1 })
    expect(proxy.open).toBe(0)
    expect(await firstValue(native, 'SELECT 2')).toBe(2)
    expect(native.poolStats.created).toBe(2)
  } finally {
    await native.close()
    await proxy.close()
  }
})

it('pings a connection idle past the threshold before reusing it, and replaces a dead one', async () => {
  const proxy = await TapProxy.start({ host, port })
  const native = createNativeTransport({
    hosts: [{ host: '127.0.0.1', port: proxy.port }],
    maxConnections: 1,
    pingAfterIdleMs: 200,
    connectTimeoutMs: 500,
  })
  const ping = vi.spyOn(NativeConnection.prototype, 'ping')
  try {
    await markConnection(native, 300_020)
    expect(await connectionMark(native)).toBe(300_020)
    expect(ping).toHaveBeenCalledTimes(0)
    await sleep(300)
    // Idle past 200 ms: pinged, alive, reused.
    expect(await connectionMark(native)).toBe(300_020)
    expect(ping).toHaveBeenCalledTimes(1)
    await expect(ping.mock.results[0]!.value).resolves.toBeUndefined()
    // Now the connection hangs without closing: the ping times out and a new one is made.
    proxy.freeze()
    await sleep(300)
    const started = performance.now()
    expect(await connectionMark(native)).toBe(262_144)
    expect(performance.now() - started).toBeGreaterThanOrEqual(490)
    expect(ping).toHaveBeenCalledTimes(2)
    await expect(ping.mock.results[1]!.value).rejects.toMatchObject({ timeout: 'ping' })
    expect(native.poolStats).toEqual({ open: 1, idle: 1, waiting: 0, created: 2 })
  } finally {
    await native.close()
    await proxy.close()
  }
})

it('sends a query again on a fresh connection when the pooled one turns out dead', async () => {
  const proxy = await TapProxy.start({ host, port })
  const native = createNativeTransport({
    hosts: [{ host: '127.0.0.1', port: proxy.port }],
    maxConnections: 1,
  })
  try {
    await markConnection(native, 300_021)
    // The server side goes away exactly when the next request arrives: no answer at all.
    proxy.cutOnNextRequest()
    expect(await connectionMark(native)).toBe(262_144)
    expect(native.poolStats).toEqual({ open: 1, idle: 1, waiting: 0, created: 2 })
    // An insert's header exchange is retried the same way.
    proxy.cutOnNextRequest()
    const result = await native.insert('system.numbers', () => []).catch((error: Error) => error)
    // (system.numbers refuses inserts: the point is that the server, not the dead socket, answered.)
    expect(result).toMatchObject({ code: 48 })
    expect(native.poolStats.created).toBe(3)
  } finally {
    await native.close()
    await proxy.close()
  }
})
