import { DialectAdapterBase, type Kysely, type MigrationLockOptions } from 'kysely'
import { acquireMigrationLock, releaseMigrationLock } from './migration-lock.js'

/**
 * What sets ClickHouse apart for Kysely: no RETURNING, no transactions (DDL included), and
 * a migration lock built on the one atomic operation ClickHouse has (see migration-lock.ts).
 */
export class ClickHouseAdapter extends DialectAdapterBase {
  readonly #lockTimeoutMs: number

  constructor(options: { readonly migrationLockTimeoutMs?: number | undefined } = {}) {
    super()
    this.#lockTimeoutMs = options.migrationLockTimeoutMs ?? 600_000
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
    await acquireMigrationLock(db, options, this.#lockTimeoutMs)
  }

  override async releaseMigrationLock(db: Kysely<unknown>, options: MigrationLockOptions): Promise<void> {
    await releaseMigrationLock(db, options)
  }
}
