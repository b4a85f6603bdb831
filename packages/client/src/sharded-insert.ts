import {
  AbortError,
  type ColumnInput,
  type ColumnMeta,
  type ExternalTable,
  emptyProgress,
  type InsertBatch,
  type InsertOutcome,
  newQueryId,
  type Progress,
  parseTypeCached,
  quoteSqlString,
  type Transport,
  UsageError,
  wholeColumn,
} from '@clickwire/protocol'
import type {
  ClickwireClient,
  ClientInsertResult,
  InsertCallOptions,
  QueryCallOptions,
  TransportFactory,
} from './clickwire-client.js'
import { describeEndpoints, parseClientUrl, type ResolvedClientOptions } from './client-options.js'
import { clusterNodeOf, clusterNodesSql } from './cluster-discovery.js'
import type { ClusterNode } from './cluster-discovery-options.js'
import type { InsertValues, insertSource } from './insert-values.js'
import type { QuerySummary } from './query-summary.js'
import type { ResultSet } from './result-set.js'
import {
  ShardInsertError,
  type ShardOutcome,
  shardErrorOutcome,
  shardFailureMessage,
} from './shard-insert-error.js'
import {
  distributedEngineOf,
  keyColumns,
  plainKeyColumn,
  shardingKeyType,
  shardSelector,
  shardsOfColumn,
  slotTable,
} from './shard-routing.js'

/** One replica of a cluster as `system.clusters` lists it, with the cluster's name. */
export interface ClusterReplica extends ClusterNode {
  readonly cluster: string
}

export interface ShardedInsertOptions {
  /**
   * How an insert into a Distributed table reaches the shards:
   * - `distributed` (default): the rows go to the table named, and the server routes them
   *   (see the README's "Inserting into a cluster" for what "written" means then);
   * - `direct`: the client reads the Distributed table's cluster, local table and sharding
   *   key, computes each row's shard as ClickHouse would, and inserts each shard's rows into
   *   the local table of one replica of that shard, all shards in parallel. The result
   *   (`rowsWritten`, `summary`) sums the shards and lists them in `shards`; a failure is a
   *   ShardInsertError carrying every shard's outcome (a partial write is possible).
   */
  readonly sharding?: 'distributed' | 'direct' | undefined
  /**
   * `direct`: the URL of a replica (only its scheme, host, port and HTTP path are used;
   * credentials, database and settings stay the client's). Return undefined to fall back
   * to the derived one: the client's own URL for the replica it is connected to; over
   * native, `host_name:port` of `system.clusters`; over HTTP only when the replica uses the
   * default native port (9000 -> 8123, 9440 -> 8443 for TLS), as `system.clusters` knows
   * only native ports. A replica it cannot place is skipped for the shard's next replica.
   */
  readonly shardUrl?: ((replica: ClusterReplica) => string | undefined) | undefined
}

/** Where one shard's rows go: a replica's scheme-less address. */
export interface ShardTarget {
  readonly host: string
  readonly port: number
  readonly secure: boolean
  /** HTTP: the path prefix (default the client's). */
  readonly httpPath?: string | undefined
}

/** A connection to one replica that can insert prepared batches. */
export interface ShardSink {
  /** `clickhouse://host:port` or `http://host:port`, no credentials. */
  readonly url: string
  insert(
    table: string,
    columns: readonly string[],
    batches: (header: readonly ColumnMeta[]) => AsyncIterable<InsertBatch> | Iterable<InsertBatch>,
    options: InsertCallOptions,
  ): Promise<ClientInsertResult>
  close(): Promise<void>
}

/** What the client lends the direct-insert path. */
export interface ShardedInsertHost {
  readonly kind: 'native' | 'http'
  readonly secure: boolean
  /** The client's own endpoint (the first of its URL). */
  readonly endpoint: { readonly host: string; readonly port: number }
  query(sql: string, options: QueryCallOptions): Promise<ResultSet<Record<string, unknown>>>
  openShard(target: ShardTarget): ShardSink
  /** Reads the insert's values in batches (insert-values.ts, loaded with the insert code). */
  insertSource: typeof insertSource
  readonly blockRows: number
}

