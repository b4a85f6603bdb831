import { ClickHouseError, ClickwireError, TimeoutError } from '@clickwire/client'
import { type Kysely, type MigrationLockOptions, sql } from 'kysely'
import { ClickHouseConnection } from './clickhouse-connection.js'

/*
 * The migration lock. ClickHouse has no transactions, row locks or advisory locks, but it
 * does have one atomic test-and-set: CREATE TABLE without IF NOT EXISTS. The server holds a
 * DDL guard per table name while creating, so of two concurrent CREATEs exactly one succeeds
 * and the other fails with TABLE_ALREADY_EXISTS (57) or DDL_GUARD_IS_ACTIVE (473)
 * (Context::getDDLGuardIfTableDoesntExist, InterpreterCreateQuery::createTable). The lock is
 * the existence of the table `<lockTable>_holder`; its one row names the holder, for people
 * looking at a stuck lock. Releasing drops the table.
 *
 * This holds on one server (or one database shared by all runners). A runner that dies
 * while holding the lock leaves the table behind: the next runner waits
 * `migrationLockTimeoutMs`, then fails with a message saying which table to drop.
 */

/** TABLE_ALREADY_EXISTS, DDL_GUARD_IS_ACTIVE: the lock table is there, or being created. */
export const heldCodes: ReadonlySet<number> = new Set([57, 473])

/** The Kysely connection a migrator runs on, which is ours. */
export async function migrationConnection(db: Kysely<unknown>): Promise<ClickHouseConnection | undefined> {
  let found: ClickHouseConnection | undefined
  await db.getExecutor().provideConnection(async (connection) => {
    if (connection instanceof ClickHouseConnection) found = connection
  })
  return found
}

function lockTableRef(options: MigrationLockOptions) {
  const name = `${options.lockTable}_holder`
  return options.lockTableSchema ? sql.id(options.lockTableSchema, name) : sql.id(name)
}

/** A wait between two tries of a held lock. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** The lock a migration run holds, with what it changed on the connection. */
export interface HeldMigrationLock {
  readonly holder: string
  readonly connection: ClickHouseConnection | undefined
  readonly previousWait: boolean
}

const held = new WeakMap<object, HeldMigrationLock>()

/**
 * Records the lock `holder` took on `db`. Migrations wait for their mutations (the migration
 * table's own DELETE on the way down included), so that each step sees the effect of the
 * one before.
 */
export async function rememberLock(db: Kysely<unknown>, holder: string): Promise<void> {
  const connection = await migrationConnection(db)
  held.set(db, { holder, connection, previousWait: connection?.waitForMutations ?? false })
  if (connection) connection.waitForMutations = true
}

/** The lock this runner holds on `db`, if any, forgotten, with the connection as it was. */
export function forgetLock(db: Kysely<unknown>): HeldMigrationLock | undefined {
  const lock = held.get(db)
  held.delete(db)
  if (lock?.connection) lock.connection.waitForMutations = lock.previousWait
  return lock
}

/** Takes the migration lock, waiting up to `timeoutMs` for another runner to finish. */
export async function acquireMigrationLock(
  db: Kysely<unknown>,
  options: MigrationLockOptions,
  timeoutMs: number,
): Promise<void> {
  const table = lockTableRef(options)
  const holder = globalThis.crypto.randomUUID()
  const deadline = Date.now() + timeoutMs
  let delay = 50
  for (;;) {
    try {
      await sql`CREATE TABLE ${table} (holder String, acquired_at DateTime) ENGINE = TinyLog`.execute(db)
      break
    } catch (error) {
      if (!(ClickHouseError.isInstance(error) && heldCodes.has(error.code))) throw error
    }
    if (Date.now() >= deadline) {
      const rows = await sql<{
        holder: string
        acquired_at: unknown
      }>`SELECT holder, acquired_at FROM ${table}`
        .execute(db)
        .then((result) => result.rows)
        .catch(() => [])
      const who = rows[0] ? `held by ${rows[0].holder} since ${String(rows[0].acquired_at)}` : 'held'
      throw new TimeoutError(
        'migration lock',
        timeoutMs,
        `the migration lock (table ${options.lockTable}_holder) is ${who}; another migrator is running, ` +
          `or one died holding it: if none runs, DROP TABLE ${options.lockTable}_holder`,
      )
    }
    await pause(delay)
    delay = Math.min(delay * 2, 1000)
  }
  await sql`INSERT INTO ${table} (holder, acquired_at) SELECT ${holder}, now()`.execute(db)
  await rememberLock(db, holder)
}

/** Releases the lock this runner holds. */
export async function releaseMigrationLock(
  db: Kysely<unknown>,
  options: MigrationLockOptions,
): Promise<void> {
  const lock = forgetLock(db)
  if (!lock) return
  const table = lockTableRef(options)
  const { rows } = await sql<{ holder: string }>`SELECT holder FROM ${table}`.execute(db)
  if (rows.length > 0 && rows[0]?.holder !== lock.holder) {
    throw new ClickwireError(
      'MIGRATION_LOCK',
      `the migration lock ${options.lockTable}_holder belongs to ${rows[0]?.holder}, not to this runner: it was dropped and taken while migrations ran`,
    )
  }
  await sql`DROP TABLE ${table}`.execute(db)
}
