import { createServer, connect as netConnect, type Server, type Socket } from 'node:net'

/** Which way bytes flow through the proxy. */
export type Direction = 'toServer' | 'toClient'

/**
 * What the proxy does to a connection. Byte counts are per connection and per direction;
 * the fault applies to connections accepted after it was set.
 */
export interface Fault {
  /** Close both sides cleanly (FIN) once this many bytes went this way. */
  readonly cutAfter?: { readonly direction: Direction; readonly bytes: number }
  /** Reset both sides (RST) once this many bytes went this way. */
  readonly resetAfter?: { readonly direction: Direction; readonly bytes: number }
  /** Stop forwarding anything (keeping both sockets open) once this many bytes went this way. */
  readonly stallAfter?: { readonly direction: Direction; readonly bytes: number }
  /**
   * Stop forwarding one direction only (the other keeps flowing, both sockets stay open)
   * once this many bytes went `direction`: the held one is `hold`, by default `direction`
   * itself. With `hold: 'toClient'` after the client's last byte, the server gets every byte
   * of an insert and the client never gets the answer; counting the client's bytes makes the
   * point exact even when the server's answers vary in length (HTTP headers with timings).
   */
  readonly holdAfter?: {
    readonly direction: Direction
    readonly bytes: number
    readonly hold?: Direction
  }
  /** Hold every chunk this long before forwarding it. */
  readonly delayMs?: number
  /** Forward one byte per write. */
  readonly fragment?: boolean
  /** Refuse the connection outright (accept, then reset before any byte). */
  readonly refuse?: boolean
}

interface Pair {
  /** Accept order, from 1. */
  id: number
  client: Socket
  server: Socket
  counts: Record<Direction, number>
  stalled: boolean
  /** Directions whose bytes are held back (see {@link Fault.holdAfter}). */
  held: Set<Direction>
  /**
   * The proxy has ended this connection for the client and, with `resetServer: false`, only
   * drains what the server still sends (see {@link FaultProxyOptions.resetServer}).
   */
  severed: boolean
  /** A cut was applied (once: every later chunk reaches the limit again). */
  cut: boolean
  /** Settles once the server's side is closed. */
  serverClosed: Promise<void>
}

/** How the proxy treats the server side of its connections. */
export interface FaultProxyOptions {
  /**
   * Whether a reset (`resetAfter`, {@link FaultProxy.resetAll}, {@link FaultProxy.close})
   * sends an RST to the server as well as to the client (default true). With false, the
   * server's side gets a FIN instead, while the client still gets the RST: what the client
   * sees is the same. And whenever the proxy ends a connection (a reset, a cut, the client's
   * side failing), it then keeps the server's side open, reading and discarding what the
   * server still sends, until the server closes it (or {@link drainLimitMs} passes): a
   * server that answers a request cut short (an HTTP 400 for a truncated header, a native
   * exception packet) writes into an open socket, not into one already closed. For the
   * modern test engine, which aborts the whole process when a connection's handler ends in
   * an exception: an RST on a connection it reads from, or EPIPE ("I/O error: Broken pipe")
   * on a write to one the proxy closed (see `modernHandshakeAbort`).
   */
  readonly resetServer?: boolean
}

/** How long a drained server side (`resetServer: false`) may stay open before it is destroyed. */
export const drainLimitMs = 10_000

/** Bytes the proxy forwarded on one connection, as they went (see {@link FaultProxy.setTap}). */
export type ProxyTap = (connection: number, direction: Direction, bytes: Uint8Array) => void

/**
 * A TCP proxy in front of a real server that injects network faults: cuts and resets at
 * byte offsets, stalls, delays, 1-byte fragmentation, refusal. Tests point a client at
 * {@link port} instead of the server's.
 *
 * @example
 * ```ts
 * const proxy = await FaultProxy.start({ host: '127.0.0.1', port: server.ports.tcp })
 * proxy.setFault({ cutAfter: { direction: 'toClient', bytes: 5000 } })
 * ```
 */
export class FaultProxy {
  private readonly pairs = new Set<Pair>()
  private fault: Fault = {}
  private tap: ProxyTap | undefined
  /** The connections whose next bytes to the server reset them (resetNextRequest), once. */
  private resetOnNext: Set<number> | undefined
  /** Connections accepted so far. */
  accepted = 0
  /** Most connections open at the same time so far (see {@link resetPeak}). */
  peakOpen = 0
  /** Bytes forwarded so far, per direction, over all connections. */
  readonly forwarded: Record<Direction, number> = { toServer: 0, toClient: 0 }

