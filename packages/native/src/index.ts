/**
 * `@clickwire/native`: the ClickHouse native TCP protocol for Node. Make a transport with
 * {@link createNativeTransport}; the other exports are its option and result types.
 * Connections, the pool and the packet pump are internal (`@clickwire/native/internal`).
 *
 * @packageDocumentation
 */
export type {
  CompressionMethod,
  HostAddress,
  HostStrategy,
  NativeOptions,
  NativeTlsOptions,
} from './native-options.js'
export {
  createNativeTransport,
  type NativeTransport,
  type NativeTransportOptions,
} from './native-transport.js'
