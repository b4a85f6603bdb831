import { ClickHouseError, ClickwireError, TimeoutError } from '@clickwire/client'
import { type Kysely, type MigrationLockOptions, sql } from 'kysely'
import { migratorZooKeeperPrefix } from './cluster-table-engines.js'
import { forgetLock, heldCodes, migrationConnection, pause, rememberLock } from './migration-lock.js'

/*
 * The migration lock on a cluster: the table `<lockTable>_holder`, created and dropped with
 * ON CLUSTER. Why this excludes across nodes:
 *
 * - An ON CLUSTER statement is one entry of ZooKeeper's distributed DDL queue, a sequential
 *   znode: the queue has one order, and every host executes the entries in that order, one
 *   at a time (DDLWorker). The holder table is a TinyLog table, which every host creates
 *   itself (no replica elects a leader for it), and nothing else touches it.
 * - So every host sees the same sequence of CREATEs and DROPs of the table and gives each
 *   entry the same outcome. Of two CREATEs with no DROP between them, the first creates the
 *   table on every host and the second fails on every host with TABLE_ALREADY_EXISTS (57),
 *   which the initiator reports as code 57 ("There was an error on [host:port]: ...").
 *   Two migrators on two nodes therefore never both succeed: the lock is held from the
 *   entry that created the table to the entry that drops it.
 * - The initiator waits for the hosts up to `distributed_ddl_task_timeout`, then fails with
 *   TIMEOUT_EXCEEDED (159, "Watching task <path> is executing longer than ..."); the entry
 *   stays queued and runs later. Its outcome is then read from ZooKeeper: each host that
 *   ran it writes its status (`0` or `<code>\n<message>`) under `<path>/finished`, and since
 *   all hosts agree, the first status decides. A timeout of 0 makes the server return at
 *   once without any outcome, so the lock's statements set their own (at most the time
 *   left to wait for the lock).
 *
 * Who holds the lock is part of the table's definition (column defaults), so every node shows
 * it in system.columns, with no replication needed. The Migrator's history tables are
 * ReplicatedMergeTree (cluster-table-engines.ts); a replica applies what others wrote
 * asynchronously, so right after taking the lock this node syncs them: whatever the previous
 * holder wrote reached ZooKeeper before its DROP entry, hence before our CREATE entry.
 */

/** TIMEOUT_EXCEEDED: the initiator stopped waiting for the hosts to run a DDL entry. */
const ddlTimeoutCode = 159
const taskPattern = /Watching task (\S+) is executing longer than distributed_ddl_task_timeout/

/** How long a lock request whose initiator stopped waiting may still take to show its outcome. */
const outcomeGraceMs = 30_000

/**
 * Runs a DDL statement of the lock with its own `distributed_ddl_task_timeout` (seconds):
 * never 0, which would return before any node ran it.
 */
async function lockDdl(
  db: Kysely<unknown>,
  statement: ReturnType<typeof sql>,
  seconds: number,
): Promise<void> {
  const connection = await migrationConnection(db)
  if (!connection) {
    await statement.execute(db)
    return
  }
  const { sql: text, parameters } = statement.compile(db)
  if (parameters.length > 0)
    throw new ClickwireError('MIGRATION_LOCK', 'a lock statement takes no parameters')
  await connection.client.command(text, { settings: { distributed_ddl_task_timeout: seconds } })
}

function secondsLeft(deadline: number): number {
  return Math.min(180, Math.max(1, Math.ceil((deadline - Date.now()) / 1000)))
}

interface LockTable {
  readonly database: string
  readonly name: string
  readonly ref: ReturnType<typeof sql.id>
}

async function lockTableOf(db: Kysely<unknown>, options: MigrationLockOptions): Promise<LockTable> {
  const name = `${options.lockTable}_holder`
  const database =
    options.lockTableSchema ??
    (await sql<{ db: string }>`SELECT currentDatabase() AS db`.execute(db)).rows[0]!.db
  return { database, name, ref: sql.id(database, name) }
}

/** The holder and time written into the lock table's column defaults, as this node sees them. */
async function currentHolder(
  db: Kysely<unknown>,
  table: LockTable,
): Promise<{ holder: string; since: string } | undefined> {
  const { rows } = await sql<{ name: string; value: string }>`
    SELECT name, default_expression AS value FROM system.columns
    WHERE database = ${table.database} AND table = ${table.name}`.execute(db)
  const read = (column: string) => {
    const value = rows.find((row) => row.name === column)?.value
    return value?.startsWith("'") ? value.slice(1, -1) : value
  }
  const holder = read('holder')
  return holder === undefined ? undefined : { holder, since: read('acquired_at') ?? '?' }
}

/**
 * What a distributed DDL entry the initiator stopped waiting for did: the error code of the
 * first host that ran it (0: success), waiting for one until `deadline`.
 */
async function entryOutcome(
  db: Kysely<unknown>,
  task: string,
  deadline: number,
): Promise<number | undefined> {
  let delay = 100
  for (;;) {
    const { rows } = await sql<{ value: string }>`
      SELECT value FROM system.zookeeper WHERE path = ${`${task}/finished`}`.execute(db)
    const first = rows[0]
    if (first) return Number.parseInt(first.value, 10)
    if (Date.now() >= deadline) return undefined
    await pause(delay)
    delay = Math.min(delay * 2, 1000)
  }
}

