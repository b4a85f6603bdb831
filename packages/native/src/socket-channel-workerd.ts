// `#socket-channel` under the `workerd` condition: TCP and TLS through Cloudflare Workers'
// `connect()` (cloudflare:sockets). Node's `onread` reads land in buffers Workers detach, so
// this channel reads the socket's stream and copies each chunk into the arena instead.
// @ts-expect-error cloudflare:sockets exists only on Workers (typed below)
import { connect as workersConnect } from 'cloudflare:sockets'
import {
  AbortError,
  ConnectionError,
  InputArena,
  listenForAbort,
  TimeoutError,
  UsageError,
} from '@clickwire/protocol'
import type { Channel, SocketTarget } from './socket-channel-contract.js'
import { closedError, failAll, receiveTimeoutError, trackedWrite } from './socket-channel-support.js'

export type { SocketTarget } from './socket-channel-contract.js'

/** The part of a `cloudflare:sockets` Socket used here. */
interface WorkersSocket {
  readonly readable: ReadableStream<Uint8Array>
  readonly writable: WritableStream<Uint8Array>
  readonly opened: Promise<unknown>
  readonly closed: Promise<void>
  close(): Promise<void>
}

type Connect = (
  address: { hostname: string; port: number },
  options: { secureTransport: 'off' | 'on'; allowHalfOpen: boolean },
) => WorkersSocket

const connect = workersConnect as Connect

/** TLS options Workers' `connect()` cannot honour: it verifies against its own roots only. */
const unsupportedTls = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'checkServerIdentity']

/**
 * One TCP or TLS socket of Cloudflare Workers and the bytes received on it: the same contract
 * as Node's channel (socket-channel.ts): reads paused once {@link wanted} bytes wait
 * (backpressure) and resumed by {@link more}, the receive timeout, abort while connecting, and
 * writes that fail when the socket goes.
 */
export class SocketChannel implements Channel {
  readonly arena: InputArena
  readonly address: string
  lastReadDrained = false
  readonly readAheadBytes: number
  wanted: number
  expected = 0
  private socket!: WorkersSocket
  private writer!: WritableStreamDefaultWriter<Uint8Array>
  private wake: (() => void) | undefined
  /** Resolves the read loop's wait while reading is paused. */
  private resume: (() => void) | undefined
  private failure: Error | undefined
  private ended = false
  private readonly pendingWrites = new Set<() => void>()
  private readonly receiveTimeoutMs: number
  private idleTimer: ReturnType<typeof setTimeout> | undefined

  private constructor(target: SocketTarget) {
    this.arena = new InputArena(target.readBufferSize)
    this.address = `${target.host}:${target.port}`
    this.readAheadBytes = target.readAheadBytes ?? 16 << 20
    this.wanted = this.readAheadBytes
    this.receiveTimeoutMs = target.receiveTimeoutMs ?? 0
  }

  /** Connects, with the connect timeout and the caller's signal. */
  static open(target: SocketTarget): Promise<SocketChannel> {
    return new SocketChannel(target).connect(target)
  }

