// The 2-shard × 2-replica cluster: four servers, their macros, one throwaway ZooKeeper they
// all reach, a killed replica that comes back, and a stop that leaves nothing behind.
import { existsSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  type ClickHouseServer,
  startClickHouse,
  zooKeeperInstalled,
  zooKeeperInstallHint,
} from '../src/index.js'

const shared = inject('clickhouse')
/** The modern engine connects to ZooKeeper but has no system.zookeeper to show it (60 UNKNOWN_TABLE). */
const modern = shared.generation === 'modern'
const skipReason = !zooKeeperInstalled()
  ? zooKeeperInstallHint
  : shared.source !== 'local'
    ? 'the run uses an external server'
    : undefined

async function httpQuery(url: string, query: string): Promise<string> {
  const response = await fetch(url, { method: 'POST', body: query })
  const text = await response.text()
  if (!response.ok) throw new Error(`${response.status}: ${text}`)
  return text
}

/** `1` when the node's ZooKeeper session works (system.zookeeper lists the root's `zookeeper`). */
function zooKeeperRoot(node: ClickHouseServer): Promise<string> {
  return httpQuery(
    node.httpUrl,
    `SELECT count() FROM system.zookeeper WHERE path = '/' AND name = 'zookeeper'`,
  )
}

function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
}

describe.skipIf(skipReason !== undefined)(
  `a replicated cluster${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let cluster: ClickHouseServer
    let startMs = 0
    beforeAll(async () => {
      const started = Date.now()
      cluster = await startClickHouse({ local: true, shards: 2, replicas: 2 })
      startMs = Date.now() - started
    }, 120_000)
    afterAll(async () => {
      await cluster?.stop()
    })

    it('places four nodes in two shards of two replicas, each with its macros', async () => {
      const nodes = cluster.nodes
      expect(nodes.map((node) => [node.shard, node.replica])).toEqual([
        [1, 1],
        [1, 2],
        [2, 1],
        [2, 2],
      ])
      const layout = await httpQuery(
        nodes[0]!.httpUrl,
        `SELECT shard_num, replica_num, port FROM system.clusters WHERE cluster = '${cluster.clusterName}' ORDER BY shard_num, replica_num FORMAT TSV`,
      )
      expect(layout).toBe(nodes.map((node) => `${node.shard}\t${node.replica}\t${node.ports.tcp}\n`).join(''))
      for (const node of nodes) {
        const macros = await httpQuery(
          node.httpUrl,
          `SELECT macro, substitution FROM system.macros ORDER BY macro FORMAT TSV`,
        )
        expect(macros).toBe(`replica\ts${node.shard}r${node.replica}\nshard\t${node.shard}\n`)
        // Every node reaches the ZooKeeper: the root lists the `zookeeper` system node.
        if (!modern) expect(await zooKeeperRoot(node)).toBe('1\n')
      }
      const serversKiB = nodes.reduce((sum, node) => sum + rssKiB(node.pid!), 0)
      const zooKeeperKiB = rssKiB(cluster.zooKeeper!.pid!)
      // The figures the CI budget is judged by (2 cores): start time and resident memory.
      console.info(
        `2x2 cluster started in ${startMs} ms; RSS: 4 servers ${Math.round(serversKiB / 1024)} MiB, ZooKeeper ${Math.round(zooKeeperKiB / 1024)} MiB`,
      )
    })

    it('kills and restarts one replica, which rejoins ZooKeeper', async () => {
      const replica = cluster.nodes[3]!
      const before = replica.pid!
      await replica.kill()
      expect(replica.pid).toBeUndefined()
      await expect(fetch(`${replica.httpUrl}/ping`)).rejects.toThrow()
      await replica.restart()
      expect(replica.pid).not.toBe(before)
      expect(await httpQuery(replica.httpUrl, 'SELECT 7')).toBe('7\n')
      if (!modern) expect(await zooKeeperRoot(replica)).toBe('1\n')
    }, 60_000)

    it('stops every node and the ZooKeeper, deleting their folders', async () => {
      const dirs = [...cluster.nodes.map((node) => node.dir!), cluster.zooKeeper!.dir]
      const zooKeeperPid = cluster.zooKeeper!.pid!
      await cluster.stop()
      expect(cluster.zooKeeper!.pid).toBeUndefined()
      expect(() => process.kill(zooKeeperPid, 0)).toThrow()
      for (const dir of dirs) expect(existsSync(dir)).toBe(false)
    }, 30_000)
  },
)
