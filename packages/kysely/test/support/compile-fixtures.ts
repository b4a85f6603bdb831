import type { Client } from '@clickwire/client'
import type { Generated } from 'kysely'
import { Kysely } from 'kysely'
import { ClickHouseDialect, type ClickHouseDialectConfig } from '../../src/index.js'

/*
 * Shared by the unit tests and the modern-server test. A hand-written `DB` interface in the
 * shape `clickwire-codegen` produces: one interface per table, ClickHouse types as their JS
 * runtime values with the client's default mapping (UInt64/Int64 as bigint, Date and DateTime
 * as ClickHouse's text, Tuple as an array ...).
 */

export interface Users {
  id: number
  name: string
  email: string
  tags: string[]
  scores: number[]
  /** DateTime: ClickHouse's text by default (the client's `dates: 'string'`). */
  created: string
}

export interface Events {
  event_id: Generated<bigint>
  user_id: number
  kind: string
  value: number
  day: string
  props: string[]
  point: [number, number]
}

export interface Accounts {
  id: number
  balance: number
  version: number
}

export interface DB {
  users: Users
  events: Events
  accounts: Accounts
  'analytics.hits': { url: string; counter_id: number; hits: bigint }
}

/** A client stand-in for compile-only tests: any call means a test compiled where it should not run. */
export const unusedClient = new Proxy({} as Client, {
  get(_, property) {
    if (property === 'then') return undefined
    return () => {
      throw new Error(`compile-only test called client.${String(property)}`)
    }
  },
})

/** A Kysely that compiles for `serverVersion` (default 18.16.1, the server these tests run on). */
export function compileDb(
  serverVersion = '18.16.1',
  config: Omit<ClickHouseDialectConfig, 'client' | 'serverVersion'> = {},
): Kysely<DB> {
  return new Kysely<DB>({
    dialect: new ClickHouseDialect({ client: unusedClient, serverVersion, ...config }),
  })
}

/** A current server's version, for the forms old servers lack. */
export const modern = '25.8.1'
