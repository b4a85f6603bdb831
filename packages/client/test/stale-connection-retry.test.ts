// One retry policy on both transports (protocol's retry-policy.ts): after the pooled
// connection was reset (a restart, a load balancer), a request that failed before any answer
// is sent again only when repeating it cannot do harm: reads, and inserts none of whose rows
// had left. A statement that writes by its text (DDL here) is never sent twice.
import { ConnectionError } from '@clickwire/protocol'
import { FaultProxy } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { createClient } from '../src/index.js'
import { clientFor, server, transports, uniqueTable } from './support/transports.js'

/** A client through a proxy that can reset its pooled connection when it is next used, with one in use. */
async function proxied(transport: (typeof transports)[number]) {
  const proxy = await FaultProxy.start(
    { host: server.host, port: transport === 'native' ? server.ports.tcp : server.ports.http },
    {},
    // The modern engine aborts on an RST from a connection it reads: its side gets a FIN.
    { resetServer: server.generation !== 'modern' },
  )
  const scheme = transport === 'native' ? 'clickhouse' : 'http'
  const client = createClient({ url: `${scheme}://127.0.0.1:${proxy.port}`, maxConnections: 1 })
  expect(await (await client.query('SELECT 1 AS warm')).rows()).toEqual([{ warm: 1 }])
  return {
    proxy,
    client,
    async [Symbol.asyncDispose]() {
      await client.close()
      await proxy.close()
    },
  }
}

describe.each(transports)('%s', (transport) => {
  it('sends a read again after its pooled connection was reset', async () => {
    await using setup = await proxied(transport)
    setup.proxy.resetNextRequest()
    expect(await (await setup.client.query('SELECT 42 AS answer')).rows()).toEqual([{ answer: 42 }])
  })

  it('sends an insert again whose rows had not left, and the rows are written once', async () => {
    await using direct = clientFor(transport)
    const table = uniqueTable(`stale_insert_${transport}`)
    await direct.command(`CREATE TABLE ${table} (x UInt8) ENGINE = Memory`)
    try {
      await using setup = await proxied(transport)
      setup.proxy.resetNextRequest()
      const result = await setup.client.insert(table, [{ x: 1 }, { x: 2 }])
      expect(result.rowsWritten).toBe(2)
      expect(await (await direct.query(`SELECT x FROM ${table} ORDER BY x`)).rows()).toEqual([
        { x: 1 },
        { x: 2 },
      ])
    } finally {
      await direct.command(`DROP TABLE ${table}`)
    }
  })

  it('never sends a DDL statement again: it fails with the ConnectionError', async () => {
    await using direct = clientFor(transport)
    const table = uniqueTable(`stale_ddl_${transport}`)
    await using setup = await proxied(transport)
    setup.proxy.resetNextRequest()
    const error = await setup.client.command(`CREATE TABLE ${table} (x UInt8) ENGINE = Memory`).then(
      () => undefined,
      (caught: unknown) => caught,
    )
    await direct.command(`DROP TABLE IF EXISTS ${table}`)
    expect(ConnectionError.isInstance(error), String(error)).toBe(true)
  })
})