/** How long a Distributed table's layout is reused before it is read again. */
const planLifetimeMs = 60_000

/** Rows of one shard waiting for its insert; the producer waits beyond this many batches. */
const channelDepth = 2

interface ShardPlan {
  readonly shard: number
  readonly weight: number
  readonly replicas: readonly ClusterReplica[]
}

/** A Distributed table's layout, read from system.tables, system.columns, system.clusters. */
interface TablePlan {
  /** `db`.`local` on every shard. */
  readonly localTable: string
  readonly cluster: string
  readonly columns: readonly ColumnMeta[]
  readonly shards: readonly ShardPlan[]
  readonly slots: Uint32Array
  readonly key: string | undefined
}

/** `[database, table]` of `db.table`, `table`, or their backquoted forms. */
function tableParts(table: string): [string | undefined, string] {
  const part = /`((?:[^`\\]|\\.)*)`|([A-Za-z_][A-Za-z0-9_]*)/y
  const parts: string[] = []
  let at = 0
  for (;;) {
    part.lastIndex = at
    const match = part.exec(table.trim())
    if (!match) break
    parts.push(match[1] !== undefined ? match[1].replace(/\\(.)/gs, '$1') : match[2]!)
    at = part.lastIndex
    if (table.trim()[at] !== '.') break
    at++
  }
  if (parts.length === 0 || parts.length > 2 || at !== table.trim().length)
    throw new UsageError(
      `sharding: 'direct' needs a Distributed table's name (table or db.table), got ${JSON.stringify(table)}`,
    )
  return parts.length === 2 ? [parts[0], parts[1]!] : [undefined, parts[0]!]
}

const backquote = (name: string) => `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``

/** An async queue of one shard's batches, bounded so the input is read no faster than shards take it. */
class BatchChannel {
  readonly #items: InsertBatch[] = []
  #ended = false
  #gone = false
  #wakeConsumer: (() => void) | undefined
  #wakeProducer: (() => void) | undefined

  /** Queues a batch; resolves false when the shard's insert no longer reads. */
  async push(batch: InsertBatch): Promise<boolean> {
    while (this.#items.length >= channelDepth && !this.#gone) {
      await new Promise<void>((resolve) => {
        this.#wakeProducer = resolve
      })
    }
    if (this.#gone) return false
    this.#items.push(batch)
    this.#wake('consumer')
    return true
  }

  end(): void {
    this.#ended = true
    this.#wake('consumer')
  }

  /** The shard's insert stopped reading (it failed or was cancelled). */
  abandon(): void {
    this.#gone = true
    this.#wake('producer')
  }

  #wake(who: 'consumer' | 'producer'): void {
    const wake = who === 'consumer' ? this.#wakeConsumer : this.#wakeProducer
    if (who === 'consumer') this.#wakeConsumer = undefined
    else this.#wakeProducer = undefined
    wake?.()
  }

  /** The batches, reordered from `columns` order to the server's `header` order. */
  async *drain(columns: readonly string[], header: readonly ColumnMeta[]): AsyncGenerator<InsertBatch> {
    const order = header.map(({ name }) => {
      const index = columns.indexOf(name)
      if (index < 0)
        throw new UsageError(`the shard's table asks for column ${name}, which the insert does not send`)
      return index
    })
    try {
      for (;;) {
        const batch = this.#items.shift()
        if (batch) {
          this.#wake('producer')
          yield { rows: batch.rows, columns: order.map((index) => batch.columns[index]!) }
        } else if (this.#ended) return
        else
          await new Promise<void>((resolve) => {
            this.#wakeConsumer = resolve
          })
      }
    } finally {
      this.abandon()
    }
  }
}

