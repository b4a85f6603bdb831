/**
 * Insert throughput into a cluster (`clickwire-bench cluster-insert`): the same rows through
 * a Distributed table with a sync (foreground) insert, and direct to the shards' local
 * tables (`sharding: 'direct'`), at 1 and 2 shards, on one throwaway cluster, repetitions
 * interleaved so that both paths see the same machine load. Every insert is checked on the
 * shards: the local tables together hold exactly the rows inserted.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type Client, createClient } from '@clickwire/client'
import { type ClickHouseServer, startClickHouse } from '@clickwire/testing'
import { isModernLine, type ServerLine } from './server-choice.js'

/** The two insert paths measured. */
export type InsertPath = 'distributed' | 'direct'

/** One timed insert. */
export interface ClusterInsertSample {
  readonly shards: number
  readonly path: InsertPath
  readonly seconds: number
}

/** The figures of one (shards, path) pair. */
export interface ClusterInsertFigure {
  readonly shards: number
  readonly path: InsertPath
  /** Rows per second of the median repetition. */
  readonly rowsPerSecond: number
  /** Rows per second of the fastest repetition: the least disturbed by other load. */
  readonly bestRowsPerSecond: number
  readonly medianSeconds: number
  readonly repetitions: number
}

/**
 * The order of the timed inserts: every repetition runs each shard count's two paths, the
 * path that goes first alternating from one repetition to the next, so neither path always
 * runs on a warmer (or more loaded) server.
 */
