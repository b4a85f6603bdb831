import { type Client, type ClientOptions, createClient } from '@clickwire/client'
import { Kysely, type KyselyConfig } from 'kysely'
import { inject } from 'vitest'
import { ClickHouseDialect, type ClickHouseDialectConfig } from '../../src/index.js'

/** Every app-level test runs once per transport with the same expectations. */
export const transports = ['native', 'http'] as const
export type TransportName = (typeof transports)[number]

export const server = inject('clickhouse')

/** The shared test server's URL for a transport. */
export function urlFor(transport: TransportName): string {
  return transport === 'native' ? server.nativeUrl : server.httpUrl
}

export function clientFor(transport: TransportName, options: Omit<ClientOptions, 'url'> = {}): Client {
  return createClient({ url: urlFor(transport), ...options })
}

/** A Kysely instance over a fresh client of `transport`; `db.destroy()` closes the client. */
export function kyselyFor<DB>(
  transport: TransportName,
  dialect: Omit<ClickHouseDialectConfig, 'client'> = {},
  options: { client?: Omit<ClientOptions, 'url'>; kysely?: Omit<KyselyConfig, 'dialect'> } = {},
): Kysely<DB> {
  return new Kysely<DB>({
    ...options.kysely,
    dialect: new ClickHouseDialect({ client: clientFor(transport, options.client), ...dialect }),
  })
}
