import { once } from 'node:events'
import { connect, createServer, type Socket } from 'node:net'
import { describe, expect, inject, it } from 'vitest'
import { FaultProxy } from '../src/index.js'

const server = inject('clickhouse')

async function query(port: number, sql: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    body: sql,
    headers: { Connection: 'close' },
  })
  return response.text()
}

describe('FaultProxy', () => {
  it('passes traffic through unchanged, also in 1-byte fragments and with delay', async () => {
    const proxy = await FaultProxy.start({ host: server.host, port: server.ports.http })
    try {
      expect(await query(proxy.port, 'SELECT 40 + 2')).toBe('42\n')
      proxy.setFault({ fragment: true, delayMs: 5 })
      expect(await query(proxy.port, "SELECT 'fragmented'")).toBe('fragmented\n')
      expect(proxy.accepted).toBe(2)
    } finally {
      await proxy.close()
    }
  })

  it('cuts, resets and stalls at a byte offset', async () => {
    const proxy = await FaultProxy.start({ host: server.host, port: server.ports.http })
    try {
      proxy.setFault({ cutAfter: { direction: 'toClient', bytes: 20 } })
      await expect(query(proxy.port, 'SELECT 1')).rejects.toThrow()
      proxy.setFault({ resetAfter: { direction: 'toServer', bytes: 5 } })
      await expect(query(proxy.port, 'SELECT 1')).rejects.toThrow()
      proxy.setFault({ stallAfter: { direction: 'toClient', bytes: 0 } })
      await expect(
        fetch(`http://127.0.0.1:${proxy.port}/`, {
          method: 'POST',
          body: 'SELECT 1',
          signal: AbortSignal.timeout(300),
        }),
      ).rejects.toThrow(/abort|timeout/i)
      proxy.setFault({ refuse: true })
      await expect(query(proxy.port, 'SELECT 1')).rejects.toThrow()
    } finally {
      await proxy.close()
    }
    expect(proxy.open).toBe(0)
  })

  it('resets one connection by id, from a tap before the chunk it saw is forwarded', async () => {
    const proxy = await FaultProxy.start({ host: server.host, port: server.ports.http })
    try {
      let reset = 0
      proxy.setTap((connection, direction, bytes) => {
        if (
          direction === 'toServer' &&
          Buffer.from(bytes).includes('dropped') &&
          proxy.resetConnection(connection)
        )
          reset++
      })
      expect(await query(proxy.port, "SELECT 'kept'")).toBe('kept\n')
      await expect(query(proxy.port, "SELECT 'dropped'")).rejects.toThrow()
      expect(reset).toBe(1)
      expect(proxy.resetConnection(1)).toBe(false)
      expect(proxy.resetConnection(99)).toBe(false)
      expect(await query(proxy.port, "SELECT 'after'")).toBe('after\n')
    } finally {
      await proxy.close()
    }
    expect(proxy.open).toBe(0)
  })

  it('cuts a pair once, however many chunks still arrive past the limit (no listener warning)', async () => {
    const proxy = await FaultProxy.start({ host: server.host, port: server.ports.http })
    const warnings: string[] = []
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`)
    process.on('warning', onWarning)
    try {
      // The answer goes on arriving in many chunks after the first 200 000 bytes reached the
      // limit; each of them used to apply the cut again.
      proxy.setFault({ cutAfter: { direction: 'toClient', bytes: 200_000 } })
      const sql =
        'SELECT number, toString(number) AS s FROM system.numbers LIMIT 1000000 SETTINGS max_block_size = 10000'
      // A clean FIN mid-body: fetch may or may not call the body short; only the cut matters.
      // Uncompressed, so the body counts the bytes that passed (26.x gzips for fetch's
      // Accept-Encoding, which would turn 200 000 bytes into several times that text).
      const text = await fetch(`http://127.0.0.1:${proxy.port}/`, {
        method: 'POST',
        body: sql,
        headers: { Connection: 'close', 'Accept-Encoding': 'identity' },
      })
        .then((response) => response.text())
        .catch(() => '')
      expect(text.length).toBeLessThanOrEqual(200_000)
      await new Promise((resolve) => setTimeout(resolve, 100))
    } finally {
      process.off('warning', onWarning)
      await proxy.close()
    }
    expect(warnings).toEqual([])
  })

  it('with resetServer: false, drains the server side of a cut until the server closes it', async () => {
    // A server that answers a request cut short after the client has gone, as ClickHouse
    // does (an HTTP 400, a native exception): the proxy must take that answer, not EPIPE it.
    const writes: (Error | null | undefined)[] = []
    const target = createServer({ allowHalfOpen: true }, (socket: Socket) => {
      socket.on('error', () => {})
      socket.resume()
      socket.on('end', () =>
        setTimeout(() => {
          socket.write(Buffer.alloc(64 * 1024, 1), (error) => {
            writes.push(error)
            socket.end()
          })
        }, 50),
      )
    })
    target.listen(0, '127.0.0.1')
    await once(target, 'listening')
    const address = target.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    const proxy = await FaultProxy.start(
      { host: '127.0.0.1', port: address.port },
      { cutAfter: { direction: 'toServer', bytes: 4 } },
      { resetServer: false },
    )
    try {
      const client = connect(proxy.port, '127.0.0.1')
      let received = 0
      client.on('data', (chunk: Buffer) => {
        received += chunk.length
      })
      client.on('error', () => {})
      client.write('cut here, this never arrives')
      await once(client, 'close')
      // The client saw the cut, nothing of the late answer; the proxy no longer counts it.
      expect(received).toBe(0)
      expect(proxy.open).toBe(0)
      await proxy.close()
      // close() waited for the server to finish: its late write went through.
      expect(writes.map((error) => error ?? null)).toEqual([null])
      expect(proxy.openSockets).toBe(0)
    } finally {
      await proxy.close()
      await new Promise((resolve) => target.close(resolve))
    }
  })

  it('holds the answer once the client has sent a given count, passing the rest of its bytes on', async () => {
    // An echo server: whatever it gets, it sends back.
    const got: Buffer[] = []
    const target = createServer((socket: Socket) => {
      socket.on('error', () => {})
      socket.on('data', (chunk: Buffer) => {
        got.push(chunk)
        socket.write(chunk)
      })
    })
    target.listen(0, '127.0.0.1')
    await once(target, 'listening')
    const address = target.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    const proxy = await FaultProxy.start(
      { host: '127.0.0.1', port: address.port },
      { holdAfter: { direction: 'toServer', bytes: 4, hold: 'toClient' } },
    )
    try {
      const client = connect(proxy.port, '127.0.0.1')
      client.on('error', () => {})
      const echoed: Buffer[] = []
      client.on('data', (chunk: Buffer) => echoed.push(chunk))
      await once(client, 'connect')
      client.write('abcd')
      // Past the count: the server still gets these bytes, the client no echo at all.
      await new Promise((resolve) => setTimeout(resolve, 100))
      client.write('efgh')
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(Buffer.concat(got).toString()).toBe('abcdefgh')
      expect(Buffer.concat(echoed).toString()).toBe('')
      client.destroy()
    } finally {
      await proxy.close()
      await new Promise((resolve) => target.close(resolve))
    }
  })
})
