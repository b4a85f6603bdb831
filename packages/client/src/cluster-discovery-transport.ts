import type {
  BlockStream,
  InsertOptions,
  InsertProducer,
  InsertResult,
  Progress,
  QueryOptions,
  RawBody,
  RawInsertOptions,
  RawInsertResult,
  RawQueryOptions,
  RawStream,
  RequestOptions,
  ServerInfo,
  Transport,
} from '@clickwire/protocol'
import type { DiscoveryGate } from './cluster-discovery-options.js'

/**
 * A transport whose hosts are a cluster's nodes (`discoverCluster`). Before its first call
 * it reads `system.clusters` from the URL's hosts (the seeds), the first that answers,
 * and replaces its host list with the nodes (see clusterEndpoints); a call waits for that
 * read, and one that fails (no seed answered, no such cluster) fails the calls waiting and
 * is tried again by the next call; each call waits within its own time limit and signal,
 * and goes on with the time it has left. Then the list is read again every `refreshIntervalMs`
 * and after a host is set aside (at most every 5 s), from the hosts in use; a refresh
 * that fails keeps the list and logs a warning. Each read uses a connection of its own, so
 * it knows which host answered (a loopback name is that host's machine) and never waits
 * behind a full pool. Native's; HTTP's FailoverTransport takes the gate itself.
 */
export class ClusterDiscoveryTransport implements Transport {
  readonly kind: Transport['kind']
  readonly queryRaw?: (sql: string, options: RawQueryOptions) => Promise<RawStream>
  readonly insertRaw?: (table: string, body: RawBody, options: RawInsertOptions) => Promise<RawInsertResult>

  constructor(
    private readonly inner: Transport,
    private readonly gate: DiscoveryGate,
  ) {
    this.kind = inner.kind
    const { queryRaw, insertRaw } = inner
    if (queryRaw)
      this.queryRaw = async (sql, options) => queryRaw.call(inner, sql, (await gate.enter('query', options))!)
    if (insertRaw)
      this.insertRaw = async (table, body, options) =>
        insertRaw.call(inner, table, body, (await gate.enter('insert', options))!)
  }

  async query(sql: string, options?: QueryOptions): Promise<BlockStream> {
    return this.inner.query(sql, await this.gate.enter('query', options))
  }

  async insert(table: string, producer: InsertProducer, options?: InsertOptions): Promise<InsertResult> {
    return this.inner.insert(table, producer, await this.gate.enter('insert', options))
  }

  async command(
    sql: string,
    options?: RequestOptions,
  ): Promise<{ readonly queryId: string; readonly progress: Progress }> {
    return this.inner.command(sql, await this.gate.enter('command', options))
  }

  async ping(options?: {
    readonly signal?: AbortSignal | undefined
    readonly timeoutMs?: number | undefined
  }): Promise<void> {
    return this.inner.ping(await this.gate.enter('ping', options))
  }

  async serverInfo(): Promise<ServerInfo> {
    await this.gate.enter('serverInfo', undefined)
    return this.inner.serverInfo()
  }

  async close(): Promise<void> {
    this.gate.close()
    await this.inner.close()
  }
}
