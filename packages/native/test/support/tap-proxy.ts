// A TCP proxy in front of the real server for faults FaultProxy does not make: bytes
// injected into the server's answer at a packet boundary, and connections frozen in place.
import { connect, createServer, type Server, type Socket } from 'node:net'

interface Pair {
  readonly client: Socket
  readonly server: Socket
  frozen: boolean
}

export class TapProxy {
  private readonly pairs = new Set<Pair>()
  private inject: Uint8Array | undefined
  private cut = false
  /** Connections accepted so far. */
  accepted = 0

  private constructor(
    private readonly listener: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TapProxy> {
    const listener = createServer()
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    const address = listener.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    const proxy = new TapProxy(listener, address.port)
    listener.on('connection', (client) => proxy.accept(client, target))
    return proxy
  }

  /**
   * The next time a client sends something (a request), `bytes` go to that client before the
   * request is forwarded: the server cannot have answered yet, so they arrive exactly where
   * the client expects the first packet of the answer.
   */
  injectBeforeNextRequest(bytes: Uint8Array): void {
    this.inject = bytes
  }

  /**
   * The next time a client sends something, its connection is closed instead: what a pooled
   * connection meets when the server went away while it sat idle.
   */
  cutOnNextRequest(): void {
    this.cut = true
  }

  /** Stops forwarding on every open connection, both ways, keeping the sockets open. */
  freeze(): void {
    for (const pair of this.pairs) pair.frozen = true
  }

  /** Proxied connections whose client side is still open. */
  get open(): number {
    let open = 0
    for (const pair of this.pairs) if (!pair.client.destroyed) open++
    return open
  }

  async close(): Promise<void> {
    for (const pair of this.pairs) {
      pair.client.destroy()
      pair.server.destroy()
    }
    await new Promise<void>((resolve) => this.listener.close(() => resolve()))
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    this.accepted++
    const server = connect(target)
    const pair: Pair = { client, server, frozen: false }
    this.pairs.add(pair)
    const drop = () => {
      client.destroy()
      server.destroy()
      this.pairs.delete(pair)
    }
    client.on('error', drop).on('close', drop)
    server.on('error', drop).on('close', drop)
    client.on('data', (chunk: Buffer) => {
      if (pair.frozen) return
      if (this.cut) {
        this.cut = false
        drop()
        return
      }
      const inject = this.inject
      if (inject) {
        this.inject = undefined
        client.write(inject)
      }
      server.write(chunk)
    })
    server.on('data', (chunk: Buffer) => {
      if (!pair.frozen) client.write(chunk)
    })
  }
}
