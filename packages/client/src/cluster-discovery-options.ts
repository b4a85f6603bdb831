import { type RequestKind, type Transport, UsageError } from '@clickwire/protocol'
import type { ClientLog } from './client-logger.js'
import type { Endpoint, TransportKind } from './client-options.js'
import type { ClusterDiscoverer } from './cluster-discovery.js'

/**
 * The `discoverCluster` option: its shape and its check. Small on purpose: the client's
 * options check it on every createClient, while the reading of `system.clusters`
 * (cluster-discovery.ts) is loaded only by a client that discovers.
 */

/** What `discoverCluster` takes besides a bare cluster name. */
export interface ClusterDiscoveryOptions {
  /** The cluster's name, as in `system.clusters` (`remote_servers` in the server's config). */
  readonly cluster: string
  /**
   * Only the replicas of this shard (`shard_num`, from 1): interchangeable copies of the
   * same rows. Without it every node of the cluster is a host, which is right for reads
   * through a Distributed table (any node can run them) and for `ON CLUSTER` DDL, not for
   * reading a shard's local table.
   */
  readonly shard?: number | undefined
  /**
   * The port to reach each node on over this client's scheme. `system.clusters` has only the
   * native TCP port of each node (what its `remote_servers` entry says); plain
   * `clickhouse://` uses it as it is. Other schemes (`http(s)://`, `clickhouses://`) need a
   * port of their own: a number (the same on every node), a function of the node, or, by
   * default, the native port shifted by the seed's own offset (the port of the seed's URL
   * minus the native port of its row in the cluster, found by `is_local`). A seed that is
   * not a node of the cluster, or whose nodes share one address (several rows look local),
   * leaves nothing to shift by: then nodes on the default native port (9000 or 9440) get
   * this scheme's default (8123, 8443, 9440), and anything else is a UsageError asking for
   * this option.
   */
  readonly port?: number | ((node: ClusterNode) => number) | undefined
  /**
   * How often to read `system.clusters` again, in ms (default 60 000; 0: never on a timer).
   * It is also read again after a host is set aside, at most every 5 s.
   */
  readonly refreshIntervalMs?: number | undefined
}

/** One row of `system.clusters`. */
export interface ClusterNode {
  readonly shard: number
  /** `shard_weight`: the share of a Distributed table's rows its inserts send to this shard. */
  readonly shardWeight: number
  readonly replica: number
  /** The name as configured in `remote_servers`. */
  readonly hostName: string
  /** The address the server resolved that name to. */
  readonly hostAddress: string
  /** The node's native TCP port (the `port` column: what `remote_servers` configures). */
  readonly port: number
  /** Whether the node is the server that answered. */
  readonly isLocal: boolean
}

/** {@link ClusterDiscoveryOptions} with the defaults applied. */
export interface ResolvedDiscovery {
  readonly cluster: string
  readonly shard: number | undefined
  readonly port: number | ((node: ClusterNode) => number) | undefined
  readonly refreshIntervalMs: number
}

/** Checks and completes the `discoverCluster` option (a name or {@link ClusterDiscoveryOptions}). */
export function resolveDiscovery(
  option: string | ClusterDiscoveryOptions | undefined,
): ResolvedDiscovery | undefined {
  if (option === undefined) return undefined
  const given = typeof option === 'string' ? { cluster: option } : option
  const check = (ok: boolean, field: string, want: string, got: unknown) => {
    if (!ok) throw new UsageError(`discoverCluster${field} must be ${want}, got ${String(got)}`)
  }
  check(
    typeof given?.cluster === 'string' && given.cluster !== '',
    '',
    'a cluster name or { cluster, shard?, port?, refreshIntervalMs? }',
    option,
  )
  const { shard, port, refreshIntervalMs = 60_000 } = given
  check(
    shard === undefined || (Number.isInteger(shard) && shard >= 1),
    '.shard',
    'a shard number from 1',
    shard,
  )
  check(
    port === undefined || typeof port === 'function' || validPort(port),
    '.port',
    'a port or a function of the node',
    port,
  )
  check(refreshIntervalMs >= 0, '.refreshIntervalMs', '0 or more', refreshIntervalMs)
  return { cluster: given.cluster, shard, port, refreshIntervalMs }
}

/** Whether `port` is a TCP port number. */
export function validPort(port: unknown): port is number {
  return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65_536
}

/** What cluster discovery needs of the transport whose hosts it keeps. */
export interface DiscoveryTarget {
  /** The hosts in use, in their configured order: the ones asked on a refresh. */
  current(): readonly Endpoint[]
  /** Replaces the hosts (the transport keeps the cool-down of those still listed). */
  apply(endpoints: readonly Endpoint[]): void
  /** A transport to one host, closed after one read of system.clusters. */
  probe(endpoint: Endpoint): Transport
}

/** The limits of one call, as a transport takes them. */
export interface CallLimits {
  readonly queryId?: string | undefined
  readonly timeoutMs?: number | undefined
  readonly signal?: AbortSignal | undefined
  /** When the call began (`performance.now()`), when before the step at hand. */
  readonly startedAt?: number | undefined
}

/** What every call of a discovering transport waits for first, and what its failures and close tell. */
export interface DiscoveryGate {
  /**
   * Waits for the first read of the cluster (ClusterDiscoverer.ready) within the call's own time limit (its `timeoutMs`, else the
   * client's `requestTimeoutMs`) and signal, ending with that call's error; resolves with
   * the call's options carrying its start (a ping's: the time left), so the whole call
   * keeps to its limit.
   */
  enter<Options extends CallLimits>(
    kind: RequestKind | 'command' | 'ping' | 'serverInfo',
    options: Options | undefined,
  ): Promise<Options | undefined>
  /** A host was set aside: read the cluster again unless that was just done. */
  hostSetAside(): void
  close(): void
}

/**
 * The gate of a transport whose hosts are a cluster's nodes. The refreshes
 * (cluster-discovery.ts) are loaded on the first call, so a client that does not discover
 * never carries them (browser bundles).
 */
export function discoveryGate(
  discovery: ResolvedDiscovery,
  target: DiscoveryTarget,
  kind: TransportKind,
  secure: boolean,
  log: ClientLog,
  requestTimeoutMs: number | undefined,
): DiscoveryGate {
  let loaded: Promise<ClusterDiscoverer> | undefined
  const discoverer = () =>
    (loaded ??= import('./cluster-discovery.js').then(
      ({ ClusterDiscoverer }) => new ClusterDiscoverer(discovery, target, kind, secure, log),
    ))
  return {
    enter: async (call, options) => (await discoverer()).enter(call, options, requestTimeoutMs),
    hostSetAside: () => void loaded?.then((each) => each.hostSetAside()),
    close: () => void loaded?.then((each) => each.close()),
  }
}
