// The FaultProxy features this suite added (packages/testing/src/fault-proxy.ts): a tap
// that sees every forwarded byte, byte totals per direction, the peak of connections open
// at once, and a count of the proxy's own open sockets.
import { connect } from 'node:net'
import { FaultProxy } from '@clickwire/testing'
import { expect, inject, it } from 'vitest'

const server = inject('clickhouse')

async function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
    })
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
    socket.write(request)
  })
}

it('taps, counts and reports what it forwarded', async () => {
  const proxy = await FaultProxy.start({ host: server.host, port: server.ports.http })
  try {
    const seen = { toServer: '', toClient: '' }
    proxy.setTap((connection, direction, bytes) => {
      expect(connection).toBe(1)
      seen[direction] += Buffer.from(bytes).toString('latin1')
    })
    const request = 'GET /?query=SELECT%2042 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
    const answer = await exchange(proxy.port, request)
    expect(answer).toMatch(/\r\n\r\n(?:[0-9a-f]+\r\n)?42\n/)
    expect(seen).toEqual({ toServer: request, toClient: answer })
    expect(proxy.forwarded).toEqual({ toServer: request.length, toClient: answer.length })
    expect(proxy.peakOpen).toBe(1)
    // Generous: a loaded machine closes sockets late (a quiet one at once).
    for (const until = Date.now() + 10_000; Date.now() < until && proxy.openSockets > 0; )
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(proxy.openSockets).toBe(0)
    proxy.resetPeak()
    expect(proxy.peakOpen).toBe(0)
  } finally {
    await proxy.close()
  }
})
