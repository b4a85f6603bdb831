// A real 2-shard × 2-replica cluster with ZooKeeper (its own, not the injected server): ON
// CLUSTER DDL, ReplicatedMergeTree under a Distributed table, rows routed by the sharding
// key and copied to both replicas, and a Distributed read that survives a dead replica.
import { type ClickHouseServer, clusterSkipReason, startClickHouse } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../src/index.js'
import { server, type TransportName, transports, uniqueTable } from './support/transports.js'

const skipReason = clusterSkipReason(server, { replicated: true })

/** 18.16's name of the setting; 23+ call it `distributed_foreground_insert` (old name kept). */
const syncInsert = { insert_distributed_sync: 1 }

const rowsOf = (ids: readonly number[]) => ids.map((id) => ({ id, s: `row-${id}` }))

describe.skipIf(skipReason !== undefined)(
  `a 2-shard × 2-replica cluster${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let cluster: ClickHouseServer
    beforeAll(async () => {
      cluster = await startClickHouse({ local: true, shards: 2, replicas: 2 })
    }, 120_000)
    afterAll(async () => {
      await cluster?.stop()
    })

    const clientOn = (node: ClickHouseServer, transport: TransportName, settings = {}) =>
      createClient({ url: transport === 'native' ? node.nativeUrl : node.httpUrl, settings })

    /** A ReplicatedMergeTree on every node and a Distributed table over it, sharded by id. */
    async function createTables(transport: TransportName): Promise<{ local: string; dist: string }> {
      const local = uniqueTable(`cluster_${transport}`)
      const dist = `${local}_dist`
      await using ch = clientOn(cluster.nodes[0]!, transport)
      await ch.command(
        `CREATE TABLE ${local} ON CLUSTER ${cluster.clusterName} (id UInt32, s String)
         ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/${local}', '{replica}') ORDER BY id`,
      )
      await ch.command(
        `CREATE TABLE ${dist} ON CLUSTER ${cluster.clusterName} AS ${local}
         ENGINE = Distributed(${cluster.clusterName}, default, ${local}, id)`,
      )
      return { local, dist }
    }

    describe.each(transports)('%s', (transport) => {
      it('routes rows inserted through a Distributed table to their shard, on both replicas', async () => {
        const { local, dist } = await createTables(transport)
        const ids = Array.from({ length: 20 }, (_, index) => index * 7 + 3)
        {
          await using ch = clientOn(cluster.nodes[1]!, transport)
          expect((await ch.insert(dist, rowsOf(ids), { settings: syncInsert })).rowsWritten).toBe(ids.length)
        }
        // The insert wrote each row to one replica; the other fetches it through ZooKeeper.
        // Every replica is synced before any is read: a Distributed read may ask any of them.
        for (const node of cluster.nodes) {
          await using ch = clientOn(node, transport)
          await ch.command(`SYSTEM SYNC REPLICA ${local}`)
        }
        for (const node of cluster.nodes) {
          await using ch = clientOn(node, transport)
          // Two shards of weight 1: a row goes to shard (id % 2) + 1.
          const expected = ids.filter((id) => id % 2 === node.shard! - 1)
          const rs = await ch.query<{ id: number; s: string }>(`SELECT id, s FROM ${local} ORDER BY id`)
          expect({ shard: node.shard, replica: node.replica, rows: await rs.rows() }).toEqual({
            shard: node.shard,
            replica: node.replica,
            rows: rowsOf(expected),
          })
          const all = await ch.query<{ id: number; s: string }>(`SELECT id, s FROM ${dist} ORDER BY id`)
          expect(await all.rows()).toEqual(rowsOf(ids))
        }
      }, 60_000)

      it('a direct-to-shard insert writes one replica per shard, and replication copies it', async () => {
        const { local, dist } = await createTables(transport)
        const ids = Array.from({ length: 20 }, (_, index) => index * 5 + 2)
        {
          await using ch = clientOn(cluster.nodes[0]!, transport)
          // HTTP: system.clusters lists native ports only; the harness knows each node's HTTP one.
          const shardUrl = ({ port }: { port: number }) =>
            cluster.nodes.find((node) => node.ports.tcp === port)?.httpUrl
          const result = await ch.insert(dist, rowsOf(ids), {
            sharding: 'direct',
            ...(transport === 'http' ? { shardUrl } : {}),
          })
          expect(
            result.shards?.map(({ shard, status, rowsWritten }) => ({ shard, status, rowsWritten })),
          ).toEqual([
            { shard: 1, status: 'written', rowsWritten: 10 },
            { shard: 2, status: 'written', rowsWritten: 10 },
          ])
        }
        for (const node of cluster.nodes) {
          await using ch = clientOn(node, transport)
          await ch.command(`SYSTEM SYNC REPLICA ${local}`)
        }
        for (const node of cluster.nodes) {
          await using ch = clientOn(node, transport)
          const rs = await ch.query<{ id: number; s: string }>(`SELECT id, s FROM ${local} ORDER BY id`)
          expect({ shard: node.shard, replica: node.replica, rows: await rs.rows() }).toEqual({
            shard: node.shard,
            replica: node.replica,
            rows: rowsOf(ids.filter((id) => id % 2 === node.shard! - 1)),
          })
        }
        // Dropped again: every replicated table more makes the next test's node restart slower
        // (its tables reload from ZooKeeper), and 18.16's restart is fragile enough already.
        await using ch = clientOn(cluster.nodes[0]!, transport)
        await ch.command(`DROP TABLE ${dist} ON CLUSTER ${cluster.clusterName}`)
        await ch.command(`DROP TABLE ${local} ON CLUSTER ${cluster.clusterName}`)
      }, 60_000)

      it('still reads every row through a Distributed table when a replica is dead', async () => {
        const { local, dist } = await createTables(transport)
        const ids = Array.from({ length: 10 }, (_, index) => index)
        const [first, , deadReplica, liveReplica] = cluster.nodes
        {
          await using ch = clientOn(first!, transport)
          await ch.insert(dist, rowsOf(ids), { settings: syncInsert })
        }
        {
          await using ch = clientOn(liveReplica!, transport)
          await ch.command(`SYSTEM SYNC REPLICA ${local}`)
        }
        await deadReplica!.kill()
        try {
          // `in_order` asks shard 2's first replica (the dead one) first: ClickHouse itself
          // must fail over to the second.
          await using ch = clientOn(first!, transport, { load_balancing: 'in_order' })
          const rs = await ch.query<{ id: number; s: string }>(`SELECT id, s FROM ${dist} ORDER BY id`)
          expect(await rs.rows()).toEqual(rowsOf(ids))
        } finally {
          await deadReplica!.restart()
        }
      }, 60_000)
    })
  },
)
