import { createServer } from 'node:net'

/**
 * Asks the kernel for `count` distinct free loopback ports. All sockets stay open until
 * every port is known, so the same call never hands out one port twice. Another process
 * can still take a port before the server binds it; the server start retries on that.
 */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer()
          server.unref()
          server.once('error', reject)
          server.listen(0, host, () => resolve(server))
        }),
    ),
  )
  const ports = servers.map((server) => {
    const address = server.address()
    if (address === null || typeof address === 'string') throw new Error('unexpected listen address')
    return address.port
  })
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  return ports
}
