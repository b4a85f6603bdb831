import { createHttpTransport } from '@clickwire/http'
import type { Transport } from '@clickwire/protocol'
import { ClientLog, errorContext } from './client-logger.js'
import type { ResolvedClientOptions } from './client-options.js'
import { FailoverTransport } from './failover-transport.js'
import { chooseSimpleRequests } from './simple-requests.js'

/**
 * The HTTP transport for resolved client options: one per host, behind a
 * FailoverTransport when there are several. `@clickwire/http` resolves to its fetch
 * entry in browsers and to its undici entry in Node. `pageOrigin` is the page's origin
 * where CORS applies (the browser entry's), which picks simple requests (simple-requests.ts).
 */
export function httpTransportFor(options: ResolvedClientOptions, pageOrigin?: string): Transport {
  const scheme = options.secure ? 'https' : 'http'
  const simpleRequests = chooseSimpleRequests(options, pageOrigin)
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
      headers: options.httpHeaders,
      sessionId: options.sessionId,
      roles: options.roles,
      fetch: options.fetch,
      simpleRequests,
      connectTimeoutMs: options.connectTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs,
      receiveTimeoutMs: options.receiveTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs,
      maxConnections: options.maxConnections,
      acquireTimeoutMs: options.acquireTimeoutMs,
      compression: options.compression,
      tls: options.tls,
      mapping,
    }),
  )
  return transports.length === 1
    ? transports[0]!
    : new FailoverTransport(
        transports,
        options.hostStrategy ?? 'in-order',
        options.hostCooldownMs ?? 30_000,
        undefined,
        failoverLog(options),
      )
}

/** Logs each host set aside (warn): which one, and why. */
function failoverLog(options: ResolvedClientOptions): (index: number, error: unknown) => void {
  const log = new ClientLog(options.logger, options.logLevel, options.password)
  return (index, error) => {
    const host = options.endpoints[index]
    log.warn('host unreachable, trying the next', {
      host: host ? `${host.host}:${host.port}` : undefined,
      ...errorContext(error),
    })
  }
}
