import { type Client, UsageError } from '@clickwire/client'
import type { DatabaseConnection, Driver } from 'kysely'
import { ClickHouseConnection, type DialectState } from './clickhouse-connection.js'
import type { ClickHouseDialectConfig } from './clickhouse-dialect-config.js'
import { serverProfile } from './server-profile.js'

/** Why there is no transaction, for every way of asking for one. */
export const noTransactionsMessage =
  'ClickHouse has no multi-statement transactions, so Kysely transactions cannot be started: ' +
  'there is no BEGIN, COMMIT or ROLLBACK. Each statement stands alone (an INSERT writes each block atomically). ' +
  'Run the statements one after another; for all-or-nothing loads, insert into a staging table and swap it in with RENAME TABLE.'

/**
 * Kysely's driver over a clickwire client. The client owns the sockets and the pool, so
 * acquiring a connection costs nothing; `init` learns the server version (unless the config
 * gives it) so that SQL is compiled for what that server accepts.
 */
export class ClickHouseDriver implements Driver {
  readonly #config: ClickHouseDialectConfig
  readonly #state: DialectState
  #client: Client | undefined

  constructor(config: ClickHouseDialectConfig, state: DialectState) {
    this.#config = config
    this.#state = state
  }

  async init(): Promise<void> {
    const { client } = this.#config
    this.#client = typeof client === 'function' ? await client() : client
    if (this.#config.serverVersion === undefined) {
      const info = await this.#client.serverInfo()
      this.#state.profile = serverProfile(info.version)
    }
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.#client) throw new UsageError('the ClickHouse driver is not initialized (or was destroyed)')
    return new ClickHouseConnection(this.#client, this.#state, this.#config)
  }

  async beginTransaction(): Promise<void> {
    throw new UsageError(noTransactionsMessage)
  }

  async commitTransaction(): Promise<void> {
    throw new UsageError(noTransactionsMessage)
  }

  async rollbackTransaction(): Promise<void> {
    throw new UsageError(noTransactionsMessage)
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    const client = this.#client
    this.#client = undefined
    if (client && this.#config.closeClient !== false) await client.close()
  }
}