/** The row numbers of each shard's rows, in order, from each row's shard. */
function rowsByShard(shardOf: Uint32Array, shardCount: number): Uint32Array[] {
  const counts = new Uint32Array(shardCount)
  for (let row = 0; row < shardOf.length; row++) counts[shardOf[row]!]!++
  const rows = Array.from(counts, (count) => new Uint32Array(count))
  const at = new Uint32Array(shardCount)
  for (let row = 0; row < shardOf.length; row++) {
    const shard = shardOf[row]!
    rows[shard]![at[shard]!++] = row
  }
  return rows
}

type WordArray = Uint8Array | Uint16Array | Uint32Array

/** `out[i] = from[rows[i] * words + k]` for each of an element's `words` words. */
function gatherWords(from: WordArray, out: WordArray, rows: Uint32Array, words: number): void {
  if (words === 1) {
    for (let i = 0; i < rows.length; i++) out[i] = from[rows[i]!]!
    return
  }
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]! * words
    for (let k = 0; k < words; k++) out[i * words + k] = from[row + k]!
  }
}

/**
 * The values of `rows` of a column. A typed array is copied as raw words of its element
 * size, so a BigInt64Array's values are not made into BigInts one by one and one loop serves
 * every element type.
 */
function pickRows(values: ColumnInput, rows: Uint32Array): ColumnInput {
  if (ArrayBuffer.isView(values) && !(values instanceof DataView)) {
    const typed = values as unknown as Uint8Array
    const out = new (typed.constructor as new (length: number) => Uint8Array)(rows.length)
    const size = typed.BYTES_PER_ELEMENT
    const View = (size === 1 ? Uint8Array : size === 2 ? Uint16Array : Uint32Array) as new (
      buffer: ArrayBufferLike,
      offset: number,
      length: number,
    ) => WordArray
    const words = size <= 4 ? 1 : size / 4
    const from = new View(typed.buffer, typed.byteOffset, typed.length * words)
    gatherWords(from, new View(out.buffer, out.byteOffset, rows.length * words), rows, words)
    return out
  }
  const out = new Array<unknown>(rows.length)
  for (let i = 0; i < rows.length; i++) out[i] = values[rows[i]!]
  return out
}

/**
 * Row ranges whose key values stay well below `max_query_size` (256 KiB by default) and
 * HTTP's URL limits once written as parameters (18.16 gets them substituted into the text).
 */
function parameterChunks(columns: readonly ColumnInput[], rows: number): [number, number][] {
  const budget = 100_000
  const chunks: [number, number][] = []
  let start = 0
  let size = 0
  for (let row = 0; row < rows; row++) {
    let cost = 4
    for (const column of columns) cost += String(column[row]).length + 4
    if (size + cost > budget && row > start) {
      chunks.push([start, row])
      start = row
      size = 0
    }
    size += cost
  }
  chunks.push([start, rows])
  return chunks
}

function addProgress(a: Progress, b: Progress): Progress {
  return {
    readRows: a.readRows + b.readRows,
    readBytes: a.readBytes + b.readBytes,
    totalRowsToRead: a.totalRowsToRead + b.totalRowsToRead,
    writtenRows: a.writtenRows + b.writtenRows,
    writtenBytes: a.writtenBytes + b.writtenBytes,
    elapsedNs: Math.max(a.elapsedNs, b.elapsedNs),
  }
}

/** Nothing yet: the start of the sums over the shards' results. */
const noProgress: QuerySummary = { ...emptyProgress, resultRows: 0, resultBytes: 0 }

/**
 * The direct-to-shard insert path of one client (`sharding: 'direct'`). A Distributed
 * table's layout (cluster, local table, key, columns, shards and weights) is read once and
 * reused for a minute; it is read again sooner after any failed direct insert into that
 * table, so a shard added, a table recreated or a host moved is picked up by the next insert
 * after the first one it breaks. Connections to the replicas are kept and closed with the
 * client.
 */
export class ShardedInserter {
  readonly #host: ShardedInsertHost
  readonly #plans = new Map<string, { readonly until: number; readonly plan: Promise<TablePlan> }>()
  readonly #sinks = new Map<string, ShardSink>()