/** Takes the lock on the whole cluster, waiting up to `timeoutMs` for another runner to finish. */
export async function acquireClusterMigrationLock(
  db: Kysely<unknown>,
  options: MigrationLockOptions,
  timeoutMs: number,
  cluster: string,
): Promise<void> {
  const table = await lockTableOf(db, options)
  const holder = globalThis.crypto.randomUUID()
  const deadline = Date.now() + timeoutMs
  const dropHint = `DROP TABLE ${table.database}.${table.name} ON CLUSTER ${cluster}`
  let delay = 50
  for (;;) {
    let code = 0
    let task: string | undefined
    try {
      await lockDdl(
        db,
        sql`CREATE TABLE ${table.ref} ON CLUSTER ${sql.id(cluster)} (
          holder String DEFAULT ${sql.lit(holder)},
          acquired_at String DEFAULT ${sql.lit(new Date().toISOString())}
        ) ENGINE = TinyLog`,
        secondsLeft(deadline),
      )
    } catch (error) {
      if (!ClickHouseError.isInstance(error)) throw error
      code = error.code
      task = code === ddlTimeoutCode ? taskPattern.exec(error.message)?.[1] : undefined
      if (task !== undefined) {
        const outcome = await entryOutcome(db, task, Math.max(deadline, Date.now() + outcomeGraceMs))
        if (outcome === undefined) {
          throw new TimeoutError(
            'migration lock',
            timeoutMs,
            `the migration lock request ${task} has not run on any node of cluster ${cluster} yet: ` +
              `it stays queued and takes the lock (table ${table.name}) when the nodes run it; ` +
              `if no migrator runs then, ${dropHint}`,
            { cause: error },
          )
        }
        code = outcome
      } else if (!heldCodes.has(code)) {
        throw error
      }
    }
    if (code === 0 && task !== undefined) {
      await awaitLocalEntry(
        db,
        table,
        holder,
        Math.max(deadline, Date.now() + outcomeGraceMs),
        timeoutMs,
        cluster,
      )
      break
    }
    if (code === 0) break
    if (!heldCodes.has(code)) {
      throw new ClickwireError(
        'MIGRATION_LOCK',
        `the migration lock request failed on cluster ${cluster} with code ${code}`,
      )
    }
    if (Date.now() >= deadline) {
      const current = await currentHolder(db, table).catch(() => undefined)
      const who = current ? `held by ${current.holder} since ${current.since}` : 'held'
      throw new TimeoutError(
        'migration lock',
        timeoutMs,
        `the migration lock (table ${table.name} on cluster ${cluster}) is ${who}; another migrator is running, ` +
          `or one died holding it: if none runs, ${dropHint}`,
      )
    }
    await pause(delay)
    delay = Math.min(delay * 2, 1000)
  }
  await rememberLock(db, holder)
  await syncMigratorTables(db, table.database, cluster)
}

/**
 * Waits for this node to run the entry that took the lock, when the initiator stopped
 * waiting for it: until then this node may lack DDL that came before it in the queue (the
 * previous holder's migrations), and shows the previous holder's table. On giving up, the
 * lock is released again.
 */
async function awaitLocalEntry(
  db: Kysely<unknown>,
  table: LockTable,
  holder: string,
  deadline: number,
  timeoutMs: number,
  cluster: string,
): Promise<void> {
  let delay = 50
  while ((await currentHolder(db, table))?.holder !== holder) {
    if (Date.now() >= deadline) {
      await dropLockTable(db, table, cluster)
      throw new TimeoutError(
        'migration lock',
        timeoutMs,
        `the migration lock was taken on cluster ${cluster}, but this node has not run the lock's DDL entry yet ` +
          '(its distributed DDL queue lags); the lock was released again',
      )
    }
    await pause(delay)
    delay = Math.min(delay * 2, 1000)
  }
}

async function dropLockTable(db: Kysely<unknown>, table: LockTable, cluster: string): Promise<void> {
  try {
    await lockDdl(db, sql`DROP TABLE ${table.ref} ON CLUSTER ${sql.id(cluster)}`, 60)
  } catch (error) {
    // A node that does not answer in time drops the table when it runs the queued entry,
    // after every entry before it: the lock is released in the queue's order all the same.
    if (!(ClickHouseError.isInstance(error) && error.code === ddlTimeoutCode)) throw error
  }
}

/** Brings this node's replicas of the Migrator tables up to date with ZooKeeper's log. */
async function syncMigratorTables(db: Kysely<unknown>, database: string, cluster: string): Promise<void> {
  const prefix = migratorZooKeeperPrefix(cluster)
  const { rows } = await sql<{ table: string }>`
    SELECT table FROM system.replicas
    WHERE database = ${database} AND substring(zookeeper_path, 1, length(${prefix})) = ${prefix}`.execute(db)
  for (const { table } of rows) await sql`SYSTEM SYNC REPLICA ${sql.id(database, table)}`.execute(db)
}

/** Releases the lock this runner holds on the cluster. */
export async function releaseClusterMigrationLock(
  db: Kysely<unknown>,
  options: MigrationLockOptions,
  cluster: string,
): Promise<void> {
  const lock = forgetLock(db)
  if (!lock) return
  const table = await lockTableOf(db, options)
  const current = await currentHolder(db, table)
  if (current && current.holder !== lock.holder) {
    throw new ClickwireError(
      'MIGRATION_LOCK',
      `the migration lock ${table.name} belongs to ${current.holder}, not to this runner: it was dropped and taken while migrations ran`,
    )
  }
  await dropLockTable(db, table, cluster)
}
