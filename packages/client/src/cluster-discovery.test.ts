// How system.clusters rows become the client's hosts (discoverCluster), without a server;
// test/cluster-balancing.test.ts reads a real cluster's.
import { UsageError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { clusterEndpoints, clusterNodesSql } from './cluster-discovery.js'
import { type ClusterNode, resolveDiscovery } from './cluster-discovery-options.js'

const node = (
  shard: number,
  replica: number,
  hostName: string,
  port: number,
  isLocal = false,
): ClusterNode => ({
  shard,
  shardWeight: 1,
  replica,
  hostName,
  hostAddress: hostName === 'localhost' ? '127.0.0.1' : `10.0.0.${shard}${replica}`,
  port,
  isLocal,
})

const nodes = [
  node(1, 1, 'ch-1a', 9000, true),
  node(1, 2, 'ch-1b', 9000),
  node(2, 1, 'ch-2a', 9000),
  node(2, 2, 'ch-2b', 9001),
]

describe('resolveDiscovery', () => {
  it('takes a name or an object, with a 60 s refresh by default', () => {
    expect(resolveDiscovery(undefined)).toBeUndefined()
    expect(resolveDiscovery('main')).toEqual({
      cluster: 'main',
      shard: undefined,
      port: undefined,
      refreshIntervalMs: 60_000,
    })
    expect(resolveDiscovery({ cluster: 'main', shard: 2, port: 8123, refreshIntervalMs: 0 })).toEqual({
      cluster: 'main',
      shard: 2,
      port: 8123,
      refreshIntervalMs: 0,
    })
  })

  it('refuses what cannot be right with a UsageError naming the field', () => {
    expect(() => resolveDiscovery('')).toThrow(UsageError)
    expect(() => resolveDiscovery({ cluster: 'main', shard: 0 })).toThrow(
      'discoverCluster.shard must be a shard number from 1, got 0',
    )
    expect(() => resolveDiscovery({ cluster: 'main', port: 70_000 })).toThrow(
      'discoverCluster.port must be a port or a function of the node, got 70000',
    )
    expect(() => resolveDiscovery({ cluster: 'main', refreshIntervalMs: -1 })).toThrow(
      'discoverCluster.refreshIntervalMs must be 0 or more, got -1',
    )
  })
})

describe('clusterEndpoints', () => {
  const seed = { host: 'ch-1a', port: 9000 }

  it('quotes the cluster name as a string literal', () => {
    expect(clusterNodesSql("it's")).toBe(
      "SELECT shard_num, shard_weight, replica_num, host_name, host_address, port, is_local FROM system.clusters WHERE cluster = 'it\\'s' ORDER BY shard_num, replica_num",
    )
  })

  it('uses every node by its configured name and native port over clickhouse://', () => {
    expect(clusterEndpoints(nodes, resolveDiscovery('main')!, seed, 'native', false)).toEqual([
      { host: 'ch-1a', port: 9000 },
      { host: 'ch-1b', port: 9000 },
      { host: 'ch-2a', port: 9000 },
      { host: 'ch-2b', port: 9001 },
    ])
  })

  it('keeps to one shard with shard', () => {
    expect(
      clusterEndpoints(nodes, resolveDiscovery({ cluster: 'main', shard: 2 })!, seed, 'native', false),
    ).toEqual([
      { host: 'ch-2a', port: 9000 },
      { host: 'ch-2b', port: 9001 },
    ])
    expect(() =>
      clusterEndpoints(nodes, resolveDiscovery({ cluster: 'main', shard: 3 })!, seed, 'native', false),
    ).toThrow('cluster main has no shard 3 in system.clusters of ch-1a:9000')
    expect(() => clusterEndpoints([], resolveDiscovery('other')!, seed, 'native', false)).toThrow(
      'cluster other is not in system.clusters of ch-1a:9000',
    )
  })

  it("shifts native ports by the seed's own offset over HTTP and native TLS", () => {
    const https = { host: 'ch-1a', port: 8443 }
    expect(
      clusterEndpoints(nodes, resolveDiscovery('main')!, https, 'http', true).map((each) => each.port),
    ).toEqual([8443, 8443, 8443, 8444])
    const tls = { host: 'ch-1a', port: 9440 }
    expect(
      clusterEndpoints(nodes, resolveDiscovery('main')!, tls, 'native', true).map((each) => each.port),
    ).toEqual([9440, 9440, 9440, 9441])
  })

  it('takes a port or a function of the node instead', () => {
    const http = { host: 'ch-1a', port: 8123 }
    expect(
      clusterEndpoints(nodes, resolveDiscovery({ cluster: 'main', port: 8124 })!, http, 'http', false).map(
        (each) => each.port,
      ),
    ).toEqual([8124, 8124, 8124, 8124])
    const byName = resolveDiscovery({ cluster: 'main', port: (each) => (each.replica === 1 ? 8123 : 18123) })!
    expect(clusterEndpoints(nodes, byName, http, 'http', false).map((each) => each.port)).toEqual([
      8123, 18123, 8123, 18123,
    ])
    const broken = resolveDiscovery({ cluster: 'main', port: () => 0 })!
    expect(() => clusterEndpoints(nodes, broken, http, 'http', false)).toThrow(
      'discoverCluster.port gave 0 for ch-1a:9000',
    )
  })

  it('refuses HTTP without a port when the seed is not a node of the cluster', () => {
    const outside = nodes.map((each) => ({ ...each, isLocal: false }))
    expect(() =>
      clusterEndpoints(outside, resolveDiscovery('main')!, { host: 'lb', port: 8123 }, 'http', false),
    ).toThrow(
      'discoverCluster over HTTP needs discoverCluster.port: system.clusters lists only native TCP ports, and the seed lb:8123 is not a node of cluster main to shift them by',
    )
    // Nodes on the default native port: the scheme's default port, as direct inserts assume.
    const defaults = outside.map((each) => ({ ...each, port: 9000 }))
    expect(
      clusterEndpoints(defaults, resolveDiscovery('main')!, { host: 'lb', port: 443 }, 'http', true).map(
        (each) => `${each.host}:${each.port}`,
      ),
    ).toEqual(['ch-1a:8443', 'ch-1b:8443', 'ch-2a:8443', 'ch-2b:8443'])
    const allLocal = nodes.map((each) => ({ ...each, isLocal: true }))
    expect(() =>
      clusterEndpoints(allLocal, resolveDiscovery('main')!, { host: 'ch-1a', port: 8123 }, 'http', false),
    ).toThrow(/the seed ch-1a:8123 is not one known node of cluster main/)
  })

  it("reads a loopback name as the seed's machine unless the seed is on loopback too", () => {
    const local = [node(1, 1, 'localhost', 9000, true), node(1, 2, '127.0.0.1', 9001)]
    expect(
      clusterEndpoints(local, resolveDiscovery('main')!, { host: 'box', port: 9000 }, 'native', false),
    ).toEqual([
      { host: 'box', port: 9000 },
      { host: 'box', port: 9001 },
    ])
    expect(
      clusterEndpoints(local, resolveDiscovery('main')!, { host: '127.0.0.1', port: 9000 }, 'native', false),
    ).toEqual([
      { host: 'localhost', port: 9000 },
      { host: '127.0.0.1', port: 9001 },
    ])
  })
})
