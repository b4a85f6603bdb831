// Inserts into a 2-shard cluster (no replicas, so it also runs on the modern engine): a sync
// Distributed insert lands on the shards, and a direct-to-shard insert (`sharding: 'direct'`)
// puts every row exactly where the server's own Distributed insert puts it (the oracle: the
// same rows through a twin Distributed table). Every shard is read directly, on its node.
// The harness configures one cluster of weight-1 shards; a second one, `weighted` (shard
// weights 1:2), is added to the first node's config.d, read when that node restarts.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type ClickHouseServer, clusterSkipReason, startClickHouse } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ClusterReplica, createClient, ShardInsertError, UsageError } from '../src/index.js'
import { server, type TransportName, thrown, transports, uniqueTable } from './support/transports.js'

const skipReason = clusterSkipReason(server, { replicated: false })

interface Row {
  id: bigint
  s: string
}

/** Ids across the Int64 range: negative ones route as their unsigned 64-bit value. */
const rowsOf = (count: number): Row[] =>
  Array.from({ length: count }, (_, index) => {
    const id = BigInt(index * 7919 - 50_000) * (index % 5 === 0 ? 1_000_000_007n : 1n)
    return { id, s: `row-${index}` }
  })

describe.skipIf(skipReason !== undefined)(
  `a 2-shard cluster${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let cluster: ClickHouseServer
    beforeAll(async () => {
      cluster = await startClickHouse({ local: true, shards: 2 })
      const [first, second] = cluster.nodes
      const shard = (node: ClickHouseServer, weight: number) =>
        `<shard><weight>${weight}</weight><replica><host>127.0.0.1</host><port>${node.ports.tcp}</port></replica></shard>`
      // 18.16 reads only <yandex> roots; 26.x takes <clickhouse>.
      const root = cluster.generation === 'modern' ? 'clickhouse' : 'yandex'
      await mkdir(join(first!.dir!, 'config.d'), { recursive: true })
      await writeFile(
        join(first!.dir!, 'config.d', 'weighted-cluster.xml'),
        `<${root}><remote_servers><weighted>${shard(first!, 1)}${shard(second!, 2)}</weighted></remote_servers></${root}>`,
      )
      // The modern engine (clickhouse-local) has no SYSTEM RELOAD CONFIG: a restart reads it.
      await first!.kill()
      await first!.restart()
    }, 120_000)
    afterAll(async () => {
      await cluster?.stop()
    })

    /** 18.16's name of the setting; 23+ call it `distributed_foreground_insert`. */
    const syncInsert = () =>
      cluster.generation === 'modern' ? { distributed_foreground_insert: 1 } : { insert_distributed_sync: 1 }

    const clientOn = (node: ClickHouseServer, transport: TransportName, options: { int64?: 'number' } = {}) =>
      createClient({ url: transport === 'native' ? node.nativeUrl : node.httpUrl, ...options })

    /** HTTP: a replica's HTTP URL from its native port (system.clusters knows only that one). */
    const shardUrl = (replica: ClusterReplica) =>
      cluster.nodes.find((node) => node.ports.tcp === replica.port)?.httpUrl

    /**
     * A MergeTree table on every node, created node by node (the modern engine has no ON
     * CLUSTER), and a Distributed table over it on the first node, sharded by `key`.
     */
    async function createTables(
      prefix: string,
      key: string,
      clusterName = cluster.clusterName,
    ): Promise<{ local: string; dist: string }> {
      const local = uniqueTable(prefix)
      const dist = `${local}_dist`
      for (const node of cluster.nodes) {
        await using ch = clientOn(node, 'native')
        await ch.command(`CREATE TABLE ${local} (id Int64, s String) ENGINE = MergeTree ORDER BY id`)
      }
      await using ch = clientOn(cluster.nodes[0]!, 'native')
      await ch.command(
        `CREATE TABLE ${dist} AS ${local} ENGINE = Distributed(${clusterName}, default, ${local}, ${key})`,
      )
      return { local, dist }
    }

    /** Each shard's rows of `table`, read on its own node. */
    async function shardRows(table: string, transport: TransportName): Promise<Row[][]> {
      const perShard: Row[][] = []
      for (const node of cluster.nodes) {
        await using ch = clientOn(node, transport)
        perShard[node.shard! - 1] = await (
          await ch.query<Row>(`SELECT id, s FROM ${table} ORDER BY id, s`)
        ).rows()
      }
      return perShard
    }

    const sorted = (rows: readonly Row[]) =>
      [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.s < b.s ? -1 : a.s > b.s ? 1 : 0))

    describe.each(transports)('%s', (transport) => {
      const direct =
        transport === 'http' ? { sharding: 'direct' as const, shardUrl } : { sharding: 'direct' as const }

      it('a sync Distributed insert is on the shards when it resolves', async () => {
        const { local, dist } = await createTables(`dist_sync_${transport}`, 'id')
        const rows = Array.from({ length: 20 }, (_, index) => ({
          id: BigInt(index * 3 + 1),
          s: `row-${index}`,
        }))
        // Two shards of weight 1: a row goes to shard (id % 2) + 1.
        const expected = [rows.filter((row) => row.id % 2n === 0n), rows.filter((row) => row.id % 2n === 1n)]
        {
          await using ch = clientOn(cluster.nodes[0]!, transport)
          const result = await ch.insert(dist, rows, { settings: syncInsert() })
          // The server's count: 26.x counts the rows the initiator (shard 1) wrote into its own
          // local table twice, once through the Distributed table and once locally; 18.16 once.
          const counted = rows.length + (cluster.generation === 'modern' ? expected[0]!.length : 0)
          expect([result.rowsWritten, result.summary.writtenRows]).toEqual([counted, counted])
        }
        expect(await shardRows(local, transport)).toEqual(expected)
      }, 60_000)

      it.each([
        ['an Int64 column', 'id', 'int'],
        ['cityHash64(s)', 'cityHash64(s)', 'hash'],
        // A UInt64 key read back by a client that maps 64-bit integers to JS numbers: the
        // key must still be exact (hashes are far above 2^53).
        ['intHash64(id), int64 as numbers', 'intHash64(id)', 'int64num'],
      ])(
        'a direct insert sharded by %s puts each row where the server routes it',
        async (_name, key, tag) => {
          const oracle = await createTables(`oracle_${tag}_${transport}`, key)
          const target = await createTables(`direct_${tag}_${transport}`, key)
          const rows = rowsOf(1000)
          await using ch = clientOn(
            cluster.nodes[0]!,
            transport,
            tag === 'int64num' ? { int64: 'number' } : {},
          )
          await ch.insert(oracle.dist, rows, { settings: syncInsert() })
          // Blocks of 300 rows: several batches, each split and routed on its own.
          const result = await ch.insert(target.dist, rows, { ...direct, blockRows: 300 })
          const expected = await shardRows(oracle.local, transport)
          expect(expected[0]!.length).toBeGreaterThan(100)
          expect(expected[1]!.length).toBeGreaterThan(100)
          expect(await shardRows(target.local, transport)).toEqual(expected)
          expect(sorted(expected.flat())).toEqual(sorted(rows))
          expect(result.rowsWritten).toBe(rows.length)
          expect(result.summary.writtenRows).toBe(rows.length)
          expect(
            result.shards?.map(({ shard, status, rowsSent, rowsWritten }) => ({
              shard,
              status,
              rowsSent,
              rowsWritten,
            })),
          ).toEqual(
            expected.map((shardRows, index) => ({
              shard: index + 1,
              status: 'written',
              rowsSent: shardRows.length,
              rowsWritten: shardRows.length,
            })),
          )
        },
        60_000,
      )

      it('a direct insert into a cluster weighted 1:2 routes as the server does', async () => {
        const oracle = await createTables(`oracle_weighted_${transport}`, 'id', 'weighted')
        const target = await createTables(`direct_weighted_${transport}`, 'id', 'weighted')
        const rows = rowsOf(600)
        await using ch = clientOn(cluster.nodes[0]!, transport)
        await ch.insert(oracle.dist, rows, { settings: syncInsert() })
        const result = await ch.insert(target.dist, rows, direct)
        const expected = await shardRows(oracle.local, transport)
        // Slots [shard 1, shard 2, shard 2]: a third of the keys (as unsigned 64-bit) on shard 1.
        expect(expected.map((shard) => shard.length)).toEqual([
          rows.filter((row) => BigInt.asUintN(64, row.id) % 3n === 0n).length,
          rows.filter((row) => BigInt.asUintN(64, row.id) % 3n !== 0n).length,
        ])
        expect(await shardRows(target.local, transport)).toEqual(expected)
        expect(result.rowsWritten).toBe(rows.length)
      }, 60_000)

      it('a failing shard is a ShardInsertError naming it, with what the other shard wrote', async () => {
        const { local, dist } = await createTables(`direct_fail_${transport}`, 'id')
        {
          await using second = clientOn(cluster.nodes[1]!, 'native')
          await second.command(`DROP TABLE ${local}`)
        }
        const rows = Array.from({ length: 10 }, (_, index) => ({ id: BigInt(index), s: `row-${index}` }))
        await using ch = clientOn(cluster.nodes[0]!, transport)
        const error = await thrown(() => ch.insert(dist, rows, direct))
        expect(ShardInsertError.isInstance(error)).toBe(true)
        const failure = error as ShardInsertError
        expect(failure.shard).toBe(2)
        expect(failure.message).toMatch(
          /^the insert into shard 2 failed: .*shard 1 \(5 rows\) confirmed their rows/,
        )
        expect(
          failure.shards.map(({ shard, status, rowsSent, rowsWritten }) => ({
            shard,
            status,
            rowsSent,
            rowsWritten,
          })),
        ).toEqual([
          { shard: 1, status: 'written', rowsSent: 5, rowsWritten: 5 },
          { shard: 2, status: 'failed', rowsSent: 5, rowsWritten: 0 },
        ])
        expect((failure.shards[1]!.error as { code?: number }).code).toBe(60) // UNKNOWN_TABLE
        // The failed shard's transport never asked for its rows: none went out to it. The whole
        // insert is incomplete: shard 1 kept its rows.
        expect(failure.shards.map((each) => each.insertOutcome)).toEqual([undefined, 'not-written'])
        expect(failure.insertOutcome).toBe('incomplete')
        const first = await (await ch.query<Row>(`SELECT id, s FROM ${local} ORDER BY id`)).rows()
        expect(first).toEqual(rows.filter((row) => row.id % 2n === 0n))
      }, 60_000)

      if (transport === 'http') {
        it('over HTTP, a replica whose HTTP port cannot be derived needs shardUrl', async () => {
          const { dist } = await createTables('direct_nourl_http', 'id')
          await using ch = clientOn(cluster.nodes[0]!, 'http')
          const error = await thrown(() => ch.insert(dist, [{ id: 1n, s: 'a' }], { sharding: 'direct' }))
          expect(error).toBeInstanceOf(UsageError)
          expect((error as Error).message).toMatch(
            /^sharding: 'direct': no URL for shard 2 \(127\.0\.0\.1:\d+ is a native port/,
          )
        }, 60_000)
      }
    })
  },
)
