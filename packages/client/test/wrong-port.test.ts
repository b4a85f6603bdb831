// A URL whose scheme does not match the port: clickhouse:// at the HTTP port and http:// at
// the native port each fail at once with a ConnectionError that names the other scheme,
// instead of waiting for the connect timeout. The HTTP port answers a native Hello with
// nothing (it waits for a request line), so the native client asks the port `GET /ping` on
// a second socket after a second of silence.
import { ConnectionError } from '@clickwire/protocol'
import { modernHandshakeAbort } from '@clickwire/testing'
import { expect, it } from 'vitest'
import { createClient } from '../src/index.js'
import { server, thrown } from './support/transports.js'

const modern = server.generation === 'modern'

it.skipIf(modern)(
  `says a clickhouse:// URL at the HTTP port speaks HTTP, well before its connect timeout (skipped on modern: ${modernHandshakeAbort}; a Hello left unanswered on its HTTP port has taken it down)`,
  async () => {
    await using ch = createClient({
      url: `clickhouse://${server.host}:${server.ports.http}`,
      connectTimeoutMs: 10_000,
    })
    const started = Date.now()
    const error = await thrown(() => ch.query('SELECT 1'))
    const elapsed = Date.now() - started
    expect(ConnectionError.isInstance(error), String(error)).toBe(true)
    expect((error as Error).message).toBe(
      `${server.host}:${server.ports.http} speaks HTTP, not the native protocol: it answered GET /ping and not our Hello. Use an http:// (or https://) URL for this port, or the server's native port (tcp_port, 9000 by default; 9440 with TLS) with clickhouse://`,
    )
    // Well before the 10 s connect timeout (generously: a loaded machine is slow to start).
    expect(elapsed).toBeLessThan(8_000)
  },
)

it('says an http:// URL at the native port names the native port, at once', async () => {
  await using ch = createClient({
    url: `http://${server.host}:${server.ports.tcp}`,
    connectTimeoutMs: 10_000,
  })
  const started = Date.now()
  const error = await thrown(() => ch.query('SELECT 1'))
  const elapsed = Date.now() - started
  expect(ConnectionError.isInstance(error), String(error)).toBe(true)
  expect((error as Error).message).toMatch(
    /^the server answered HTTP 400: Port \d+ is for clickhouse-client program\.?\r?\n[\s\S]* \(this URL names the native port: use a clickhouse:\/\/ URL for it, or the HTTP port with http:\/\/\)$/,
  )
  // Well before the 10 s connect timeout (generously: a loaded machine is slow to start).
  expect(elapsed).toBeLessThan(8_000)
  // The native port still serves native clients.
  await using native = createClient({ url: server.nativeUrl })
  expect(await (await native.query('SELECT 1 AS one')).rows()).toEqual([{ one: 1 }])
})
