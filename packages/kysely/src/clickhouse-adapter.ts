import { DialectAdapterBase, type Kysely, type MigrationLockOptions } from 'kysely'
import { acquireClusterMigrationLock, releaseClusterMigrationLock } from './cluster-migration-lock.js'
import { acquireMigrationLock, releaseMigrationLock } from './migration-lock.js'

/**
 * What sets ClickHouse apart for Kysely: no RETURNING, no transactions (DDL included), and
 * a migration lock built on the one atomic operation ClickHouse has (see migration-lock.ts),
 * taken on the whole cluster when the dialect has one (cluster-migration-lock.ts).
 */
export class ClickHouseAdapter extends DialectAdapterBase {
  readonly #lockTimeoutMs: number
  readonly #cluster: string | undefined

  constructor(
    options: {
      readonly migrationLockTimeoutMs?: number | undefined
      readonly cluster?: string | undefined
    } = {},
  ) {
    super()
    this.#lockTimeoutMs = options.migrationLockTimeoutMs ?? 600_000
    this.#cluster = options.cluster
  }

  override get supportsCreateIfNotExists(): boolean {
    return true
  }

  override get supportsTransactionalDdl(): boolean {
    return false
  }

  override get supportsReturning(): boolean {
    return false
  }

  override async acquireMigrationLock(db: Kysely<unknown>, options: MigrationLockOptions): Promise<void> {
    if (this.#cluster === undefined) await acquireMigrationLock(db, options, this.#lockTimeoutMs)
    else await acquireClusterMigrationLock(db, options, this.#lockTimeoutMs, this.#cluster)
  }

  override async releaseMigrationLock(db: Kysely<unknown>, options: MigrationLockOptions): Promise<void> {
    if (this.#cluster === undefined) await releaseMigrationLock(db, options)
    else await releaseClusterMigrationLock(db, options, this.#cluster)
  }
}
