import { freePorts } from '@clickwire/testing'
import { inject } from 'vitest'
import { type ClientOptions, createClient } from '../../src/index.js'

/** Both transports: every client test runs once per transport with the same expectations. */
export const transports = ['native', 'http'] as const
export type TransportName = (typeof transports)[number]

const server = inject('clickhouse')

/** The shared test server's URL for a transport. */
export function urlFor(transport: TransportName): string {
  return transport === 'native' ? server.nativeUrl : server.httpUrl
}

/** A client of the shared test server over `transport`. */
export function clientFor(transport: TransportName, options: Omit<ClientOptions, 'url'> = {}) {
  return createClient({ url: urlFor(transport), ...options })
}

/** `host:port` of the shared server for a transport. */
export function endpointFor(transport: TransportName): string {
  return `${server.host}:${transport === 'native' ? server.ports.tcp : server.ports.http}`
}

/** A loopback port nothing listens on (a dead host for failover tests). */
export async function deadPort(): Promise<number> {
  const [port] = await freePorts(1)
  return port!
}

/** A table name no other test (or transport) uses. */
export function uniqueTable(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
}

export { server }

/** The error `run` rejects with; fails the test when it resolves instead. */
export async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run()
  } catch (error) {
    return error
  }
  throw new Error('expected a failure')
}
