import { createServer, type Socket } from 'node:net'
import { afterAll, beforeAll } from 'vitest'

/**
 * A TCP server on a free loopback port that accepts connections and never answers, for the
 * tests of deadlines: started before the file's tests, closed after them. Read `port` inside
 * a test (it is known once the server listens).
 */
export function silentServer(): { readonly port: number } {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
  })
  const handle = { port: 0 }
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    handle.port = (server.address() as { port: number }).port
  })
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  })
  return handle
}
