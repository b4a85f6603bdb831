import { type Client, UsageError } from '@clickwire/client'
import { Kysely } from 'kysely'
import { describe, expect, it, vi } from 'vitest'
import { type DB, unusedClient } from '../test/support/compile-fixtures.js'
import { ClickHouseAdapter } from './clickhouse-adapter.js'
import { ClickHouseDialect } from './clickhouse-dialect.js'
import { noTransactionsMessage } from './clickhouse-driver.js'

function closableClient() {
  const close = vi.fn(async () => {})
  return {
    client: new Proxy(unusedClient, {
      get: (target, key) => (key === 'close' ? close : Reflect.get(target, key)),
    }) as Client,
    close,
  }
}

describe('ClickHouseDialect', () => {
  it('refuses transactions, saying why', async () => {
    const db = new Kysely<DB>({
      dialect: new ClickHouseDialect({ client: unusedClient, serverVersion: '18.16.1' }),
    })
    const attempt = db.transaction().execute(async () => 1)
    await expect(attempt).rejects.toSatisfy(UsageError.isInstance)
    await expect(attempt).rejects.toThrow(noTransactionsMessage)
    expect(noTransactionsMessage).toMatch(/^ClickHouse has no multi-statement transactions/)
  })

  it('has no RETURNING and no transactional DDL', () => {
    const adapter = new ClickHouseAdapter()
    expect([
      adapter.supportsReturning,
      adapter.supportsTransactionalDdl,
      adapter.supportsCreateIfNotExists,
    ]).toEqual([false, false, true])
  })

  it('closes the client on destroy unless told not to; creates it lazily from a function', async () => {
    const owned = closableClient()
    const db = new Kysely<DB>({
      dialect: new ClickHouseDialect({ client: () => owned.client, serverVersion: '18.16.1' }),
    })
    await db.connection().execute(async () => {})
    await db.destroy()
    expect(owned.close).toHaveBeenCalledTimes(1)
    const shared = closableClient()
    const kept = new Kysely<DB>({
      dialect: new ClickHouseDialect({ client: shared.client, serverVersion: '18.16.1', closeClient: false }),
    })
    await kept.connection().execute(async () => {})
    await kept.destroy()
    expect(shared.close).not.toHaveBeenCalled()
  })
})
