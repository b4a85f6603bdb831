import type { Client } from '@clickwire/client'
import type { DeleteStatement, UpdateStatement } from './clickhouse-query-compiler.js'

/** How long and how often to wait for mutations (see {@link ClickHouseDialectConfig.waitForMutations}). */
export interface MutationWaitOptions {
  /** Give up after this long (default 300 000 ms): a TimeoutError; the mutation keeps running. */
  readonly timeoutMs?: number | undefined
  /** First pause between checks of `system.mutations` (default 25 ms, doubling up to 1 s). */
  readonly pollMs?: number | undefined
}

/** Configuration of {@link ClickHouseDialect}. */
export interface ClickHouseDialectConfig {
  /**
   * The clickwire client to run queries on (native or HTTP), or a function that creates it
   * on first use. `db.destroy()` closes it unless `closeClient` is false.
   */
  readonly client: Client | (() => Client | Promise<Client>)
  /**
   * The server version (`SELECT version()`), when known in advance. Otherwise the driver asks
   * the server on first use; queries compiled before that assume a current server and are
   * compiled again for the real one when they run.
   */
  readonly serverVersion?: string | undefined
  /**
   * How `deleteFrom` compiles: `auto` (default) uses lightweight `DELETE FROM` where the
   * server has it (23.3+) and an `ALTER TABLE ... DELETE` mutation before; `mutation` always
   * uses the ALTER form; `lightweight` always the DELETE form.
   */
  readonly deleteStatement?: DeleteStatement | undefined
  /**
   * How `updateTable` compiles: `mutation` (default) always uses `ALTER TABLE ... UPDATE`;
   * `auto` uses lightweight `UPDATE t SET ... WHERE ...` where the server has it (25.8+) and
   * the mutation before; `lightweight` always the UPDATE form. A lightweight update runs only
   * on tables created with `SETTINGS enable_block_number_column = 1, enable_block_offset_column = 1`
   * (others get NOT_IMPLEMENTED), and its rows have changed when it returns.
   */
  readonly updateStatement?: UpdateStatement | undefined
  /**
   * Mutations (`updateTable`, `deleteFrom`) are asynchronous on the server: the statement
   * returns once the mutation is queued, and rows change as parts are rewritten. With this
   * set, `execute()` returns only when no mutation of the table is pending in
   * `system.mutations` (like `mutations_sync = 1`, which servers before 20.1 lack). Migrations
   * always wait. Default false.
   */
  readonly waitForMutations?: boolean | MutationWaitOptions | undefined
  /**
   * Send `insertInto(t).values(rows)` with plain values through `client.insert` as Native
   * blocks (default true). Inserts with expressions, `INSERT ... SELECT` and CTEs always go as SQL.
   */
  readonly columnarInserts?: boolean | undefined
  /** Whether `db.destroy()` closes the client (default true, as Kysely's dialects end their pools). */
  readonly closeClient?: boolean | undefined
  /** How long a migrator waits for another one's lock before failing (default 600 000 ms). */
  readonly migrationLockTimeoutMs?: number | undefined
  /**
   * Run the schema builder's DDL on this cluster (a cluster of the servers' `remote_servers`
   * config): every `db.schema` statement (CREATE/DROP/ALTER/RENAME TABLE, views, databases)
   * carries `ON CLUSTER <name>`, so each node executes it from the ZooKeeper DDL queue. The
   * Migrator's tables become ReplicatedMergeTree tables replicated to every node (ZooKeeper
   * path `/clickhouse/kysely/<cluster>/{database}/<table>`, replica `{shard}-{replica}`, so
   * the servers need the `shard` and `replica` macros), and the migration lock is taken on
   * the whole cluster: two migrators on any two nodes never run at once.
   *
   * Raw `sql` statements are sent as written: that is the way to run one statement on the
   * connected node only. Tables created without an engine stay plain MergeTree tables on
   * each node; give replicated ones their engine with `modifyEnd`.
   */
  readonly cluster?: string | undefined
}
