export { ConnectionPool, type Poolable, type PoolOptions } from './connection-pool.js'
export { HostSelector } from './host-selector.js'
export { type ConnectedServer, NativeConnection } from './native-connection.js'
export {
  type CompressionMethod,
  type HostAddress,
  type HostStrategy,
  type NativeOptions,
  type NativeTlsOptions,
  nativeDefaults,
  nativeOptionsFromUrl,
  type ParsedNativeUrl,
  parseNativeUrl,
} from './native-options.js'
export { NativeQueryStream } from './native-query-stream.js'
export {
  createNativeTransport,
  NativeTransport,
  type NativeTransportOptions,
  quoteTableName,
} from './native-transport.js'
export { clientVersion, type PreparedQuery, prepareQuery } from './query-request.js'
