import {
  CallDeadline,
  quoteSqlString,
  type RequestKind,
  type Transport,
  UsageError,
} from '@clickwire/protocol'
import { type ClientLog, errorContext } from './client-logger.js'
import type { Endpoint, TransportKind } from './client-options.js'
import {
  type CallLimits,
  type ClusterNode,
  type DiscoveryTarget,
  type ResolvedDiscovery,
  validPort,
} from './cluster-discovery-options.js'

/**
 * Reading a cluster's nodes from `system.clusters` (the server's `remote_servers`), for
 * `discoverCluster` (cluster-discovery-options.ts): the SQL, the mapping of its rows, and
 * the refreshes. cluster-discovery-transport.ts loads this file on its first call.
 */

/** The query for a cluster's nodes; every column exists on 18.16 and on current servers. */
export function clusterNodesSql(cluster: string): string {
  return `SELECT shard_num, shard_weight, replica_num, host_name, host_address, port, is_local FROM system.clusters WHERE cluster = ${quoteSqlString(cluster)} ORDER BY shard_num, replica_num`
}

/** One row of {@link clusterNodesSql}, given as a getter of its columns by name. */
export function clusterNodeOf(value: (column: string) => unknown): ClusterNode {
  return {
    shard: Number(value('shard_num')),
    shardWeight: Number(value('shard_weight')),
    replica: Number(value('replica_num')),
    hostName: String(value('host_name')),
    hostAddress: String(value('host_address')),
    port: Number(value('port')),
    isLocal: Number(value('is_local')) === 1,
  }
}

/** Runs {@link clusterNodesSql} on a transport and reads its rows. */
export async function readClusterNodes(transport: Transport, cluster: string): Promise<ClusterNode[]> {
  const stream = await transport.query(clusterNodesSql(cluster))
  const nodes: ClusterNode[] = []
  for await (const block of stream) {
    const columns = new Map(block.columns.map((each) => [each.name, each.column]))
    const column = (name: string) => {
      const found = columns.get(name)
      if (!found) throw new UsageError(`system.clusters has no ${name} column`)
      return found
    }
    for (let row = 0; row < block.rows; row++) nodes.push(clusterNodeOf((name) => column(name).get(row)))
  }
  return nodes
}

const loopbackNames = /^(localhost|127(\.\d{1,3}){3}|::1|0:0:0:0:0:0:0:1)$/i

/**
 * The endpoints of a cluster's nodes, seen from this client, in `system.clusters` order
 * (shard, then replica). Each node is reached by its configured `host_name`, not the
 * `host_address` the server resolved it to: certificates name hosts, and a name follows DNS
 * when a node moves. A loopback name (`localhost`, `127.x.x.x`, `::1`) means "this machine"
 * to the server that answered; seen from a client elsewhere it is the seed's host instead.
 */
export function clusterEndpoints(
  nodes: readonly ClusterNode[],
  discovery: ResolvedDiscovery,
  seed: Endpoint,
  kind: TransportKind,
  secure: boolean,
): Endpoint[] {
  const chosen =
    discovery.shard === undefined ? nodes : nodes.filter((node) => node.shard === discovery.shard)
  if (chosen.length === 0)
    throw new UsageError(
      discovery.shard === undefined
        ? `cluster ${discovery.cluster} is not in system.clusters of ${seed.host}:${seed.port}`
        : `cluster ${discovery.cluster} has no shard ${discovery.shard} in system.clusters of ${seed.host}:${seed.port}`,
    )
  const portOf = portMapping(nodes, discovery, seed, kind, secure)
  const seedIsLoopback = loopbackNames.test(seed.host)
  const endpoints: Endpoint[] = []
  for (const node of chosen) {
    const host = loopbackNames.test(node.hostName) && !seedIsLoopback ? seed.host : node.hostName
    const port = portOf(node)
    if (!endpoints.some((each) => each.host === host && each.port === port)) endpoints.push({ host, port })
  }
  return endpoints
}

function portMapping(
  nodes: readonly ClusterNode[],
  discovery: ResolvedDiscovery,
  seed: Endpoint,
  kind: TransportKind,
  secure: boolean,
): (node: ClusterNode) => number {
  const { port } = discovery
  if (typeof port === 'number') return () => port
  if (typeof port === 'function')
    return (node) => {
      const mapped = port(node)
      if (!validPort(mapped))
        throw new UsageError(`discoverCluster.port gave ${String(mapped)} for ${node.hostName}:${node.port}`)
      return mapped
    }
  if (kind === 'native' && !secure) return (node) => node.port
  // Exactly one row must be the seed: nodes sharing an address can all look local (18.16
  // marks every replica of a loopback shard so), and then no offset can be told.
  const own = nodes.filter((node) => node.isLocal)
  if (own.length === 1) {
    const offset = seed.port - own[0]!.port
    return (node) => node.port + offset
  }
  // Without one, nodes on ClickHouse's default native ports are taken to use the defaults
  // of this scheme too (the rule the direct-to-shard insert follows).
  const target = kind === 'http' ? (secure ? 8443 : 8123) : 9440
  if (onDefaultPorts(nodes)) return () => target
  throw new UsageError(
    `discoverCluster over ${kind === 'http' ? 'HTTP' : 'native TLS'} needs discoverCluster.port: system.clusters lists only native TCP ports, and the seed ${seed.host}:${seed.port} is ${own.length === 0 ? 'not a node' : 'not one known node'} of cluster ${discovery.cluster} to shift them by`,
  )
}

