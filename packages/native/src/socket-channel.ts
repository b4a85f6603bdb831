import { connect as netConnect, type Socket } from 'node:net'
import {
  AbortError,
  ConnectionError,
  InputArena,
  listenForAbort,
  permissionRefusal,
  TimeoutError,
} from '@clickwire/protocol'
import type { Channel, SocketTarget } from './socket-channel-contract.js'
import { closedError, failAll, receiveTimeoutError, trackedWrite } from './socket-channel-support.js'

export type { SocketTarget } from './socket-channel-contract.js'

/** Smallest free space offered to the kernel for one read. */
const minimumRead = 256 * 1024
/** The most one socket read lands in the arena while a packet is still arriving. */
const maxRead = 1 << 20
/** The read after a packet fully arrived (see onread). */
const headerRead = 64 * 1024

/**
 * One TCP or TLS socket and the bytes received on it, on Node (and Bun, Deno): the default
 * `#socket-channel`; socket-channel-workerd.ts is the one for Cloudflare Workers.
 *
 * Plain TCP sockets read straight into the {@link InputArena} (Node's `onread` with a
 * buffer per read), so received bytes land where they are decoded with no copy; TLS
 * sockets, which have no `onread`, copy their chunks in. Reading is paused while the
 * consumer asks (backpressure) and resumed on demand.
 */
export class SocketChannel implements Channel {
  readonly arena: InputArena
  readonly address: string
  private socket!: Socket
  private wake: (() => void) | undefined
  private failure: Error | undefined
  private ended = false
  /** Writes waiting for the kernel or for `drain`; each fails when the socket goes. */
  private readonly pendingWrites = new Set<() => void>()
  /** Whether the last read got less than it offered: the kernel had nothing more for now. */
  lastReadDrained = false
  /** The configured read-ahead: how many unconsumed bytes may pile up before reading pauses. */
  readonly readAheadBytes: number
  /**
   * The current pause threshold: {@link readAheadBytes}, raised by the packet reader while
   * one packet needs more than that.
   */
  wanted: number
  /** Bytes from the arena's start that the packet being decoded needs, as far as known. */
  expected = 0
  private paused = false
  private readonly receiveTimeoutMs: number
  /** One timer per channel, re-armed with `refresh()` on every wait (no allocation per read). */
  private idleTimer: ReturnType<typeof setTimeout> | undefined

  private constructor(target: SocketTarget) {
    this.arena = new InputArena(target.readBufferSize)
    this.address = `${target.host}:${target.port}`
    this.readAheadBytes = target.readAheadBytes ?? 16 << 20
    this.wanted = this.readAheadBytes
    this.receiveTimeoutMs = target.receiveTimeoutMs ?? 0
  }

  /** Connects, with the connect timeout and the caller's signal. */
  static async open(target: SocketTarget): Promise<SocketChannel> {
    // node:tls (and the crypto it pulls in) loads with the first TLS connection: a client of
    // plain TCP never compiles it, and importing the package stays cheap.
    const tls = target.tls ? await import('node:tls') : undefined
    const channel = new SocketChannel(target)
    return channel.connect(target, tls?.connect)
  }

