import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls'
import type { InputArena } from '@clickwire/protocol'

/** Where and how to open one socket. */
export interface SocketTarget {
  readonly host: string
  readonly port: number
  /** TLS options; absent for plain TCP. */
  readonly tls?: TlsConnectionOptions | undefined
  readonly connectTimeoutMs: number
  readonly signal?: AbortSignal | undefined
  /** Size of the read buffers (the arena's chunks). */
  readonly readBufferSize?: number | undefined
  /** Unconsumed bytes allowed to pile up before reading pauses (default 16 MiB). */
  readonly readAheadBytes?: number | undefined
  /** Longest wait in {@link Channel.more} for the next bytes; 0 for none. */
  readonly receiveTimeoutMs?: number | undefined
}

/**
 * One connection's bytes, as the packet reader and the connection use them: what both socket
 * channels (Node's `node:net`/`node:tls`, Workers' `cloudflare:sockets`) provide, each
 * selected by the package's `#socket-channel` import.
 */
export interface Channel {
  /** Received bytes not yet consumed; the reader decodes them in place. */
  readonly arena: InputArena
  /** `host:port`, for messages. */
  readonly address: string
  /** Whether the last read got less than it offered: the kernel had nothing more for now. */
  lastReadDrained: boolean
  /** The configured read-ahead: how many unconsumed bytes may pile up before reading pauses. */
  readonly readAheadBytes: number
  /** The current pause threshold: {@link readAheadBytes}, raised while one packet needs more. */
  wanted: number
  /** Bytes from the arena's start that the packet being decoded needs, as far as known. */
  expected: number
  /** True while the socket can still deliver bytes. */
  readonly open: boolean
  /**
   * Waits until more bytes arrive (resuming reads paused by backpressure). Rejects with the
   * socket's error, a ConnectionError when the server closed the connection, or a
   * TimeoutError (`idle`) when nothing arrived for the receive timeout.
   */
  more(): Promise<void>
  /** Writes bytes; resolves once handed to the network, rejects when the socket goes first. */
  write(bytes: Uint8Array): Promise<void>
  /** Closes the socket at once; pending waits and writes fail with `error` when given. */
  destroy(error?: Error): void
  /** Closes politely and waits for the close, at most `timeoutMs`. */
  close(timeoutMs?: number): Promise<void>
  /** Keeps the process alive only while a request is in flight (where a runtime has that notion). */
  ref(active: boolean): void
}
