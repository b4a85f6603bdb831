/**
 * `@clickwire/native/internal`: the pieces under the transport, for clickwire's own
 * reliability suite, which drives a real connection's packet stream with constructed bytes.
 * Not a stable API: these exports may change in any release.
 *
 * @packageDocumentation
 */
export { type ConnectedServer, NativeConnection } from './native-connection.js'
export { NativeQueryStream } from './native-query-stream.js'
export { PacketPump } from './packet-pump.js'
export type { Channel as SocketChannel } from './socket-channel-contract.js'
