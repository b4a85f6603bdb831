import type { ServerPorts, ServerUsers } from './server-config.js'
import type { ServerGeneration } from './server-generation.js'
import type { ZooKeeperServer } from './zookeeper-server.js'

/** Everything a test needs to reach a server; plain data, so vitest can hand it to workers. */
export interface ServerInfo {
  /** `local`: started here from a binary; `external`: `CLICKHOUSE_URL`; `docker`: testcontainers. */
  readonly source: 'local' | 'external' | 'docker'
  readonly host: string
  readonly ports: Readonly<ServerPorts>
  /** `clickhouse://host:port` for the native TCP protocol. */
  readonly nativeUrl: string
  /** `http://host:port` for the HTTP interface. */
  readonly httpUrl: string
  /** `clickhouses://localhost:port`, when TLS was asked for. */
  readonly secureNativeUrl?: string | undefined
  /** `https://localhost:port`, when TLS was asked for. */
  readonly secureHttpUrl?: string | undefined
  /** PEM of the CA that signed the server certificate. */
  readonly ca?: string | undefined
  readonly caFile?: string | undefined
  readonly users: ServerUsers
  /** Whether the password and readonly accounts of `users` exist on this server. */
  readonly hasTestUsers: boolean
  /** `SELECT version()`. */
  readonly version: string
  /** 18.16 (`legacy`) or 23+ (`modern`), from the version. */
  readonly generation: ServerGeneration
  /**
   * The release line, `major.minor` of the version: `'18.16'`, `'26.7'` or `'26.9'` for the
   * servers the harness starts (see `ServerLine`), whatever the server says for others.
   */
  readonly line: string
  /** The server's private folder (local servers only). */
  readonly dir?: string | undefined
  /** Names of the `remote_servers` clusters configured on every node. */
  readonly clusterName?: string | undefined
  /** This node's shard in `clusterName`, counted from 1 (the `{shard}` macro when replicated). */
  readonly shard?: number | undefined
  /** This node's replica within its shard, counted from 1. */
  readonly replica?: number | undefined
}

/** A running throwaway server. Stop it with `stop()` or `await using`. */
export interface ClickHouseServer extends ServerInfo {
  /** The server's current process id (local servers only). */
  readonly pid: number | undefined
  /** The other nodes of the cluster, this one first, when `shards` was given. */
  readonly nodes: readonly ClickHouseServer[]
  /** The throwaway ZooKeeper of a replicated cluster (`replicas` > 1), stopped with it. */
  readonly zooKeeper?: ZooKeeperServer | undefined
  /** Plain data for `provide()` / `inject()`. */
  info(): ServerInfo
  /** Kills the server process at once (SIGKILL), keeping its data, to test failures. */
  kill(): Promise<void>
  /** Starts the server again after `kill()`, on the same ports and data. */
  restart(): Promise<void>
  /**
   * Calls `listener` with the tail of the server's logs when its process ends by itself
   * (not through `kill()` or `stop()`). Local servers only; returns the unsubscribe call.
   */
  onUnexpectedExit(listener: (logTail: string) => void): () => void
  /** Stops the server (all nodes) and deletes its folder. Safe to call twice. */
  stop(): Promise<void>
  [Symbol.asyncDispose](): Promise<void>
}
