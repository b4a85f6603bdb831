// Load: 500 queries at once over a pool of 10 connections, on both transports, through a
// pass-through proxy that counts the connections. All must succeed with the right rows,
// the pool must never exceed 10 connections, memory must come back down, and the p50/p99
// latency (from the call to the last row read, pool wait included) is reported.
import { mkdirSync, writeFileSync } from 'node:fs'
import { createClient } from '@clickwire/client'
import { FaultProxy } from '@clickwire/testing'
import { afterAll, expect, inject, it } from 'vitest'
import { installProcessGuard } from '../src/guards/process-guard.js'
import { countResources, settledExcess } from '../src/guards/resource-census.js'
import { describeError } from '../src/guards/typed-errors.js'
import { proxyOptions, serverPort, transports } from './support/proxied-client.js'

const server = inject('clickhouse')
const guard = installProcessGuard()
afterAll(() => guard.dispose())

const longMode = process.env.CLICKWIRE_LONG === '1'
const concurrency = 500
const poolSize = 10
const rounds = longMode ? 20 : 1
const rowsPerQuery = 1000
const mb = 1024 * 1024

function collectGarbage(): void {
  // --expose-gc is set for this project (vitest.config.ts); without it the figures are rougher.
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc) {
    gc()
    gc()
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

for (const transport of transports) {
  it(`${transport}: ${concurrency} concurrent queries over a pool of ${poolSize}`, {
    timeout: longMode ? 3_600_000 : 120_000,
  }, async () => {
    const baseline = countResources()
    const proxy = await FaultProxy.start(
      { host: server.host, port: serverPort(server, transport) },
      {},
      proxyOptions(server, transport),
    )
    const scheme = transport === 'native' ? 'clickhouse' : 'http'
    const client = createClient({ url: `${scheme}://127.0.0.1:${proxy.port}`, maxConnections: poolSize })
    const latencies: number[] = []
    const failures: string[] = []
    const heapAfterRound: number[] = []
    let peakRss = 0
    let peakHeap = 0
    const sampler = setInterval(() => {
      const usage = process.memoryUsage()
      peakRss = Math.max(peakRss, usage.rss)
      peakHeap = Math.max(peakHeap, usage.heapUsed + usage.external)
    }, 20)
    const query = async (index: number) => {
      const started = performance.now()
      try {
        const result = await client.query(
          `SELECT ${index} AS i, number AS n, toString(number) AS s FROM system.numbers LIMIT ${rowsPerQuery}`,
        )
        const rows = await result.arrays()
        const last = rows[rowsPerQuery - 1]
        if (rows.length !== rowsPerQuery || last?.[0] !== index || last[1] !== BigInt(rowsPerQuery - 1)) {
          failures.push(`query ${index}: ${rows.length} rows, last ${String(last)}`)
        }
        latencies.push(performance.now() - started)
      } catch (error) {
        failures.push(`query ${index}: ${describeError(error)}`)
      }
    }
    let seconds = 0
    let before: NodeJS.MemoryUsage
    try {
      // Warm-up: fills the pool and the JIT, so "before" is the steady state.
      await Promise.all(Array.from({ length: 2 * poolSize }, (_, index) => query(index)))
      latencies.length = 0
      collectGarbage()
      before = process.memoryUsage()
      proxy.resetPeak()
      const acceptedBefore = proxy.accepted
      const started = performance.now()
      for (let round = 0; round < rounds; round++) {
        await Promise.all(Array.from({ length: concurrency }, (_, index) => query(index)))
        collectGarbage()
        heapAfterRound.push(process.memoryUsage().heapUsed)
      }
      seconds = (performance.now() - started) / 1000
      expect(failures).toEqual([])
      expect(latencies).toHaveLength(concurrency * rounds)
      expect(proxy.peakOpen, 'connections open at once').toBeLessThanOrEqual(poolSize)
      // The warm pool is reused: no connection churn under load.
      expect(proxy.accepted - acceptedBefore, 'connections opened during the load').toBeLessThanOrEqual(
        poolSize,
      )
    } finally {
      clearInterval(sampler)
      await client.close()
      await proxy.close()
    }
    collectGarbage()
    const after = process.memoryUsage()
    const sorted = [...latencies].sort((a, b) => a - b)
    const figures = {
      transport,
      queries: latencies.length,
      concurrency,
      poolSize,
      rowsPerQuery,
      seconds: Number(seconds.toFixed(2)),
      queriesPerSecond: Math.round(latencies.length / seconds),
      latencyMs: {
        p50: Number(percentile(sorted, 50).toFixed(1)),
        p99: Number(percentile(sorted, 99).toFixed(1)),
        max: Number(sorted.at(-1)!.toFixed(1)),
      },
      peakConnections: proxy.peakOpen,
      memoryMb: {
        heapBefore: Number((before!.heapUsed / mb).toFixed(1)),
        heapAfter: Number((after.heapUsed / mb).toFixed(1)),
        rssBefore: Number((before!.rss / mb).toFixed(1)),
        rssPeak: Number((peakRss / mb).toFixed(1)),
        rssAfter: Number((after.rss / mb).toFixed(1)),
        heapAndExternalPeak: Number((peakHeap / mb).toFixed(1)),
      },
    }
    console.log(`[load] ${JSON.stringify(figures)}`)
    if (process.env.CLICKWIRE_WRITE_RESULTS === '1') {
      const directory = new URL('../results/', import.meta.url)
      mkdirSync(directory, { recursive: true })
      writeFileSync(new URL(`load-${transport}.json`, directory), `${JSON.stringify(figures, null, 2)}\n`)
    }
    // Memory is bounded: what the load allocated is garbage once it is over, and the peak
    // stays far below what keeping 500 results (or 500 connections' buffers) would take.
    expect(after.heapUsed - before!.heapUsed, 'heap growth after the load (bytes)').toBeLessThan(16 * mb)
    expect(peakRss - before!.rss, 'RSS growth at the peak (bytes)').toBeLessThan(400 * mb)
    if (rounds > 1)
      expect(heapAfterRound.at(-1)! - heapAfterRound[0]!, 'heap growth from round to round').toBeLessThan(
        16 * mb,
      )
    expect(await settledExcess(baseline)).toEqual([])
    expect(guard.events).toEqual([])
  })
}
