import type { DatabaseIntrospector, Dialect, DialectAdapter, Driver, Kysely, QueryCompiler } from 'kysely'
import { ClickHouseAdapter } from './clickhouse-adapter.js'
import type { DialectState } from './clickhouse-connection.js'
import type { ClickHouseDialectConfig } from './clickhouse-dialect-config.js'
import { ClickHouseDriver } from './clickhouse-driver.js'
import { ClickHouseIntrospector } from './clickhouse-introspector.js'
import { ClickHouseQueryCompiler } from './clickhouse-query-compiler.js'
import { currentServerProfile, serverProfile } from './server-profile.js'

/**
 * A Kysely dialect for ClickHouse over a clickwire client (native TCP or HTTP).
 *
 * @example
 * ```ts
 * import { createClient } from '@clickwire/client'
 * import { ClickHouseDialect, final } from '@clickwire/kysely'
 * import { Kysely } from 'kysely'
 *
 * interface DB {
 *   events: { id: string; user_id: number; name: string; at: string }
 * }
 *
 * const db = new Kysely<DB>({
 *   dialect: new ClickHouseDialect({ client: createClient('clickhouse://default:@127.0.0.1:9000/default') }),
 * })
 * const rows = await db.selectFrom('events').$call(final()).select(['name']).where('user_id', '=', 42).execute()
 * // select `name` from `events` final where `user_id` = {p0:Int64}
 * await db.destroy()
 * ```
 */
export class ClickHouseDialect implements Dialect {
  readonly #config: ClickHouseDialectConfig
  readonly #state: DialectState

  constructor(config: ClickHouseDialectConfig) {
    this.#config = config
    this.#state = {
      profile:
        config.serverVersion === undefined ? currentServerProfile : serverProfile(config.serverVersion),
    }
  }

  createDriver(): Driver {
    return new ClickHouseDriver(this.#config, this.#state)
  }

  createQueryCompiler(): QueryCompiler {
    return new ClickHouseQueryCompiler({
      profile: () => this.#state.profile,
      deleteStatement: this.#config.deleteStatement,
      updateStatement: this.#config.updateStatement,
      cluster: this.#config.cluster,
    })
  }

  createAdapter(): DialectAdapter {
    return new ClickHouseAdapter({
      migrationLockTimeoutMs: this.#config.migrationLockTimeoutMs,
      cluster: this.#config.cluster,
    })
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's Dialect interface takes Kysely<any>.
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new ClickHouseIntrospector(db)
  }
}
