// Replica-aware balancing against a real cluster whose replicas die: hosts discovered from
// system.clusters, queries that had not started moving to the live replica with exact
// rows, queries that had started failing with a ConnectionError (never a hang, never a
// short result), the dead host set aside and used again once back, and the failover
// timings (printed; the figures go in the closing note).
//
// 18.16 with ZooKeeper: one shard of two replicas, a ReplicatedMergeTree copied to both.
// Otherwise (the modern engine cannot replicate; see modernReplicationUnsupported): two
// shards of one node each, the same plain table created on each node and the same rows
// inserted into each; for the client they are interchangeable replicas, and discovery
// takes every node of the cluster (no shard filter).
import { createServer, type Server, type Socket } from 'node:net'
import { ConnectionError, TimeoutError } from '@clickwire/protocol'
import {
  type ClickHouseServer,
  clusterSkipReason,
  FaultProxy,
  startClickHouse,
  zooKeeperInstalled,
} from '@clickwire/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Client, type ClientOptions, createClient, type LogContext, type Logger } from '../src/index.js'
import { loadSlackMs } from './support/timed-settle.js'
import { server, type TransportName, transports, uniqueTable } from './support/transports.js'

const skipReason = clusterSkipReason(server, { replicated: false })
const replicated = server.generation !== 'modern' && zooKeeperInstalled()

const totalRows = 20_000
/** sum(n) over n = 0 .. totalRows - 1. */
const expectedSum = BigInt((totalRows * (totalRows - 1)) / 2)
const cooldownMs = 2_000

interface Entry {
  readonly level: string
  readonly message: string
  readonly context: LogContext
}

/** A logger that keeps its entries, and when each was logged (`times`, same order). */
function capturing(): Logger & { entries: Entry[]; times: number[] } {
  const entries: Entry[] = []
  const times: number[] = []
  const keep = (level: string) => (message: string, context: LogContext) => {
    entries.push({ level, message, context })
    times.push(performance.now())
  }
  return {
    entries,
    times,
    debug: keep('debug'),
    info: keep('info'),
    warn: keep('warn'),
    error: keep('error'),
  }
}

/** Figures per transport, printed at the end. */
const timings: Record<string, Record<string, number | string>> = {}

