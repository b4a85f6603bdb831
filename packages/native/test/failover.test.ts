// Done-when "Failover": two throwaway servers; each knows which one it is (a marker table),
// so every query tells where it landed. Strategies, a killed host, and the cooldown.
import { type ClickHouseServer, FaultProxy, startClickHouse } from '@clickwire/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createNativeTransport, type NativeTransport, type NativeTransportOptions } from '../src/index.js'
import { parseNativeUrl } from '../src/native-options.js'
import { nativeOn, sleep } from './support/native-helpers.js'

let cluster: ClickHouseServer
let nodes: readonly ClickHouseServer[]
const hostOf = (node: ClickHouseServer) => parseNativeUrl(node.nativeUrl).hosts[0]!

beforeAll(async () => {
  cluster = await startClickHouse({ shards: 2, local: true })
  nodes = cluster.nodes
  for (const [index, node] of nodes.entries()) {
    const native = nativeOn(node)
    try {
      await native.command('CREATE TABLE clickwire_node (n UInt8) ENGINE = TinyLog')
      await native.insert('clickwire_node', () => [{ rows: 1, columns: [[index]] }])
    } finally {
      await native.close()
    }
  }
}, 180_000)

afterAll(async () => {
  await cluster?.stop()
})

function transport(hosts: { host: string; port: number }[], options: Partial<NativeTransportOptions>) {
  return createNativeTransport({ hosts, ...options })
}

/**
 * Where `count` queries land when they run at the same time: each holds its connection
 * until all have started, so a pool with no idle connection opens `count` new ones.
 */
async function landed(native: NativeTransport, count: number): Promise<number[]> {
  const streams = []
  for (let i = 0; i < count; i++) streams.push(await native.query('SELECT n FROM clickwire_node'))
  const nodesHit: number[] = []
  for (const stream of streams) {
    for await (const block of stream) nodesHit.push(block.columns[0]!.column.get(0) as number)
  }
  return nodesHit
}

it('chooses hosts in order, round robin, or at random when opening connections', async () => {
  const hosts = nodes.map(hostOf)
  const inOrder = transport(hosts, { hostStrategy: 'in-order', maxConnections: 4 })
  const roundRobin = transport(hosts, { hostStrategy: 'round-robin', maxConnections: 4 })
  const random = transport(hosts, { hostStrategy: 'random', maxConnections: 20 })
  try {
    expect(await landed(inOrder, 4)).toEqual([0, 0, 0, 0])
    expect(await landed(roundRobin, 4)).toEqual([0, 1, 0, 1])
    // 20 connections all on one host by chance: probability 2 / 2^20.
    const randomHits = await landed(random, 20)
    expect(randomHits).toHaveLength(20)
    expect(new Set(randomHits)).toEqual(new Set([0, 1]))
  } finally {
    await Promise.all([inOrder.close(), roundRobin.close(), random.close()])
  }
})

it('keeps working on the other server when one is killed, sets the dead one aside, and retries it after the cooldown', async () => {
  // The first host goes through a proxy, which counts the connection attempts it gets.
  const proxy = await FaultProxy.start(hostOf(nodes[0]!))
  const cooldownMs = 2000
  const native = transport([{ host: '127.0.0.1', port: proxy.port }, hostOf(nodes[1]!)], {
    hostStrategy: 'in-order',
    hostCooldownMs: cooldownMs,
    maxConnections: 4,
  })
  try {
    expect(await landed(native, 1)).toEqual([0])
    expect(proxy.accepted).toBe(1)

    await nodes[0]!.kill()
    const failedAt = performance.now()
    // Every query succeeds, on the second server; the pooled connection to the dead one is
    // dropped, and one attempt at the dead host sets it aside.
    for (let i = 0; i < 5; i++) expect(await landed(native, 1)).toEqual([1])
    expect(proxy.accepted).toBe(2)
    // While it cools down, new connections do not even try it.
    expect(await landed(native, 3)).toEqual([1, 1, 1])
    expect(proxy.accepted).toBe(2)

    await nodes[0]!.restart()
    const waited = performance.now() - failedAt
    if (waited < cooldownMs + 100) await sleep(cooldownMs + 100 - waited)
    // After the cooldown the first host is first again: the new connections land on it
    // (idle connections to the second server are reused first).
    const idle = native.poolStats.idle
    const hits = await landed(native, 4)
    expect(hits.filter((node) => node === 0)).toHaveLength(4 - idle)
    expect(hits.filter((node) => node === 1)).toHaveLength(idle)
    expect(proxy.accepted).toBe(2 + 4 - idle)
  } finally {
    await native.close()
    await proxy.close()
  }
})
