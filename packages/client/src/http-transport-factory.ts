import { createHttpTransport } from '@clickwire/http'
import type { Transport } from '@clickwire/protocol'
import { ClientLog } from './client-logger.js'
import type { Endpoint, ResolvedClientOptions } from './client-options.js'
import { type DiscoveryGate, discoveryGate, resolveDiscovery } from './cluster-discovery-options.js'
import { FailoverTransport } from './failover-transport.js'
import { hostHealthLog } from './host-health-log.js'
import { chooseSimpleRequests } from './simple-requests.js'

/**
 * The HTTP transport for resolved client options: one per host, behind a
 * FailoverTransport when there are several (or when the hosts are a cluster's, discovered).
 * `@clickwire/http` resolves to its fetch entry in browsers and to its node:http entry in
 * Node. `pageOrigin` is the page's origin where CORS applies (the browser entry's), which
 * picks simple requests (simple-requests.ts).
 */
export function httpTransportFor(options: ResolvedClientOptions, pageOrigin?: string): Transport {
  const scheme = options.secure ? 'https' : 'http'
  const simpleRequests = chooseSimpleRequests(options, pageOrigin)
  const mapping = { int64: options.int64, dates: options.dates, decimal: options.decimal }
  const endpointTransport = ({ host, port }: Endpoint) =>
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
      sessionTimeoutSeconds: options.sessionTimeoutSeconds,
      roles: options.roles,
      fetch: options.fetch,
      simpleRequests,
      connectTimeoutMs: options.connectTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs,
      receiveTimeoutMs: options.receiveTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs,
      // A session's requests run one at a time: the server refuses a second one while one
      // runs (SESSION_IS_LOCKED), so they wait here in call order instead.
      maxConnections: options.sessionId !== undefined ? 1 : options.maxConnections,
      acquireTimeoutMs: options.acquireTimeoutMs,
      compression: options.compression,
      tls: options.tls,
      maxBlockBytes: options.maxBlockBytes,
      protocolRevision: options.protocolRevision,
      mapping,
    })
  const discovery = resolveDiscovery(options.discoverCluster)
  if (options.endpoints.length === 1 && !discovery) return endpointTransport(options.endpoints[0]!)
  const endpoints = new Map<Transport, Endpoint>()
  const make = (endpoint: Endpoint) => {
    const transport = endpointTransport(endpoint)
    endpoints.set(transport, endpoint)
    return transport
  }
  const log = new ClientLog(options.logger, options.logLevel, options.password)
  const cooldownMs = options.hostCooldownMs ?? 30_000
  let gate: DiscoveryGate | undefined
  const failover = new FailoverTransport(
    options.endpoints.map(make),
    options.hostStrategy ?? 'in-order',
    cooldownMs,
    undefined,
    hostHealthLog(
      log,
      (transport) => endpoints.get(transport),
      cooldownMs,
      () => gate?.hostSetAside(),
    ),
  )
  if (!discovery) return failover
  gate = discoveryGate(
    discovery,
    {
      current: () => failover.transports.map((transport) => endpoints.get(transport)!),
      apply: (next) =>
        failover.setTransports(
          next.map(
            (endpoint) =>
              [...endpoints].find(
                ([transport, known]) =>
                  known.host === endpoint.host &&
                  known.port === endpoint.port &&
                  failover.transports.includes(transport),
              )?.[0] ?? make(endpoint),
          ),
        ),
      probe: endpointTransport,
    },
    'http',
    options.secure,
    log,
    options.requestTimeoutMs,
  )
  failover.gate = gate
  return failover
}
