import { createClient } from '@clickwire/client'
import { concatBytes, FaultProxy, type ServerInfo } from '@clickwire/testing'
import { blockBoundaries } from '../../src/fuzz/http-trailers.js'
import type { HttpRecording, NativeRecording } from '../../src/fuzz/recorded-streams.js'
import { proxyOptions } from './proxied-client.js'

/**
 * What the server sent on one native connection that ran one query: recorded by a
 * FaultProxy's tap between the public client and the real server.
 */
export async function recordNative(server: ServerInfo, recording: NativeRecording): Promise<Uint8Array> {
  const proxy = await FaultProxy.start(
    { host: server.host, port: server.ports.tcp },
    {},
    proxyOptions(server, 'native'),
  )
  const received: Uint8Array[] = []
  proxy.setTap((connection, direction, bytes) => {
    if (connection === 1 && direction === 'toClient') received.push(Uint8Array.from(bytes))
  })
  const client = createClient({
    url: `clickhouse://127.0.0.1:${proxy.port}/default`,
    compression: recording.compression,
    maxConnections: 1,
  })
  try {
    await client
      .query(recording.sql, { settings: recording.settings })
      .then((result) => result.rows())
      .catch(() => undefined)
  } finally {
    await client.close()
    await proxy.close()
  }
  return concatBytes(...received)
}

/** The body of a `FORMAT Native` HTTP response, cut down as the recording says. */
export async function recordHttp(server: ServerInfo, recording: HttpRecording): Promise<Uint8Array> {
  const search = new URLSearchParams({ default_format: 'Native' })
  for (const [name, value] of Object.entries(recording.settings)) search.set(name, String(value))
  const response = await fetch(`${server.httpUrl}/?${search}`, { method: 'POST', body: recording.sql })
  const body = new Uint8Array(await response.arrayBuffer())
  if (recording.keepBlocks === undefined) return body
  const { starts, end } = blockBoundaries(body)
  const cut = starts[recording.keepBlocks] ?? end
  return concatBytes(body.subarray(0, cut), body.subarray(end))
}