  private constructor(
    private readonly server: Server,
    readonly target: { readonly host: string; readonly port: number },
    readonly port: number,
    private readonly options: FaultProxyOptions,
  ) {}

  static async start(
    target: { host: string; port: number },
    fault: Fault = {},
    options: FaultProxyOptions = {},
  ): Promise<FaultProxy> {
    const server = createServer()
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve())
    })
    const address = server.address()
    if (address === null || typeof address === 'string') throw new Error('proxy has no port')
    const proxy = new FaultProxy(server, target, address.port, options)
    proxy.fault = fault
    server.on('connection', (socket) => proxy.accept(socket))
    return proxy
  }

  /** Sets the fault for connections accepted from now on ({} = pass everything through). */
  setFault(fault: Fault): void {
    this.fault = fault
  }

  /**
   * Calls `tap` with every chunk forwarded from now on (after faults cut it), e.g. to record
   * a real server's byte stream; undefined stops it.
   */
  setTap(tap: ProxyTap | undefined): void {
    this.tap = tap
  }

  /** Starts counting {@link peakOpen} again from the connections open now. */
  resetPeak(): void {
    this.peakOpen = this.open
  }

  /** Proxied connections with a socket still open. */
  get open(): number {
    let open = 0
    for (const pair of this.pairs)
      if (!pair.severed && (!pair.client.destroyed || !pair.server.destroyed)) open++
    return open
  }

  /** The proxy's own sockets still open (both sides of every pair), to tell them from a client's. */
  get openSockets(): number {
    let open = 0
    for (const pair of this.pairs) open += Number(!pair.client.destroyed) + Number(!pair.server.destroyed)
    return open
  }

  /**
   * Resets whichever connection open now next carries bytes to the server, before they reach
   * it, once: a kept-alive connection found dead when it is reused. Unlike {@link resetAll},
   * the client cannot have read the reset before it sends again (Node 26's http Agent reads it
   * before the next request picks a socket, and then opens a fresh one).
   */
  resetNextRequest(): void {
    this.resetOnNext = new Set([...this.pairs].map((pair) => pair.id))
  }

  /** Resets every open connection now. */
  resetAll(): void {
    for (const pair of this.pairs) this.resetPair(pair)
  }

  /**
   * Resets the connection accepted `connection`-th (the id a {@link ProxyTap} gets), if it
   * is still open; false if not. Called from a tap, the chunk it saw is not forwarded: e.g.
   * to make one request fail (a KILL QUERY) on a kept-alive connection, whatever it reuses.
   */
  resetConnection(connection: number): boolean {
    for (const pair of this.pairs) {
      if (pair.id !== connection) continue
      this.resetPair(pair)
      return true
    }
    return false
  }

  /**
   * Stops accepting, and resets what is open (with `resetServer: false`, once the server
   * closed the sides being drained).
   */
  async close(): Promise<void> {
    this.resetAll()
    const drains = this.options.resetServer === false ? [...this.pairs].map((pair) => pair.serverClosed) : []
    this.pairs.clear()
    await Promise.all([...drains, new Promise<void>((resolve) => this.server.close(() => resolve()))])
  }

  private accept(client: Socket): void {
    this.accepted++
    const fault = this.fault
    if (fault.refuse) {
      reset(client)
      return
    }
    const server = netConnect({ host: this.target.host, port: this.target.port })
    const pair: Pair = {
      id: this.accepted,
      client,
      server,
      counts: { toServer: 0, toClient: 0 },
      stalled: false,
      held: new Set(),
      severed: false,
      cut: false,
      serverClosed: new Promise((resolve) => server.once('close', () => resolve())),
    }
    this.pairs.add(pair)
    this.peakOpen = Math.max(this.peakOpen, this.open)
    const forget = () => {
      if (client.destroyed && server.destroyed) this.pairs.delete(pair)
    }
    client.on('close', forget)
    server.on('close', forget)
    // Errors are the point of this proxy; they end the pair, nothing more.
    client.on('error', () => this.closeServer(pair))
    server.on('error', () => client.destroy())
    this.pipe(pair, client, server, 'toServer', fault)
    this.pipe(pair, server, client, 'toClient', fault)
  }

  private pipe(pair: Pair, from: Socket, to: Socket, direction: Direction, fault: Fault): void {
    // Chunks are forwarded strictly in order even when delayed.
    let queue = Promise.resolve()
    from.on('data', (chunk: Buffer) => {
      if (pair.stalled || pair.severed || pair.held.has(direction)) return
      let data = chunk
      const before = pair.counts[direction]
      const limit = firstLimit(fault, direction)
      // A hold of the other direction lets this one flow on whole.
      const stopsThis = limit !== undefined && (limit.hold ?? direction) === direction
      if (limit !== undefined && stopsThis && before + data.length >= limit.bytes) {
        data = data.subarray(0, Math.max(0, limit.bytes - before))
      }
      pair.counts[direction] = before + data.length
      this.forwarded[direction] += data.length
      if (data.length > 0) this.tap?.(pair.id, direction, data)
      if (direction === 'toServer' && data.length > 0 && this.resetOnNext?.has(pair.id)) {
        this.resetOnNext = undefined
        this.resetPair(pair)
        return
      }
      const send = async () => {
        if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
        if (pair.severed) return
        if (fault.fragment) {
          for (let i = 0; i < data.length && !to.destroyed; i++) {
            to.write(data.subarray(i, i + 1))
            // Separate the bytes in time so the kernel cannot coalesce them.
            if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve))
          }
        } else if (data.length > 0 && !to.destroyed) to.write(data)
        if (limit !== undefined && pair.counts[direction] >= limit.bytes)
          this.trigger(pair, limit.kind, limit.hold ?? direction)
      }
      queue = queue.then(send, send)
    })
    // The end travels behind the data still queued (delayed or fragmented).
    from.on('end', () => {
      queue = queue.then(() => {
        if (!pair.stalled && !pair.held.has(direction)) to.end()
      })
    })
  }

  private resetPair(pair: Pair): void {
    reset(pair.client)
    if (this.options.resetServer === false) this.drainServer(pair)
    else reset(pair.server)
  }

  /** Ends the server's side of a pair whose client side failed. */
  private closeServer(pair: Pair): void {
    if (this.options.resetServer === false) this.drainServer(pair)
    else pair.server.destroy()
  }

  /**
   * Sends the server a FIN and from now on only reads (and drops) what it still sends, until
   * it closes its side: the server sees the connection end, never a write into a closed one.
   */
  private drainServer(pair: Pair): void {
    if (pair.severed) return
    pair.severed = true
    const server = pair.server
    if (server.destroyed) return
    server.end()
    server.resume()
    const limit = setTimeout(() => server.destroy(), drainLimitMs)
    server.once('close', () => clearTimeout(limit))
  }

  /** Applies a fault whose limit was reached; `direction` is the one a hold stops. */
  private trigger(pair: Pair, kind: 'cut' | 'reset' | 'stall' | 'hold', direction: Direction): void {
    if (kind === 'stall') {
      pair.stalled = true
      return
    }
    if (kind === 'hold') {
      pair.held.add(direction)
      return
    }
    if (kind === 'reset') {
      this.resetPair(pair)
      return
    }
    // Once per pair: destroySoon adds a 'finish' listener each call, and every chunk still
    // arriving past the limit triggers the cut again (MaxListenersExceededWarning).
    if (pair.cut) return
    pair.cut = true
    pair.client.end()
    pair.client.destroySoon()
    if (this.options.resetServer === false) {
      this.drainServer(pair)
      return
    }
    pair.server.end()
    pair.server.destroySoon()
  }
}

interface Limit {
  bytes: number
  kind: 'cut' | 'reset' | 'stall' | 'hold'
  /** For a hold: the direction it stops, when not the counted one. */
  hold?: Direction | undefined
}

function firstLimit(fault: Fault, direction: Direction): Limit | undefined {
  const limits: Limit[] = []
  if (fault.cutAfter?.direction === direction) limits.push({ bytes: fault.cutAfter.bytes, kind: 'cut' })
  if (fault.resetAfter?.direction === direction) limits.push({ bytes: fault.resetAfter.bytes, kind: 'reset' })
  if (fault.stallAfter?.direction === direction) limits.push({ bytes: fault.stallAfter.bytes, kind: 'stall' })
  if (fault.holdAfter?.direction === direction)
    limits.push({ bytes: fault.holdAfter.bytes, kind: 'hold', hold: fault.holdAfter.hold })
  limits.sort((a, b) => a.bytes - b.bytes)
  return limits[0]
}

/** Sends RST where the socket still can, and makes sure it is destroyed (and emits 'close'). */
function reset(socket: Socket): void {
  try {
    socket.resetAndDestroy()
  } catch {
    // Already half-closed: RST is no longer possible, destroying still is.
  }
  socket.destroy()
}