  constructor(host: ShardedInsertHost) {
    this.#host = host
  }

  async close(): Promise<void> {
    const sinks = [...this.#sinks.values()]
    this.#sinks.clear()
    await Promise.all(sinks.map((sink) => sink.close()))
  }

  /** The layout of `table`, from the cache or the server. */
  #plan(table: string, options: InsertCallOptions): Promise<TablePlan> {
    const cached = this.#plans.get(table)
    if (cached && cached.until > Date.now()) return cached.plan
    const plan = this.#readPlan(table, options)
    this.#plans.set(table, { until: Date.now() + planLifetimeMs, plan })
    plan.catch(() => this.#forget(table, plan))
    return plan
  }

  #forget(table: string, plan?: Promise<TablePlan>): void {
    if (plan === undefined || this.#plans.get(table)?.plan === plan) this.#plans.delete(table)
  }

  async #rows(sql: string, options: InsertCallOptions): Promise<Record<string, unknown>[]> {
    const rs = await this.#host.query(sql, { signal: options.signal, timeoutMs: options.timeoutMs })
    return rs.rows()
  }

  async #readPlan(table: string, options: InsertCallOptions): Promise<TablePlan> {
    const [database, name] = tableParts(table)
    const db = database === undefined ? 'currentDatabase()' : quoteSqlString(database)
    const [found] = await this.#rows(
      `SELECT database, engine, engine_full FROM system.tables WHERE database = ${db} AND name = ${quoteSqlString(name)}`,
      options,
    )
    if (!found) throw new UsageError(`sharding: 'direct': no table ${table}`)
    if (found.engine !== 'Distributed')
      throw new UsageError(
        `sharding: 'direct' inserts into a Distributed table; ${table} is ${String(found.engine)}`,
      )
    const engine = distributedEngineOf(String(found.engine_full))
    const tableDatabase = String(found.database)
    const columns = (
      await this.#rows(
        `SELECT name, type, default_kind, default_expression FROM system.columns WHERE database = ${quoteSqlString(tableDatabase)} AND table = ${quoteSqlString(name)}`,
        options,
      )
    ).map(
      (row): ColumnMeta => ({
        name: String(row.name),
        type: String(row.type),
        typeNode: parseTypeCached(String(row.type)),
        defaultKind: String(row.default_kind) as ColumnMeta['defaultKind'],
        defaultExpression: String(row.default_expression),
      }),
    )
    const replicas = (await this.#rows(clusterNodesSql(engine.cluster), options)).map(
      (row): ClusterReplica => ({ cluster: engine.cluster, ...clusterNodeOf((column) => row[column]) }),
    )
    if (replicas.length === 0)
      throw new UsageError(`sharding: 'direct': the server knows no cluster ${engine.cluster}`)
    const shards: ShardPlan[] = []
    for (const replica of replicas) {
      const last = shards.at(-1)
      if (last?.shard === replica.shard) (last.replicas as ClusterReplica[]).push(replica)
      else shards.push({ shard: replica.shard, weight: replica.shardWeight, replicas: [replica] })
    }
    if (engine.shardingKey === undefined && shards.length > 1)
      throw new UsageError(
        `sharding: 'direct': ${table} has no sharding key and its cluster ${engine.cluster} has ${shards.length} shards, so a row has no shard (ClickHouse refuses such inserts too)`,
      )
    return {
      localTable: `${backquote(engine.database ?? tableDatabase)}.${backquote(engine.table)}`,
      cluster: engine.cluster,
      columns,
      shards,
      slots: slotTable(shards.map((shard) => shard.weight)),
      key: engine.shardingKey,
    }
  }

  /** Where a replica is reached on the client's transport, or undefined if it cannot be placed. */
  #targetOf(replica: ClusterReplica, options: ShardedInsertOptions): ShardTarget | undefined {
    const host = this.#host
    const url = options.shardUrl?.(replica)
    if (url !== undefined) {
      const parsed = parseClientUrl(url)
      if (parsed.kind !== host.kind)
        throw new UsageError(
          `shardUrl gave ${parsed.kind} URL ${JSON.stringify(url)} for a ${host.kind} client: give URLs of the client's own scheme`,
        )
      const endpoint = parsed.endpoints[0]!
      return { host: endpoint.host, port: endpoint.port, secure: parsed.secure, httpPath: parsed.path }
    }
    if (replica.isLocal) return { ...host.endpoint, secure: host.secure }
    const address = replica.hostName || replica.hostAddress
    if (host.kind === 'native') return { host: address, port: replica.port, secure: host.secure }
    const httpPort = replica.port === 9000 ? 8123 : replica.port === 9440 ? 8443 : undefined
    return httpPort === undefined ? undefined : { host: address, port: httpPort, secure: host.secure }
  }

  #sinkFor(shard: ShardPlan, options: ShardedInsertOptions): ShardSink {
    for (const replica of shard.replicas) {
      const target = this.#targetOf(replica, options)
      if (!target) continue
      const key = `${target.secure}|${target.host}|${target.port}|${target.httpPath ?? ''}`
      let sink = this.#sinks.get(key)
      if (!sink) {
        sink = this.#host.openShard(target)
        this.#sinks.set(key, sink)
      }
      return sink
    }
    const first = shard.replicas[0]!
    throw new UsageError(
      `sharding: 'direct': no URL for shard ${shard.shard} (${first.hostName}:${first.port} is a native port, and its HTTP port cannot be derived): pass shardUrl, e.g. shardUrl: (replica) => \`http://\${replica.hostName}:8123\``,
    )
  }

  /** The shard index (0-based, cluster order) of each row of `batch`. */
  async #route(
    plan: TablePlan,
    header: readonly ColumnMeta[],
    batch: InsertBatch,
    options: InsertCallOptions,
  ): Promise<Uint32Array> {
    const shardOf = new Uint32Array(batch.rows)
    if (plan.shards.length === 1 || plan.key === undefined) return shardOf
    const names = header.map((column) => column.name)
    const keyColumn = plainKeyColumn(plan.key, names)
    const keyMeta = keyColumn === undefined ? undefined : header[names.indexOf(keyColumn)]
    if (keyMeta && shardingKeyType(keyMeta.type)) {
      // An integer column: routed here, exactly as the server would.
      shardsOfColumn(
        wholeColumn(batch.columns[names.indexOf(keyColumn!)]!),
        keyMeta.type,
        plan.slots,
        shardOf,
      )
      return shardOf
    }
    // Any other key (cityHash64(s), intHash64(id), rand(), ...): evaluated by the server
    // over the key's columns, each value with its row number (a SELECT need not keep the
    // order): over native as an external table, over HTTP as array parameters (works on
    // 18.16 and 26.x), so the server's own functions give the key.
    const needed = keyColumns(
      plan.key,
      plan.columns.map((column) => column.name),
    )
    const missing = needed.filter((name) => !names.includes(name))
    if (missing.length > 0)
      throw new UsageError(
        `sharding: 'direct': the sharding key ${plan.key} reads ${missing.join(', ')}, which the insert does not send`,
      )
    const columnOf = (name: string) => wholeColumn(batch.columns[names.indexOf(name)]!)
    const typeOf = (name: string) => header[names.indexOf(name)]!.type
    const keys = new Array<unknown>(batch.rows)
    let keyType: string | undefined
    for (const [from, to] of this.#host.kind === 'native'
      ? [[0, batch.rows] as const]
      : parameterChunks(needed.map(columnOf), batch.rows)) {
      const rs =
        this.#host.kind === 'native'
          ? await this.#keysByExternalTable(plan.key, needed, columnOf, typeOf, batch.rows, options)
          : await this.#keysByParameters(plan.key, needed, columnOf, typeOf, from, to, options)
      keyType = rs.meta[1]!.type
      if (!shardingKeyType(keyType)) {
        await rs.arrays().catch(() => {})
        break
      }
      // The key as text: a 64-bit key stays exact whatever the client's int64 mapping.
      for (const [row, , key] of await rs.arrays()) keys[from + Number(row)] = key
    }
    if (!keyType || !shardingKeyType(keyType))
      throw new UsageError(
        `sharding: 'direct': the sharding key ${plan.key} evaluates to ${keyType}; ClickHouse shards only by an integer (UInt8..Int64)`,
      )
    const select = shardSelector(keyType, plan.slots)
    for (let row = 0; row < batch.rows; row++) shardOf[row] = select(keys[row])
    return shardOf
  }

  /** Native: the key columns go as an external table, numbered so the order does not matter. */
  #keysByExternalTable(
    key: string,
    needed: readonly string[],
    columnOf: (name: string) => ColumnInput,
    typeOf: (name: string) => string,
    rows: number,
    options: InsertCallOptions,
  ): Promise<ResultSet<Record<string, unknown>>> {
    const rowNumbers = new Uint32Array(rows)
    for (let row = 0; row < rows; row++) rowNumbers[row] = row
    const data: Record<string, ColumnInput> = { _clickwire_row: rowNumbers }
    for (const name of needed) data[name] = columnOf(name)
    const external: ExternalTable = {
      name: '_clickwire_rows',
      columns: [
        { name: '_clickwire_row', type: 'UInt32' },
        ...needed.map((name) => ({ name, type: typeOf(name) })),
      ],
      data,
    }
    return this.#host.query(
      `SELECT _clickwire_row, (${key}) AS _clickwire_key, toString(_clickwire_key) FROM _clickwire_rows`,
      {
        externalTables: [external],
        signal: options.signal,
        timeoutMs: options.timeoutMs,
      },
    )
  }

  /**
   * HTTP (which sends no external tables): rows [from, to) of the key columns as array
   * parameters, array-joined back into rows with their numbers.
   */
  #keysByParameters(
    key: string,
    needed: readonly string[],
    columnOf: (name: string) => ColumnInput,
    typeOf: (name: string) => string,
    from: number,
    to: number,
    options: InsertCallOptions,
  ): Promise<ResultSet<Record<string, unknown>>> {
    const params: Record<string, unknown> = { n: to - from }
    const selected = needed.map((name, index) => {
      params[`c${index}`] = Array.prototype.slice.call(columnOf(name), from, to)
      return `{c${index}:Array(${typeOf(name)})} AS ${backquote(name)}`
    })
    const joined = [...needed.map(backquote), '_clickwire_row'].join(', ')
    return this.#host.query(
      `SELECT _clickwire_row, (${key}) AS _clickwire_key, toString(_clickwire_key) FROM (SELECT ${[...selected, 'range({n:UInt32}) AS _clickwire_row'].join(', ')}) ARRAY JOIN ${joined}`,
      { params, signal: options.signal, timeoutMs: options.timeoutMs },
    )
  }

  async insert(
    table: string,
    values: InsertValues<unknown>,
    options: InsertCallOptions & ShardedInsertOptions,
  ): Promise<ClientInsertResult> {
    AbortError.throwIfAborted(options.signal)
    let plan: TablePlan
    try {
      plan = await this.#plan(table, options)
    } catch (error) {
      this.#forget(table)
      throw error
    }
    const blockRows = options.blockRows ?? this.#host.blockRows
    const source = await this.#host.insertSource(values, blockRows, options.columns === undefined)
    const queryId = options.queryId ?? newQueryId()
    const shardCount = plan.shards.length
    const failed = { error: undefined as unknown, shard: undefined as number | undefined }
    const sinks: (ShardSink | undefined)[] = new Array(shardCount).fill(undefined)
    const channels: (BatchChannel | undefined)[] = new Array(shardCount).fill(undefined)
    const stops: AbortController[] = []
    const running: (Promise<ClientInsertResult> | undefined)[] = new Array(shardCount).fill(undefined)
    const sent = new Array<number>(shardCount).fill(0)
    /** Whether the shard's transport asked for its rows: until then none went out to it. */
    const asked = new Array<boolean>(shardCount).fill(false)
    let inputDone = false
    const { sharding: _sharding, shardUrl: _shardUrl, ...shardOptions } = options
    const abortAll = (why: string) => {
      for (const stop of stops) if (!stop?.signal.aborted) stop?.abort(new AbortError(why))
    }
    try {
      const names = this.#insertColumns(plan, options.columns ?? source.names)
      const header = names.map((name) => plan.columns.find((column) => column.name === name)!)
      // Replicas are placed before anything is read, so a missing URL fails before a write.
      plan.shards.forEach((shard, index) => {
        sinks[index] = this.#sinkFor(shard, options)
      })
      const start = (index: number): BatchChannel => {
        const channel = new BatchChannel()
        const stop = new AbortController()
        stops[index] = stop
        const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal
        const shard = plan.shards[index]!
        const insert = sinks[index]!.insert(
          plan.localTable,
          names,
          (serverHeader) => {
            asked[index] = true
            return channel.drain(names, serverHeader)
          },
          {
            ...shardOptions,
            signal,
            queryId: `${queryId}-shard${shard.shard}`,
          },
        )
        running[index] = insert
        insert.catch((error) => {
          channel.abandon()
          if (failed.error === undefined) {
            failed.error = error
            failed.shard = shard.shard
          }
          // The others stop too, before more of their rows are sent, unless all was sent.
          if (!inputDone) abortAll(`shard ${shard.shard} failed`)
        })
        channels[index] = channel
        return channel
      }
      let stopped = false
      for await (const batch of source.batches(header)) {
        if (failed.error !== undefined) break
        const shardOf = await this.#route(plan, header, batch, options)
        const rows = shardCount === 1 ? undefined : rowsByShard(shardOf, shardCount)
        const whole = batch.columns.map(wholeColumn)
        for (let index = 0; index < shardCount && !stopped; index++) {
          const count = rows ? rows[index]!.length : batch.rows
          if (count === 0) continue
          const channel = channels[index] ?? start(index)
          sent[index]! += count
          const columns = rows ? whole.map((column) => pickRows(column, rows[index]!)) : whole
          stopped = !(await channel.push({ rows: count, columns }))
        }
        if (stopped) break
      }
      // A shard stopped reading: its insert failed. The others are stopped before their
      // input is ended, so that none of them commits a part of the rows.
      if (stopped || failed.error !== undefined) abortAll('a shard failed')
      else inputDone = true
    } catch (error) {
      if (failed.error === undefined) {
        failed.error = error
        failed.shard = undefined
      }
      abortAll('the insert input failed')
    } finally {
      for (const channel of channels) channel?.end()
      await source.close()
    }
    const settled = await Promise.allSettled(running.map((insert) => insert ?? Promise.resolve(undefined)))
    const outcomes: ShardOutcome[] = plan.shards.map((shard, index) => {
      const result = settled[index]!
      const url = sinks[index]?.url ?? ''
      if (running[index] === undefined)
        return { shard: shard.shard, url, rowsSent: 0, status: 'no-rows', rowsWritten: 0 }
      if (result.status === 'fulfilled')
        return {
          shard: shard.shard,
          url,
          rowsSent: sent[index]!,
          status: 'written',
          rowsWritten: result.value!.rowsWritten,
        }
      const ownFailure = failed.shard === shard.shard
      const stated = shardErrorOutcome(result.reason)
      return {
        shard: shard.shard,
        url,
        rowsSent: sent[index]!,
        status: ownFailure ? 'failed' : 'cancelled',
        rowsWritten: 0,
        error: result.reason,
        // None of its rows went out before its transport asked for them.
        insertOutcome: !asked[index] || stated === 'not-written' ? 'not-written' : (stated ?? 'unknown'),
      }
    })
    if (failed.error !== undefined) {
      this.#forget(table)
      // A mistake caught before any shard was written to is the caller's, as for any insert.
      if (running.every((insert) => insert === undefined)) throw failed.error
      throw new ShardInsertError(
        shardFailureMessage(failed.shard, outcomes, failed.error),
        failed.shard,
        outcomes,
        { cause: failed.error, insertOutcome: overallOutcome(outcomes) },
      )
    }
    let progress: Progress = noProgress
    let summary: QuerySummary = noProgress
    let rowsWritten = 0
    for (const result of settled) {
      if (result.status !== 'fulfilled' || !result.value) continue
      rowsWritten += result.value.rowsWritten
      progress = addProgress(progress, result.value.progress)
      summary = {
        ...addProgress(summary, result.value.summary),
        resultRows: summary.resultRows + result.value.summary.resultRows,
        resultBytes: summary.resultBytes + result.value.summary.resultBytes,
      }
    }
    return { queryId, rowsWritten, progress, summary, responseHeaders: {}, shards: outcomes }
  }

  /** The columns the insert sends: the caller's, the values' names, else every insertable one. */
  #insertColumns(plan: TablePlan, named: readonly string[] | undefined): readonly string[] {
    if (named === undefined)
      return plan.columns
        .filter((column) => column.defaultKind !== 'MATERIALIZED' && column.defaultKind !== 'ALIAS')
        .map((column) => column.name)
    for (const name of named) {
      if (!plan.columns.some((column) => column.name === name))
        throw new UsageError(`sharding: 'direct': the table has no column ${JSON.stringify(name)}`)
    }
    return named
  }
}