export function runOrder(
  shardCounts: readonly number[],
  repetitions: number,
): { shards: number; path: InsertPath }[] {
  const order: { shards: number; path: InsertPath }[] = []
  for (let repetition = 0; repetition < repetitions; repetition++) {
    for (const shards of shardCounts) {
      const paths: InsertPath[] = repetition % 2 === 0 ? ['distributed', 'direct'] : ['direct', 'distributed']
      for (const path of paths) order.push({ shards, path })
    }
  }
  return order
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The median figure of each (shards, path) pair, in shard order, Distributed first. */
export function summarize(samples: readonly ClusterInsertSample[], rows: number): ClusterInsertFigure[] {
  const keys = [...new Set(samples.map((sample) => sample.shards))].sort((a, b) => a - b)
  const figures: ClusterInsertFigure[] = []
  for (const shards of keys) {
    for (const path of ['distributed', 'direct'] as const) {
      const seconds = samples
        .filter((sample) => sample.shards === shards && sample.path === path)
        .map((sample) => sample.seconds)
      if (seconds.length === 0) continue
      const medianSeconds = median(seconds)
      figures.push({
        shards,
        path,
        rowsPerSecond: rows / medianSeconds,
        bestRowsPerSecond: rows / Math.min(...seconds),
        medianSeconds,
        repetitions: seconds.length,
      })
    }
  }
  return figures
}

/** The table printed: one line per shard count, both paths side by side and their ratio. */
export function renderFigures(figures: readonly ClusterInsertFigure[], heading: string): string {
  const lines = [
    heading,
    'rows/s, median (best)   Distributed, sync             direct   direct / Distributed',
  ]
  const rate = (value: number) => (value / 1e6).toFixed(2)
  const cell = (figure: ClusterInsertFigure) =>
    `${rate(figure.rowsPerSecond)} M (${rate(figure.bestRowsPerSecond)} M)`.padStart(18)
  for (const shards of [...new Set(figures.map((figure) => figure.shards))]) {
    const distributed = figures.find((figure) => figure.shards === shards && figure.path === 'distributed')
    const direct = figures.find((figure) => figure.shards === shards && figure.path === 'direct')
    if (!distributed || !direct) continue
    const ratio = (a: number, b: number) => (a / b).toFixed(2)
    lines.push(
      `${`${shards} shard${shards > 1 ? 's' : ''}`.padEnd(22)}  ${cell(distributed)} ${cell(direct)}   ${`${ratio(direct.rowsPerSecond, distributed.rowsPerSecond)} (${ratio(direct.bestRowsPerSecond, distributed.bestRowsPerSecond)})`.padStart(20)}`,
    )
  }
  return `${lines.join('\n')}\n`
}

/** Columns of `rows` rows: a UInt64 id (the sharding key), numbers, a short string, a date. */
function benchColumns(rows: number) {
  const id = new BigUint64Array(rows)
  const n = new Int32Array(rows)
  const x = new Float64Array(rows)
  const s = new Array<string>(rows)
  const t = new Uint32Array(rows)
  for (let row = 0; row < rows; row++) {
    id[row] = BigInt(row) * 2654435761n
    n[row] = (row * 7919) % 100_000
    x[row] = row / 7
    s[row] = `name-${row % 10_000}`
    t[row] = 1_700_000_000 + (row % 86_400)
  }
  return { id, n, x, s, t }
}

/**
 * Adds a one-shard cluster (`one_shard`, the first node) to the first node's config: the
 * harness configures only the cluster of all its shards. The modern engine (clickhouse-local)
 * has no SYSTEM RELOAD CONFIG, so the node is restarted to read it.
 */
async function addOneShardCluster(cluster: ClickHouseServer): Promise<void> {
  const first = cluster.nodes[0]!
  const root = cluster.generation === 'modern' ? 'clickhouse' : 'yandex'
  await mkdir(join(first.dir!, 'config.d'), { recursive: true })
  await writeFile(
    join(first.dir!, 'config.d', 'one-shard-cluster.xml'),
    `<${root}><remote_servers><one_shard><shard><replica><host>127.0.0.1</host><port>${first.ports.tcp}</port></replica></shard></one_shard></remote_servers></${root}>`,
  )
  // The harness unrefs its server processes: while nothing else is pending, a plain node
  // process (unlike a vitest worker) would exit in the middle of waiting for the kill.
  const keepAlive = setInterval(() => {}, 1000)
  try {
    await first.kill()
    await first.restart()
  } finally {
    clearInterval(keepAlive)
  }
}

/** Options of {@link runClusterInsert}. */
export interface ClusterInsertOptions {
  readonly line: ServerLine
  readonly rows: number
  readonly repetitions: number
  readonly transport: 'native' | 'http'
  readonly log?: ((line: string) => void) | undefined
}

/** Starts a 2-shard cluster, measures both paths at 1 and 2 shards, stops it. */
export async function runClusterInsert(options: ClusterInsertOptions): Promise<{
  version: string
  figures: ClusterInsertFigure[]
}> {
  const log = options.log ?? (() => {})
  const cluster = await startClickHouse({ local: true, generation: options.line, shards: 2 })
  const clients: Client[] = []
  const clientOn = (node: ClickHouseServer) => {
    const client = createClient({ url: options.transport === 'native' ? node.nativeUrl : node.httpUrl })
    clients.push(client)
    return client
  }
  try {
    await addOneShardCluster(cluster)
    const nodes = cluster.nodes.map(clientOn)
    const schema = '(id UInt64, n Int32, x Float64, s String, t DateTime)'
    for (const node of nodes) {
      await node.command(`CREATE TABLE bench_local ${schema} ENGINE = MergeTree ORDER BY id`)
    }
    const initiator = nodes[0]!
    const distOf = (shards: number) => (shards === 1 ? 'bench_dist_1' : 'bench_dist_2')
    await initiator.command(
      `CREATE TABLE bench_dist_1 AS bench_local ENGINE = Distributed(one_shard, default, bench_local, id)`,
    )
    await initiator.command(
      `CREATE TABLE bench_dist_2 AS bench_local ENGINE = Distributed(${cluster.clusterName}, default, bench_local, id)`,
    )
    const columns = benchColumns(options.rows)
    const sync = isModernLine(options.line)
      ? { distributed_foreground_insert: 1 }
      : { insert_distributed_sync: 1 }
    // HTTP: the shards' HTTP ports, which system.clusters (native ports only) cannot give.
    const shardUrl =
      options.transport === 'http'
        ? ({ port }: { port: number }) => cluster.nodes.find((node) => node.ports.tcp === port)?.httpUrl
        : undefined
    const samples: ClusterInsertSample[] = []
    // One untimed round first: connections, caches and the first parts.
    const order = [...runOrder([1, 2], 1), ...runOrder([1, 2], options.repetitions)]
    for (const [index, { shards, path }] of order.entries()) {
      for (const node of nodes) await node.command('TRUNCATE TABLE bench_local')
      const started = performance.now()
      const result =
        path === 'distributed'
          ? await initiator.insert(distOf(shards), columns, { settings: sync })
          : await initiator.insert(distOf(shards), columns, { sharding: 'direct', shardUrl })
      const seconds = (performance.now() - started) / 1000
      const counts = await Promise.all(
        nodes.map(async (node) =>
          Number((await (await node.query('SELECT count() FROM bench_local')).arrays())[0]![0]),
        ),
      )
      const stored = counts.reduce((sum, count) => sum + count, 0)
      if (stored !== options.rows || (shards === 1 && counts[1] !== 0))
        throw new Error(
          `${path} insert at ${shards} shard(s): the shards hold ${counts.join(' + ')} rows, not ${options.rows}`,
        )
      if (path === 'direct' && result.rowsWritten !== options.rows)
        throw new Error(`direct insert reported ${result.rowsWritten} rows, not ${options.rows}`)
      const warmup = index < 4
      log(
        `${warmup ? 'warm-up ' : ''}${shards} shard(s) ${path.padEnd(11)} ${seconds.toFixed(2)} s (shards hold ${counts.join(' + ')})`,
      )
      if (!warmup) samples.push({ shards, path, seconds })
    }
    return { version: cluster.version, figures: summarize(samples, options.rows) }
  } finally {
    await Promise.all(clients.map((client) => client.close()))
    await cluster.stop()
  }
}
