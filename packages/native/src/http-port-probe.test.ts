import { createServer, type Server, type Socket } from 'node:net'
import { ConnectionError } from '@clickwire/protocol'
import { afterEach, describe, expect, it } from 'vitest'
import { probeHttpPort } from './http-port-probe.js'

/** A loopback server that answers a request line ending in a blank line with `answer`. */
async function fakeServer(answer: string): Promise<{ server: Server; port: number }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    let seen = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      seen += chunk
      if (seen.includes('\r\n\r\n')) socket.end(answer)
    })
    socket.on('error', () => {})
  })
  server.on('close', () => {
    for (const socket of sockets) socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as { port: number }).port }
}

describe('probeHttpPort', () => {
  const servers: Server[] = []
  afterEach(() => {
    for (const server of servers.splice(0)) server.close()
  })

  it('rejects with a ConnectionError naming http:// when the port answers GET /ping with 200', async () => {
    const { server, port } = await fakeServer('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nOk.\n')
    servers.push(server)
    const probe = probeHttpPort('127.0.0.1', port, 10)
    const error = await probe.detected.catch((caught: unknown) => caught)
    probe.stop()
    expect(ConnectionError.isInstance(error)).toBe(true)
    expect((error as Error).message).toContain(`127.0.0.1:${port} speaks HTTP, not the native protocol`)
    expect((error as Error).message).toContain('Use an http:// (or https://) URL for this port')
  })

  it('stays silent for a native port, which answers an HTTP request with a 400 of its own', async () => {
    const { server, port } = await fakeServer(
      'HTTP/1.0 400 Bad Request\r\n\r\nPort is for clickhouse-client program.\r\n',
    )
    servers.push(server)
    const probe = probeHttpPort('127.0.0.1', port, 10)
    const outcome = await Promise.race([
      probe.detected.then(
        () => 'resolved',
        () => 'rejected',
      ),
      new Promise((resolve) => setTimeout(() => resolve('silent'), 300)),
    ])
    probe.stop()
    expect(outcome).toBe('silent')
  })

  it('sends nothing when stopped before its delay', async () => {
    let connections = 0
    const server = createServer((socket) => {
      connections++
      socket.destroy()
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const probe = probeHttpPort('127.0.0.1', (server.address() as { port: number }).port, 50)
    probe.stop()
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(connections).toBe(0)
  })
})