  private connect(
    target: SocketTarget,
    tlsConnect?: typeof import('node:tls').connect,
  ): Promise<SocketChannel> {
    const { signal } = target
    if (signal?.aborted) return Promise.reject(new AbortError(signal.reason))
    return new Promise((resolve, reject) => {
      let settled = false
      let stopListening: (() => void) | undefined
      const finish = (error?: Error) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        stopListening?.()
        if (error) {
          this.socket.destroy()
          reject(error)
        } else resolve(this)
      }
      const onAbort = () =>
        finish(new AbortError(signal?.reason, `connecting to ${this.address} was aborted`))
      const timer = setTimeout(
        () =>
          finish(
            new TimeoutError(
              'connect',
              target.connectTimeoutMs,
              `connecting to ${this.address} timed out after ${target.connectTimeoutMs} ms`,
            ),
          ),
        target.connectTimeoutMs,
      )
      if (signal) stopListening = listenForAbort(signal, onAbort)
      const arena = this.arena
      if (target.tls && tlsConnect) {
        this.socket = tlsConnect({
          host: target.host,
          port: target.port,
          servername: isIp(target.host) ? undefined : target.host,
          ...target.tls,
        })
        this.socket.once('secureConnect', () => finish())
        this.socket.on('data', (chunk: Buffer) => {
          arena.push(chunk)
          this.lastReadDrained = true
          this.throttle()
          this.notify()
        })
      } else {
        this.socket = netConnect({
          host: target.host,
          port: target.port,
          noDelay: true,
          onread: {
            // Once the packet being decoded has fully arrived, the next bytes start a new one,
            // whose decoder may move the pending bytes to align its first column: a region
            // lent now would then be stale, and its read copied. So that read is kept small.
            buffer: () =>
              arena.length >= this.expected
                ? arena.writable(headerRead, headerRead)
                : arena.writable(minimumRead, maxRead),
            callback: (read: number, buffer: Uint8Array) => {
              // Node asks for the next read's buffer right after this callback, before the
              // decoder runs; if the decoder then moved the arena (reserve), that read
              // landed in the old buffer and is copied over instead of committed.
              if (arena.isWritable(buffer)) arena.commit(read)
              else arena.push(buffer.subarray(0, read))
              this.lastReadDrained = read < buffer.length
              this.throttle()
              this.notify()
              return true
            },
          },
        })
        this.socket.once('connect', () => finish())
      }
      this.socket.setNoDelay(true)
      this.socket.on('error', (error: NodeJS.ErrnoException) => {
        // Deno without --allow-net refuses the socket: the caller's to fix, not a host down.
        const failure =
          permissionRefusal(error, `connection to ${this.address} failed`) ??
          new ConnectionError(`connection to ${this.address} failed: ${error.message}`, {
            cause: error,
            code: error.code,
            address: this.address,
          })
        this.failure ??= failure
        finish(failure)
        failAll(this.pendingWrites)
        this.notify()
      })
      this.socket.on('end', () => {
        this.ended = true
        this.notify()
      })
      this.socket.on('close', () => {
        this.ended = true
        if (this.idleTimer) clearTimeout(this.idleTimer)
        failAll(this.pendingWrites)
        finish(
          new ConnectionError(`connection to ${this.address} closed while connecting`, {
            address: this.address,
          }),
        )
        this.notify()
      })
    })
  }

  /** Pauses reading once enough is buffered; {@link more} resumes it. */
  private throttle(): void {
    if (!this.paused && this.arena.length >= this.wanted) {
      this.paused = true
      // pause(), not `return false` from onread: only pause() lets resume() restart reading.
      this.socket.pause()
    }
  }

  private notify(): void {
    const wake = this.wake
    if (wake) {
      this.wake = undefined
      wake()
    }
  }

  /** True while the socket can still deliver bytes. */
  get open(): boolean {
    return !this.ended && this.failure === undefined && !this.socket.destroyed
  }

  /**
   * Waits until more bytes arrive. Rejects with the socket's error, a ConnectionError when
   * the server closed the connection, or a TimeoutError (`idle`) when nothing arrived for
   * the receive timeout; the last two also close the socket.
   */
  async more(): Promise<void> {
    if (this.failure) throw this.failure
    if (this.ended) throw closedError(this.address, 'ECONNCLOSED')
    if (this.paused) {
      this.paused = false
      this.socket.resume()
    }
    await new Promise<void>((resolve) => {
      this.wake = resolve
      this.armIdleTimer()
    })
    if (this.failure) throw this.failure
  }

  private armIdleTimer(): void {
    const timeoutMs = this.receiveTimeoutMs
    if (timeoutMs <= 0) return
    if (this.idleTimer) {
      this.idleTimer.refresh()
      return
    }
    this.idleTimer = setTimeout(() => {
      // Only a wait that is still pending counts: between waits the consumer holds the
      // bytes back on purpose (backpressure), which is not the server's silence.
      if (this.wake === undefined) return
      this.destroy(receiveTimeoutError(this.address, timeoutMs))
    }, timeoutMs)
    this.idleTimer.unref()
  }

  /**
   * Writes bytes; resolves once they are handed to the kernel (respecting backpressure).
   * Rejects when the socket fails or closes before that: a peer reset or a destroy (a
   * deadline, an abort, close()) while the write waits for `drain` must never leave it
   * waiting, since `drain` and the write callback may then never come.
   */
  write(bytes: Uint8Array): Promise<void> {
    if (this.failure) return Promise.reject(this.failure)
    if (!this.open) return Promise.reject(closedError(this.address))
    return trackedWrite(
      this.pendingWrites,
      this.address,
      () => this.failure,
      (settle) => {
        const drained = () => settle()
        const flushed = this.socket.write(bytes, (error) => {
          if (error)
            settle(
              this.failure ??
                new ConnectionError(`writing to ${this.address} failed: ${error.message}`, {
                  cause: error,
                  address: this.address,
                }),
            )
          else if (flushed) settle()
        })
        if (flushed) return undefined
        this.socket.once('drain', drained)
        return () => this.socket.off('drain', drained)
      },
    )
  }

  /** Closes the socket at once. */
  destroy(error?: Error): void {
    if (error) this.failure ??= error
    this.socket.destroy()
    this.ended = true
    if (this.idleTimer) clearTimeout(this.idleTimer)
    failAll(this.pendingWrites)
    this.notify()
  }

  /** Closes politely (FIN) and waits for the close, at most `timeoutMs`. */
  async close(timeoutMs = 1000): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    if (this.socket.destroyed) return
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.socket.destroy()
        resolve()
      }, timeoutMs)
      this.socket.once('close', () => {
        clearTimeout(timer)
        resolve()
      })
      this.socket.end()
    })
  }

  /** Keeps the process alive only while a request is in flight. */
  ref(active: boolean): void {
    if (active) this.socket.ref()
    else this.socket.unref()
  }
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':')
}