/** What the client gives {@link directInserter}: itself, its options, and its private insert. */
export interface DirectInsertDeps {
  readonly client: ClickwireClient
  readonly options: ResolvedClientOptions
  readonly transportFor: TransportFactory | undefined
  readonly insertSource: typeof insertSource
  readonly open: (options: ResolvedClientOptions, transport: Transport) => ClickwireClient
  readonly insertBatches: (
    shard: ClickwireClient,
    ...args: Parameters<ShardSink['insert']>
  ) => Promise<ClientInsertResult>
}

/**
 * The direct-to-shard path of a client: shard clients share the client's options (user,
 * password, settings, compression, TLS ...) with the replica's host and port.
 */
export function directInserter(deps: DirectInsertDeps): ShardedInserter {
  const { client, options: own, transportFor } = deps
  if (!transportFor) throw new UsageError("sharding: 'direct' needs a client made by createClient")
  return new ShardedInserter({
    kind: own.kind,
    secure: own.secure,
    endpoint: own.endpoints[0]!,
    blockRows: own.insertBlockRows ?? 65_536,
    insertSource: deps.insertSource,
    query: (sql, options) => client.query(sql, options),
    openShard: (target) => {
      const options: ResolvedClientOptions = {
        ...own,
        secure: target.secure,
        endpoints: [{ host: target.host, port: target.port }],
        httpPath: target.httpPath ?? own.httpPath,
        // One shard's replica, fixed: discovery would widen it to the whole cluster, and
        // rows routed to this shard could then land on another.
        discoverCluster: undefined,
      }
      const shard = deps.open(options, transportFor(options))
      return {
        url: describeEndpoints({ ...options, database: undefined }),
        insert: (...args) => deps.insertBatches(shard, ...args),
        close: () => shard.close(),
      }
    },
  })
}

/**
 * The outcome of a direct-to-shard insert that failed, from its shards': `incomplete` when a
 * shard confirmed rows, else the least certain of the shards' (`not-written` when none stored any).
 */
export function overallOutcome(shards: readonly ShardOutcome[]): InsertOutcome {
  if (shards.some((each) => each.status === 'written' && each.rowsWritten > 0)) return 'incomplete'
  const outcomes = shards.map((each) =>
    each.status === 'failed' || each.status === 'cancelled'
      ? (each.insertOutcome ??
        shardErrorOutcome(each.error) ??
        (each.rowsSent === 0 ? 'not-written' : 'unknown'))
      : 'not-written',
  )
  if (outcomes.includes('unknown')) return 'unknown'
  return outcomes.includes('incomplete') ? 'incomplete' : 'not-written'
}
