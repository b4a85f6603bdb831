import { createHttpTransport } from '@clickwire/http'
import type { Transport } from '@clickwire/protocol'
import type { ResolvedClientOptions } from './client-options.js'
import { FailoverTransport } from './failover-transport.js'

/**
 * The HTTP transport for resolved client options: one per host, behind a
 * FailoverTransport when there are several. `@clickwire/http` resolves to its fetch
 * entry in browsers and to its undici entry in Node.
 */
export function httpTransportFor(options: ResolvedClientOptions): Transport {
  const scheme = options.secure ? 'https' : 'http'
  const mapping = { int64: options.int64, dates: options.dates, decimal: options.decimal }
  const transports = options.endpoints.map(({ host, port }) =>
    createHttpTransport({
      url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${options.httpPath}`,
      username: options.username,
      password: options.password,
      database: options.database,
      settings: options.settings,
      auth: options.auth,
      headerPrefix: options.headerPrefix,
      sessionId: options.sessionId,
      roles: options.roles,
      fetch: options.fetch,
      connectTimeoutMs: options.connectTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs,
      receiveTimeoutMs: options.receiveTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs,
      maxConnections: options.maxConnections,
      compression: options.compression,
      tls: options.tls,
      mapping,
    }),
  )
  return transports.length === 1
    ? transports[0]!
    : new FailoverTransport(transports, options.hostStrategy ?? 'in-order', options.hostCooldownMs ?? 30_000)
}
