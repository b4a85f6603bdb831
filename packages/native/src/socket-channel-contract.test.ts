// The one contract both socket channels keep (socket-channel-contract.ts): Node's, and the
// Workers one, here over a stand-in for `cloudflare:sockets` made of a Node socket's web
// streams (Workers' own connect() is exercised by the client's workerd conformance run).
import { createServer, connect as netConnect, type Server, type Socket } from 'node:net'
import { Duplex } from 'node:stream'
import { AbortError, ConnectionError, TimeoutError, UsageError } from '@clickwire/protocol'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SocketTarget } from './socket-channel-contract.js'

vi.mock('cloudflare:sockets', () => ({
  connect(address: { hostname: string; port: number }, options: { secureTransport: string }) {
    if (options.secureTransport !== 'off') throw new Error('the stand-in speaks plain TCP only')
    const socket = netConnect(address.port, address.hostname)
    const { readable, writable } = Duplex.toWeb(socket)
    return {
      readable,
      writable,
      opened: new Promise((resolve, reject) => {
        socket.once('connect', resolve)
        socket.once('error', reject)
      }),
      closed: new Promise((resolve) => socket.once('close', resolve)),
      async close() {
        socket.destroy()
      },
    }
  },
}))

const channels = {
  node: async () => (await import('./socket-channel.js')).SocketChannel,
  workerd: async () => (await import('./socket-channel-workerd.js')).SocketChannel,
}

let server: Server
let port: number
let accepted: Promise<Socket>

beforeEach(async () => {
  let accept!: (socket: Socket) => void
  accepted = new Promise((resolve) => {
    accept = resolve
  })
  server = createServer((socket) => accept(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
})

afterEach(async () => {
  server.close()
  ;(await Promise.race([accepted, Promise.resolve(undefined)]))?.destroy()
})

const target = (extra: Partial<SocketTarget> = {}): SocketTarget => ({
  host: '127.0.0.1',
  port,
  connectTimeoutMs: 10_000,
  ...extra,
})

describe.each(Object.keys(channels) as (keyof typeof channels)[])('the %s channel', (name) => {
  it('writes, and reads what arrives into the arena', async () => {
    const channel = await (await channels[name]()).open(target())
    const peer = await accepted
    const got = new Promise<string>((resolve) => peer.once('data', (data) => resolve(String(data))))
    await channel.write(new TextEncoder().encode('hello'))
    expect(await got).toBe('hello')
    peer.write('world!')
    while (channel.arena.length < 6) await channel.more()
    const { arena } = channel
    expect(new TextDecoder().decode(arena.bytes.subarray(arena.start, arena.start + 6))).toBe('world!')
    await channel.close()
    expect(channel.open).toBe(false)
  })

  it('pauses reading at the read-ahead and resumes when more is asked (backpressure)', {
    timeout: 60_000,
  }, async () => {
    const channel = await (await channels[name]()).open(target({ readAheadBytes: 64 * 1024 }))
    const peer = await accepted
    const total = 64 << 20
    let sent = 0
    const chunk = new Uint8Array(256 * 1024).fill(7)
    let blocked!: () => void
    const peerBlocked = new Promise<void>((resolve) => {
      blocked = resolve
    })
    const pump = () => {
      while (sent < total) {
        sent += chunk.length
        if (!peer.write(chunk)) {
          blocked()
          peer.once('drain', pump)
          return
        }
      }
      peer.end()
    }
    pump()
    await channel.more()
    // The peer's writes back up: the channel stopped reading once the read-ahead was reached,
    // so what it holds stays far below what the peer sends (the kernel holds a few MiB more).
    await peerBlocked
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(channel.arena.length).toBeLessThan(total / 4)
    let received = 0
    for (;;) {
      const { arena } = channel
      received += arena.length
      arena.consume(arena.start + arena.length)
      try {
        await channel.more()
      } catch (error) {
        expect(error).toBeInstanceOf(ConnectionError)
        expect((error as ConnectionError).code).toBe('ECONNCLOSED')
        break
      }
    }
    expect(received).toBe(total)
  })

  it('fails a wait with a TimeoutError (idle) when nothing arrives for the receive timeout', async () => {
    const channel = await (await channels[name]()).open(target({ receiveTimeoutMs: 200 }))
    await accepted
    const error = await channel.more().catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(TimeoutError)
    expect((error as Error).message).toBe(`no data from 127.0.0.1:${port} for 200 ms (receive timeout)`)
    expect(channel.open).toBe(false)
    await expect(channel.write(new Uint8Array(1))).rejects.toBe(error)
  })

  it('refuses to connect with an aborted signal', async () => {
    const controller = new AbortController()
    controller.abort()
    const error = await (await channels[name]())
      .open(target({ signal: controller.signal }))
      .catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(AbortError)
  })

  it('fails waits and writes once destroyed', async () => {
    const channel = await (await channels[name]()).open(target())
    await accepted
    const waiting = channel.more().catch((failure: unknown) => failure)
    const reason = new ConnectionError('gone', { address: channel.address })
    channel.destroy(reason)
    expect(await waiting).toBe(reason)
    await expect(channel.write(new Uint8Array(1))).rejects.toBe(reason)
  })

  it('reports a refused connection as a ConnectionError', async () => {
    server.close()
    await new Promise((resolve) => setTimeout(resolve, 0))
    const error = await (await channels[name]()).open(target()).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(ConnectionError)
  })
})

describe('the workerd channel', () => {
  it('refuses TLS options Workers cannot honour, with a UsageError', async () => {
    const { SocketChannel } = await import('./socket-channel-workerd.js')
    const error = await SocketChannel.open(target({ tls: { ca: 'x', rejectUnauthorized: false } })).catch(
      (failure: unknown) => failure,
    )
    expect(error).toBeInstanceOf(UsageError)
    expect((error as Error).message).toBe(
      "tls.ca, tls.rejectUnauthorized cannot be used on Cloudflare Workers: connect() verifies the server against the runtime's own certificate authorities only",
    )
  })
})