describe.skipIf(skipReason !== undefined)(
  `replica-aware balancing on a cluster${skipReason ? ` (skipped: ${skipReason})` : replicated ? ' (1 shard × 2 replicas)' : ' (2 shards × 1 node, same rows on each)'}`,
  () => {
    let cluster: ClickHouseServer
    let table: string
    let clusterName: string
    let sink: Server | undefined
    const sinkSockets = new Set<Socket>()
    beforeAll(async () => {
      cluster = await startClickHouse(
        replicated ? { local: true, shards: 1, replicas: 2 } : { local: true, shards: 2 },
      )
      clusterName = cluster.clusterName!
      table = uniqueTable('balancing')
      if (replicated) {
        await using ch = createClient(cluster.nodes[0]!.nativeUrl)
        await ch.command(
          `CREATE TABLE ${table} ON CLUSTER ${clusterName} (n UInt64)
           ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/${table}', '{replica}') ORDER BY n`,
        )
        await ch.command(`INSERT INTO ${table} SELECT number FROM system.numbers LIMIT ${totalRows}`)
        await using other = createClient(cluster.nodes[1]!.nativeUrl)
        await other.command(`SYSTEM SYNC REPLICA ${table}`)
      } else {
        for (const node of cluster.nodes) {
          await using ch = createClient(node.nativeUrl)
          await ch.command(`CREATE TABLE ${table} (n UInt64) ENGINE = MergeTree ORDER BY n`)
          await ch.command(`INSERT INTO ${table} SELECT number FROM system.numbers LIMIT ${totalRows}`)
        }
      }
      for (const node of cluster.nodes) {
        await using ch = createClient(node.nativeUrl)
        await ch.command(`CREATE TABLE ${table}_node (port UInt16) ENGINE = TinyLog`)
        await ch.command(`INSERT INTO ${table}_node SELECT toUInt16(${node.ports.tcp})`)
      }
      // A host that takes connections and never answers (behind the FaultProxy's stall).
      const listening = createServer((socket) => {
        sinkSockets.add(socket.on('error', () => {}))
      })
      await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
      sink = listening
    }, 120_000)
    afterAll(async () => {
      await cluster?.stop()
      for (const socket of sinkSockets) socket.destroy()
      await new Promise((resolve) => (sink ? sink.close(resolve) : resolve(undefined)))
      if (Object.keys(timings).length > 0)
        console.log('failover timings (ms):', JSON.stringify(timings, null, 2))
    })

    /**
     * Which node ran the query: every node has its own one-row table holding its native port
     * (all nodes are 127.0.0.1 here, so hostName() is the same on all, and 18.16 marks both
     * replicas of a loopback shard is_local in system.clusters).
     */
    const checkSql = () =>
      `SELECT (SELECT port FROM ${table}_node) AS node, count() AS rows, sum(n) AS total FROM ${table}`
    const urlOf = (node: ClickHouseServer, transport: TransportName) =>
      transport === 'native' ? node.nativeUrl : node.httpUrl
    const endpointOf = (node: ClickHouseServer, transport: TransportName) =>
      `127.0.0.1:${transport === 'native' ? node.ports.tcp : node.ports.http}`

    async function check(ch: Client): Promise<{ node: number; rows: bigint; total: bigint }> {
      const rs = await ch.query<{ node: number; rows: bigint; total: bigint }>(checkSql())
      return (await rs.rows())[0]!
    }

    /** Set while the first node is down: a test that fails then leaves it to afterEach. */
    let restartKilled: (() => Promise<unknown>) | undefined
    afterEach(async () => {
      const restart = restartKilled
      restartKilled = undefined
      await restart?.()
    }, 120_000)

    describe.each(transports)('%s', (transport) => {
      it('discovers the replicas, moves queued queries to the live one when the other dies under load, and uses it again once back', async () => {
        const [first, second] = cluster.nodes as [ClickHouseServer, ClickHouseServer]
        const logger = capturing()
        const options: ClientOptions = {
          // Only the first node is given: the second comes from system.clusters.
          url: urlOf(first, transport),
          discoverCluster: {
            cluster: clusterName,
            shard: replicated ? 1 : undefined,
            // system.clusters has native ports only; these nodes' HTTP ports follow no offset.
            port:
              transport === 'http'
                ? (node) => cluster.nodes.find((each) => each.ports.tcp === node.port)!.ports.http
                : undefined,
            refreshIntervalMs: 0,
          },
          hostStrategy: 'in_order',
          hostCooldownMs: cooldownMs,
          maxConnections: 6,
          requestTimeoutMs: 20_000,
          // Native balances per connection: short-lived idle ones let new connections find a restored host.
          idleTimeoutMs: 500,
          logger,
        }
        await using ch = createClient(options)
        const expected = (node: ClickHouseServer) => ({
          node: node.ports.tcp,
          rows: BigInt(totalRows),
          total: expectedSum,
        })
        expect(await check(ch)).toEqual(expected(first))
        expect(logger.entries.filter((entry) => entry.message === 'cluster hosts discovered')).toEqual([
          {
            level: 'info',
            message: 'cluster hosts discovered',
            context: {
              cluster: clusterName,
              hosts: `${endpointOf(first, transport)},${endpointOf(second, transport)}`,
            },
          },
        ])

        // Load: 6 results streaming (holding every connection of the pool), 30 queries
        // queued behind them, none started.
        const streaming = await Promise.all(
          Array.from({ length: 6 }, () =>
            ch.query<{ number: bigint }>('SELECT number FROM system.numbers LIMIT 100000000', {
              settings: { max_block_size: 1000 },
            }),
          ),
        )
        const streamFailedAt: number[] = []
        // Read block by block: once the replica dies, the bytes read ahead (16 MiB a
        // connection) are consumed at once and the connection's end follows, long before
        // requestTimeoutMs, however loaded the machine (row by row, six streams of read-ahead
        // took a loaded machine past the 20 s and ended in a TimeoutError instead).
        const readers = streaming.map(async (rs) => {
          let rows = 0
          try {
            for await (const block of rs.blocks()) rows += block.rowCount
          } finally {
            streamFailedAt.push(performance.now())
          }
          return rows
        })
        const queued = Array.from({ length: 30 }, () =>
          check(ch).then((row) => ({ row, at: performance.now() })),
        )
        // Watched from now: a stream may fail while kill() is still being awaited (a loaded
        // machine), and a rejection nobody watches yet is an unhandled one.
        const settled = Promise.all([Promise.allSettled(readers), Promise.allSettled(queued)])
        await new Promise((resolve) => setTimeout(resolve, 100))
        // From the kill's request: the harness reports the exit a little later.
        const killedAt = performance.now()
        await first.kill()
        restartKilled = () => first.restart()
        const exitSeenAt = performance.now()
        const deadline = killedAt + 20_000
        const [streamed, answered] = await settled
        const settledAt = performance.now()
        expect(settledAt).toBeLessThan(deadline)
        // Results that had started: a typed error, never a short result reported as whole.
        for (const outcome of streamed) {
          expect(outcome.status).toBe('rejected')
          expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ConnectionError)
        }
        // Queries that had not started: every one answered by the live replica, exact rows.
        for (const outcome of answered) {
          expect(outcome.status === 'fulfilled' ? outcome.value.row : outcome.reason).toEqual(
            expected(second),
          )
        }
        const fulfilled = answered.flatMap((outcome) =>
          outcome.status === 'fulfilled' ? [outcome.value] : [],
        )
        const firstAnswer = Math.min(...fulfilled.map((each) => each.at)) - killedAt

        // Set aside: the next queries go straight to the live replica, each as fast as a plain one.
        const straight: number[] = []
        for (let i = 0; i < 10; i++) {
          const started = performance.now()
          expect(await check(ch)).toEqual(expected(second))
          straight.push(performance.now() - started)
        }
        // Logged once per cool-down at most: the dead host is tried again only once its
        // cool-down is over (native opens new connections as idle ones close).
        const setAside = logger.entries.flatMap((entry, index) =>
          entry.message === 'host unreachable, trying the next' ? [{ entry, at: logger.times[index]! }] : [],
        )
        expect(setAside.length).toBeGreaterThanOrEqual(1)
        for (const [index, { entry, at }] of setAside.entries()) {
          expect([entry.level, entry.context.host, entry.context.cooldownMs]).toEqual([
            'warn',
            endpointOf(first, transport),
            cooldownMs,
          ])
          if (index > 0) expect(at - setAside[index - 1]!.at).toBeGreaterThanOrEqual(cooldownMs)
        }

        // Extra latency of a query that meets the dead host first (connect refused), on
        // fresh clients: [dead, live] against [live] alone.
        const fresh = async (urls: string[]) => {
          await using probe = createClient({ url: urls, hostCooldownMs: cooldownMs })
          const started = performance.now()
          expect(await check(probe)).toEqual(expected(second))
          return performance.now() - started
        }
        const refusedFirst = median(
          await sequence(5, () => fresh([urlOf(first, transport), urlOf(second, transport)])),
        )
        const liveOnly = median(await sequence(5, () => fresh([urlOf(second, transport)])))

        // Back: once restarted and the cool-down is over, in_order goes to the first again.
        restartKilled = undefined
        await first.restart()
        const restartedAt = performance.now()
        // The cool-down runs from the host's last failure: a call of the load had settled by
        // then, and a later try (its cool-down over) was logged.
        const lastFailure = Math.max(settledAt, ...setAside.map(({ at }) => at))
        const wait = lastFailure + cooldownMs + 100 - performance.now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
        expect(await check(ch)).toEqual(expected(first))
        expect(logger.entries.filter((entry) => entry.message === 'host reachable again')).toEqual([
          { level: 'info', message: 'host reachable again', context: { host: endpointOf(first, transport) } },
        ])
        timings[transport] = {
          ...timings[transport],
          killToFirstAnswerUnderLoad: Math.round(firstAnswer),
          allSettledAfterKill: Math.round(settledAt - killedAt),
          killToExitSeen: Math.round(exitSeenAt - killedAt),
          // The queued queries wait for pool slots, which the streams free as they end.
          firstStreamFailedAfterKill: Math.round(Math.min(...streamFailedAt) - killedAt),
          // From the dead replica's sockets closing (the first stream failing) to the live one answering.
          deathToFirstAnswer: Math.round(firstAnswer + killedAt - Math.min(...streamFailedAt)),
          lastQueuedAnswerAfterKill: Math.round(Math.max(...fulfilled.map((each) => each.at)) - killedAt),
          setAsideQueryMedian: round1(median(straight)),
          freshClientDeadFirst: round1(refusedFirst),
          freshClientLiveOnly: round1(liveOnly),
          extraForRefusedHost: round1(refusedFirst - liveOnly),
          restartToFirstUse: Math.round(performance.now() - restartedAt),
        }
      }, 60_000)

      it('gets past a host that takes connections and never answers: native after connectTimeoutMs, HTTP not', async () => {
        const [, second] = cluster.nodes as [ClickHouseServer, ClickHouseServer]
        // The proxy forwards the client's first bytes, then stalls both ways: a hung replica.
        const proxy = await FaultProxy.start(
          { host: '127.0.0.1', port: (sink!.address() as { port: number }).port },
          { stallAfter: { direction: 'toServer', bytes: 1 } },
          { resetServer: false },
        )
        // The sink's side ends first: the proxy drains a server side until it closes.
        await using _proxy = {
          [Symbol.asyncDispose]: async () => {
            for (const socket of sinkSockets) socket.destroy()
            await proxy.close()
          },
        }
        const scheme = transport === 'native' ? 'clickhouse' : 'http'
        const live = endpointOf(second, transport)
        const connectTimeoutMs = 1_000
        await using ch = createClient({
          url: `${scheme}://127.0.0.1:${proxy.port},${live}`,
          connectTimeoutMs,
          requestTimeoutMs: 3_000,
          hostCooldownMs: 60_000,
        })
        const expected = { node: second.ports.tcp, rows: BigInt(totalRows), total: expectedSum }
        const started = performance.now()
        if (transport === 'native') {
          // The Hello is part of connecting: no answer within connectTimeoutMs sets the host aside.
          expect(await check(ch)).toEqual(expected)
          const first = performance.now() - started
          expect(first).toBeGreaterThanOrEqual(connectTimeoutMs - 50)
          expect(first).toBeLessThan(connectTimeoutMs + loadSlackMs)
          const next = performance.now()
          expect(await check(ch)).toEqual(expected)
          timings[transport] = {
            ...timings[transport],
            hungHostFirstQuery: Math.round(first),
            hungHostNextQuery: round1(performance.now() - next),
          }
        } else {
          // The TCP connection is made, the request sent: HTTP cannot tell a hung server from a
          // slow query and does not send the request elsewhere; the request's limit ends it.
          const error = await check(ch).then(
            () => undefined,
            (failure: unknown) => failure,
          )
          const first = performance.now() - started
          expect(error).toBeInstanceOf(TimeoutError)
          expect(first).toBeLessThan(3_000 + loadSlackMs)
          timings[transport] = {
            ...timings[transport],
            hungHostFirstQuery: `TimeoutError after ${Math.round(first)}`,
          }
        }
      }, 20_000)
    })
  },
)

async function sequence(times: number, run: () => Promise<number>): Promise<number[]> {
  const results: number[] = []
  for (let i = 0; i < times; i++) results.push(await run())
  return results
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

const round1 = (value: number) => Math.round(value * 10) / 10