/** Whether every node listens on a default native port (9000, or 9440 for TLS). */
function onDefaultPorts(nodes: readonly ClusterNode[]): boolean {
  return nodes.every((node) => node.port === 9000 || node.port === 9440)
}

/** The least time between two refreshes that a host being set aside starts. */
const failureRefreshGapMs = 5_000

/**
 * The refreshes of a ClusterDiscoveryTransport (see there): the first read, shared by the
 * calls that wait for it; the timer; the reads after a failure; one read at a time.
 */
export class ClusterDiscoverer {
  #ready: Promise<void> | undefined
  #refreshing: Promise<void> | undefined
  #lastRefresh = Number.NEGATIVE_INFINITY
  #timer: ReturnType<typeof setInterval> | undefined
  #closed = false

  constructor(
    private readonly discovery: ResolvedDiscovery,
    private readonly target: DiscoveryTarget,
    private readonly kind: TransportKind,
    private readonly secure: boolean,
    private readonly log: ClientLog,
  ) {}

  /** The first discovery, shared by the calls that wait for it; a failed one is tried again by the next call. */
  ready(): Promise<void> {
    this.#ready ??= this.refresh().then(
      () => {
        if (this.discovery.refreshIntervalMs > 0 && !this.#closed && this.#timer === undefined) {
          this.#timer = setInterval(() => this.#background('timer'), this.discovery.refreshIntervalMs)
          this.#timer.unref?.()
        }
      },
      (error: unknown) => {
        this.#ready = undefined
        throw error
      },
    )
    return this.#ready
  }

  /** {@link DiscoveryGate.enter}: the first read waited for within the call's own limits. */
  async enter<Options extends CallLimits>(
    call: RequestKind | 'command' | 'ping' | 'serverInfo',
    options: Options | undefined,
    requestTimeoutMs: number | undefined,
  ): Promise<Options | undefined> {
    const limitMs = options?.timeoutMs ?? requestTimeoutMs ?? 0
    const startedAt = options?.startedAt ?? performance.now()
    const deadline =
      call === 'ping' || call === 'serverInfo'
        ? CallDeadline.forCall(call, limitMs, options?.signal, undefined)
        : CallDeadline.forRequest(
            call === 'insert' ? 'insert' : 'query',
            options?.queryId ?? '',
            limitMs,
            options?.signal,
            undefined,
            startedAt,
          )
    // The read goes on for the other calls when this one stops waiting.
    await deadline.wait(this.ready())
    if (limitMs <= 0) return options
    // A ping has no start to carry: it gets the time left.
    return call === 'ping' || call === 'serverInfo'
      ? { ...(options as Options), timeoutMs: deadline.remaining() }
      : { ...(options as Options), startedAt }
  }

  /** Reads the cluster's nodes again now (one read at a time) and uses them as the hosts. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#read().finally(() => {
      this.#refreshing = undefined
    })
    return this.#refreshing
  }

  /** A host was set aside: the cluster may have changed; read it again unless that was just done. */
  hostSetAside(): void {
    if (this.#ready === undefined || this.#closed) return
    if (Date.now() - this.#lastRefresh < failureRefreshGapMs) return
    this.#background('failure')
  }

  #background(reason: 'timer' | 'failure'): void {
    this.refresh().catch((error: unknown) => {
      this.log.warn('cluster discovery failed, keeping the hosts', {
        cluster: this.discovery.cluster,
        reason,
        ...errorContext(error),
      })
    })
  }

  async #read(): Promise<void> {
    this.#lastRefresh = Date.now()
    let last: unknown
    for (const seed of this.target.current()) {
      if (this.#closed) return
      const probe = this.target.probe(seed)
      let nodes: readonly ClusterNode[]
      try {
        nodes = await readClusterNodes(probe, this.discovery.cluster)
      } catch (error) {
        last = error
        continue
      } finally {
        await probe.close().catch(() => {})
      }
      // A seed that answered decides (a wrong cluster name or port mapping is no reason to ask another).
      const endpoints = clusterEndpoints(nodes, this.discovery, seed, this.kind, this.secure)
      const before = describe(this.target.current())
      if (!this.#closed) this.target.apply(endpoints)
      const after = describe(endpoints)
      if (after !== before)
        this.log.info('cluster hosts discovered', { cluster: this.discovery.cluster, hosts: after })
      return
    }
    throw last
  }

  close(): void {
    this.#closed = true
    clearInterval(this.#timer)
  }
}

function describe(endpoints: readonly Endpoint[]): string {
  return endpoints.map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`).join(',')
}
