// The compression option in every shape a user brings, @clickhouse/client's booleans
// included, measured on the wire: a FaultProxy between client and server counts the bytes
// of an insert (toServer) and of a select (toClient), and for HTTP shows the headers sent.
import { FaultProxy } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ClientOptions, createClient, UsageError } from '../src/index.js'
import { clientFor, server, thrown, transports, uniqueTable } from './support/transports.js'

const proxies: Partial<Record<'native' | 'http', FaultProxy>> = {}
const table = uniqueTable('compression_shapes')
// 4 000 rows of 100 repetitive bytes: ~400 KB plain, a few KB in any codec.
const rows = Array.from({ length: 4000 }, (_, id) => ({ id, s: 'clickwire '.repeat(10) }))
const plainBytes = 400_000

beforeAll(async () => {
  proxies.native = await FaultProxy.start({ host: server.host, port: server.ports.tcp })
  proxies.http = await FaultProxy.start({ host: server.host, port: server.ports.http })
  await using ch = clientFor('http')
  await ch.command(`CREATE TABLE ${table} (id UInt32, s String) ENGINE = Memory`)
})

afterAll(async () => {
  await proxies.native?.close()
  await proxies.http?.close()
  await using ch = clientFor('http')
  await ch.command(`DROP TABLE IF EXISTS ${table}`)
})

type Compression = ClientOptions['compression']

describe.each(transports)('%s', (transport) => {
  const scheme = transport === 'native' ? 'clickhouse' : 'http'

  /** Bytes on the wire for one insert of `rows` and one select of them back, through the proxy. */
  async function measure(compression: Compression) {
    const proxy = proxies[transport]!
    const seen: string[] = []
    proxy.setTap((_connection, direction, bytes) => {
      if (transport === 'http') seen.push(`${direction}:${new TextDecoder('latin1').decode(bytes)}`)
    })
    await using ch = createClient({ url: `${scheme}://${server.host}:${proxy.port}`, compression })
    await ch.ping()
    await ch.command(`TRUNCATE TABLE ${table}`)
    const beforeInsert = proxy.forwarded.toServer
    await ch.insert(table, rows)
    const sent = proxy.forwarded.toServer - beforeInsert
    const beforeSelect = proxy.forwarded.toClient
    const back = await (await ch.query(`SELECT id, s FROM ${table} ORDER BY id`)).rows()
    const received = proxy.forwarded.toClient - beforeSelect
    proxy.setTap(undefined)
    expect(back).toEqual(rows)
    return {
      sent: sent < plainBytes / 10 ? 'compressed' : 'plain',
      received: received < plainBytes / 10 ? 'compressed' : 'plain',
      gzipRequest: seen.some((chunk) => /^toServer:[\s\S]*content-encoding: gzip\r\n/i.test(chunk)),
      sentBytes: sent,
      receivedBytes: received,
    }
  }

  const native = transport === 'native'
  it.each<[string, 'compressed' | 'plain', 'compressed' | 'plain', Compression]>([
    ['{ request: true }', 'compressed', native ? 'compressed' : 'plain', { request: true }],
    ['{ response: true }', native ? 'compressed' : 'plain', 'compressed', { response: true }],
    ['true', 'compressed', 'compressed', true],
    ['{ request: false, response: false }', 'plain', 'plain', { request: false, response: false }],
    ['false', 'plain', 'plain', false],
    ["'none'", 'plain', 'plain', 'none'],
  ])(
    'compression %s: the insert goes %s, the answer comes %s',
    async (_name, sent, received, compression) => {
      const measured = await measure(compression)
      expect({ sent: measured.sent, received: measured.received }, JSON.stringify(measured)).toEqual({
        sent,
        received,
      })
    },
  )

  it.runIf(transport === 'http')('{ request: true } is gzip, as in @clickhouse/client', async () => {
    expect((await measure({ request: true })).gzipRequest).toBe(true)
    expect((await measure({ request: 'lz4' })).gzipRequest).toBe(false)
  })

  it.runIf(transport === 'native')("'gzip' is a UsageError that says what native takes", async () => {
    const error = await thrown(async () => {
      await using ch = createClient({
        url: `clickhouse://${server.host}:${server.ports.tcp}`,
        compression: 'gzip',
      })
      await ch.ping()
    })
    expect(error).toBeInstanceOf(UsageError)
    expect((error as Error).message).toBe(
      "native compression must be lz4, zstd or none, got gzip (gzip is HTTP's Content-Encoding)",
    )
  })

  it('a value of the wrong kind is a UsageError naming the option, not a TypeError', async () => {
    const error = await thrown(async () => {
      await using ch = createClient({
        url: `${scheme}://${server.host}:${transport === 'native' ? server.ports.tcp : server.ports.http}`,
        compression: { request: 1 } as never,
      })
      await ch.ping()
    })
    expect(error).toBeInstanceOf(UsageError)
    expect((error as Error).message).toBe(
      'compression.request must be a method name, a list of them, true or false, got 1',
    )
  })
})
