import { createNativeTransport, type HostAddress } from '@clickwire/native'
import type { Transport } from '@clickwire/protocol'
import { ClientLog } from './client-logger.js'
import type { ResolvedClientOptions } from './client-options.js'
import { type DiscoveryGate, discoveryGate, resolveDiscovery } from './cluster-discovery-options.js'
import { ClusterDiscoveryTransport } from './cluster-discovery-transport.js'
import { hostHealthLog } from './host-health-log.js'

/** The native TCP transport for resolved client options (Node's sockets, or Workers' through `#socket-channel`). */
export function nativeTransportFor(options: ResolvedClientOptions): Transport {
  const log = new ClientLog(options.logger, options.logLevel, options.password)
  const discovery = resolveDiscovery(options.discoverCluster)
  let gate: DiscoveryGate | undefined
  const transportTo = (hosts: readonly HostAddress[], probe = false) =>
    createNativeTransport({
      hosts,
      username: options.username,
      password: options.password,
      database: options.database,
      quotaKey: options.quotaKey,
      clientName: options.clientName,
      tls: options.secure ? (options.tls ?? {}) : undefined,
      compression: options.compression,
      settings: options.settings,
      connectTimeoutMs: options.connectTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs,
      receiveTimeoutMs: options.receiveTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs,
      maxConnections: probe || options.sessionId !== undefined ? 1 : options.maxConnections,
      // A session (client.session() or the sessionId option) keeps its state on one connection.
      dedicatedConnection: !probe && options.sessionId !== undefined,
      acquireTimeoutMs: options.acquireTimeoutMs,
      hostStrategy: options.hostStrategy,
      hostCooldownMs: options.hostCooldownMs,
      insertBlockRows: options.insertBlockRows,
      maxBlockBytes: options.maxBlockBytes,
      protocolRevision: options.protocolRevision,
      mapping: { int64: options.int64, dates: options.dates, decimal: options.decimal },
      // Only the client's own transport logs: a discovery probe's failure is the refresh's.
      hostEvents: probe
        ? undefined
        : hostHealthLog(
            log,
            (host) => host,
            options.hostCooldownMs ?? 30_000,
            () => gate?.hostSetAside(),
          ),
    })
  const native = transportTo(options.endpoints)
  if (!discovery) return native
  gate = discoveryGate(
    discovery,
    {
      current: () => native.currentHosts,
      apply: (endpoints) => native.setHosts(endpoints),
      probe: (endpoint) => transportTo([endpoint], true),
    },
    'native',
    options.secure,
    log,
    options.requestTimeoutMs,
  )
  return new ClusterDiscoveryTransport(native, gate)
}