  private async connect(target: SocketTarget): Promise<SocketChannel> {
    const { signal } = target
    if (signal?.aborted) throw new AbortError(signal.reason)
    const refused = unsupportedTls.filter(
      (name) => target.tls?.[name as keyof typeof target.tls] !== undefined,
    )
    if (refused.length > 0)
      throw new UsageError(
        `tls.${refused.join(', tls.')} cannot be used on Cloudflare Workers: connect() verifies the server against the runtime's own certificate authorities only`,
      )
    let stopListening: (() => void) | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      this.socket = connect(
        { hostname: target.host, port: target.port },
        { secureTransport: target.tls ? 'on' : 'off', allowHalfOpen: false },
      )
      await new Promise<void>((resolve, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new TimeoutError(
                'connect',
                target.connectTimeoutMs,
                `connecting to ${this.address} timed out after ${target.connectTimeoutMs} ms`,
              ),
            ),
          target.connectTimeoutMs,
        )
        if (signal)
          stopListening = listenForAbort(signal, () =>
            reject(new AbortError(signal.reason, `connecting to ${this.address} was aborted`)),
          )
        this.socket.opened.then(
          () => resolve(),
          (error: unknown) => reject(this.connectionError('failed', error)),
        )
      })
    } catch (error) {
      this.socket?.close().catch(() => undefined)
      this.ended = true
      throw error
    } finally {
      clearTimeout(timer)
      stopListening?.()
    }
    this.writer = this.socket.writable.getWriter()
    void this.readLoop(this.socket.readable.getReader())
    return this
  }

  private connectionError(what: string, error: unknown): ConnectionError {
    const message = error instanceof Error ? error.message : String(error)
    return new ConnectionError(`connection to ${this.address} ${what}: ${message}`, {
      cause: error,
      address: this.address,
    })
  }

  /** Copies each received chunk into the arena, waiting while {@link wanted} bytes are unconsumed. */
  private async readLoop(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    try {
      for (;;) {
        if (this.arena.length >= this.wanted)
          await new Promise<void>((resolve) => {
            this.resume = resolve
          })
        if (this.ended) break
        const { value, done } = await reader.read()
        if (done) break
        this.arena.push(value)
        // A stream tells nothing of what the network still holds: each chunk may be the last.
        this.lastReadDrained = true
        this.notify()
      }
    } catch (error) {
      if (!this.ended) this.failure ??= this.connectionError('failed', error)
    }
    this.ended = true
    failAll(this.pendingWrites)
    this.notify()
    reader.releaseLock()
  }

  private notify(): void {
    const wake = this.wake
    if (wake) {
      this.wake = undefined
      if (this.idleTimer) clearTimeout(this.idleTimer)
      wake()
    }
  }

  get open(): boolean {
    return !this.ended && this.failure === undefined
  }

  async more(): Promise<void> {
    if (this.failure) throw this.failure
    if (this.ended) throw closedError(this.address, 'ECONNCLOSED')
    const resume = this.resume
    this.resume = undefined
    await new Promise<void>((resolve) => {
      this.wake = resolve
      this.armIdleTimer()
      resume?.()
    })
    if (this.failure) throw this.failure
  }

  private armIdleTimer(): void {
    const timeoutMs = this.receiveTimeoutMs
    if (timeoutMs <= 0) return
    // Workers' timers have no refresh(): one timer per wait, cleared when bytes arrive.
    this.idleTimer = setTimeout(() => {
      if (this.wake === undefined) return
      this.destroy(receiveTimeoutError(this.address, timeoutMs))
    }, timeoutMs)
  }

  write(bytes: Uint8Array): Promise<void> {
    if (this.failure) return Promise.reject(this.failure)
    if (!this.open) return Promise.reject(closedError(this.address))
    return trackedWrite(
      this.pendingWrites,
      this.address,
      () => this.failure,
      (settle) => {
        this.writer.write(bytes).then(
          () => settle(),
          (error: unknown) => settle(this.failure ?? this.connectionError('failed while writing', error)),
        )
        return undefined
      },
    )
  }

  destroy(error?: Error): void {
    if (error) this.failure ??= error
    const wasOpen = !this.ended
    this.ended = true
    if (this.idleTimer) clearTimeout(this.idleTimer)
    if (wasOpen) this.socket.close().catch(() => undefined)
    failAll(this.pendingWrites)
    this.resume?.()
    this.notify()
  }

  async close(timeoutMs = 1000): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    if (this.ended) return
    this.ended = true
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([
      this.socket.close().catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs)
      }),
    ])
    clearTimeout(timer)
    failAll(this.pendingWrites)
    this.resume?.()
    this.notify()
  }

  /** Workers end a request's work with the request: there is no process to keep alive. */
  ref(_active: boolean): void {}
}
