import { createNativeTransport } from '@clickwire/native'
import type { Transport } from '@clickwire/protocol'
import type { ResolvedClientOptions } from './client-options.js'

/** The native TCP transport (Node only: sockets) for resolved client options. */
export function nativeTransportFor(options: ResolvedClientOptions): Transport {
  return createNativeTransport({
    hosts: options.endpoints,
    username: options.username,
    password: options.password,
    database: options.database,
    quotaKey: options.quotaKey,
    clientName: options.clientName,
    tls: options.secure ? (options.tls ?? {}) : undefined,
    // gzip is an HTTP body encoding; native blocks are compressed with LZ4 instead.
    compression: options.compression === 'gzip' ? 'lz4' : options.compression,
    settings: options.settings,
    connectTimeoutMs: options.connectTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
    receiveTimeoutMs: options.receiveTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs,
    maxConnections: options.maxConnections,
    acquireTimeoutMs: options.acquireTimeoutMs,
    hostStrategy: options.hostStrategy,
    hostCooldownMs: options.hostCooldownMs,
    insertBlockRows: options.insertBlockRows,
    mapping: { int64: options.int64, dates: options.dates, decimal: options.decimal },
  })
}
