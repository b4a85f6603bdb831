// A response body that breaks off right after the headers, on every request a cold
// transport makes (its first is the server probe): a typed ConnectionError, never the
// backend's own failure record.
import { ClickwireError, ConnectionError } from '@clickwire/protocol'
import { FaultProxy } from '@clickwire/testing'
import { expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')

it('turns a body cut after the headers into a ConnectionError, on a cold transport', async () => {
  const proxy = await FaultProxy.start({ host: server.host, port: server.ports.http })
  try {
    // Where the headers of the first response end, from a clean cold request.
    // (26.x may write the status line and the headers in separate chunks: join them.)
    let first = ''
    let firstConnection: number | undefined
    proxy.setTap((connection, direction, bytes) => {
      if (direction !== 'toClient') return
      firstConnection ??= connection
      if (connection === firstConnection) first += new TextDecoder('latin1').decode(bytes)
    })
    const clean = createHttpTransport({ url: `http://${server.host}:${proxy.port}` })
    await clean.ping()
    await clean.close()
    proxy.setTap(undefined)
    const text = first
    const headerEnd = text.indexOf('\r\n\r\n') + 4
    expect(headerEnd).toBeGreaterThan(4)

    proxy.setFault({ cutAfter: { direction: 'toClient', bytes: headerEnd + 1 } })
    const calls = {
      serverInfo: (http: ReturnType<typeof createHttpTransport>) => http.serverInfo(),
      ping: (http: ReturnType<typeof createHttpTransport>) => http.ping(),
      query: async (http: ReturnType<typeof createHttpTransport>) => {
        for await (const _block of await http.query('SELECT number FROM numbers(10)')) {
          // Only reading.
        }
      },
    }
    for (const [call, run] of Object.entries(calls)) {
      const http = createHttpTransport({ url: `http://${server.host}:${proxy.port}` })
      try {
        const error = await run(http).then(
          () => undefined,
          (caught: unknown) => caught,
        )
        expect(ClickwireError.isInstance(error), `${call}: ${String(error)}`).toBe(true)
        expect(ConnectionError.isInstance(error), `${call}: ${String(error)}`).toBe(true)
      } finally {
        await http.close()
      }
    }
  } finally {
    await proxy.close()
  }
})
