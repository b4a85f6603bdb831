// What an insert's error says about its rows when every byte of it reached the server and
// the confirmation did not come back: the server stored the rows, and the client, which
// never heard so, must say the insert may have been written rather than report a plain
// failure. The proxy holds back everything the server sends from the moment the client's
// last byte (its end marker, or the end of the HTTP body) went out, counted in a clean run
// of the same calls. The client's bytes are counted, not the server's: the server's answers
// vary in length from run to run (HTTP headers carry timings). (Breaks while data is still going out, which must say "not written",
// are in apps/reliability's faults-large-insert test.)
import { ClickwireError, createClient } from '@clickwire/client'
import { FaultProxy } from '@clickwire/testing'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { transports } from './support/transports.js'

const server = inject('clickhouse')
const rows = Array.from({ length: 100 }, (_, id) => ({ id, s: `row ${id}` }))
// The modern engine dies on a reset of a connection it reads from: end its side with a FIN.
const proxyOptions = { resetServer: server.generation !== 'modern' }

for (const transport of transports) {
  describe(`${transport}: an insert whose confirmation is lost`, () => {
    const direct = createClient({ url: transport === 'native' ? server.nativeUrl : server.httpUrl })
    const table = `insert_outcome_${transport}_${Date.now().toString(36)}`
    afterAll(async () => {
      await direct.command(`DROP TABLE IF EXISTS ${table}`)
      await direct.close()
    })

    it('says the insert may have been written, and the server has it', async () => {
      await direct.command(`CREATE TABLE ${table} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`)
      const target = {
        host: server.host,
        port: transport === 'native' ? server.ports.tcp : server.ports.http,
      }
      const scheme = transport === 'native' ? 'clickhouse' : 'http'
      // 1. A clean run: how many bytes the client sends, up to the end of the insert.
      const clean = await FaultProxy.start(target, {}, proxyOptions)
      let fromClient = 0
      clean.setTap((_connection, direction, bytes) => {
        if (direction === 'toServer') fromClient += bytes.length
      })
      const measured = createClient({ url: `${scheme}://127.0.0.1:${clean.port}`, maxConnections: 1 })
      await measured.ping()
      await measured.insert(table, rows)
      const throughInsert = fromClient
      await measured.close()
      await clean.close()
      await direct.command(`TRUNCATE TABLE ${table}`)
      expect(throughInsert).toBeGreaterThan(0)

      // 2. The same calls, with the server's bytes held back from there on.
      const proxy = await FaultProxy.start(
        target,
        { holdAfter: { direction: 'toServer', bytes: throughInsert, hold: 'toClient' } },
        proxyOptions,
      )
      const client = createClient({
        url: `${scheme}://127.0.0.1:${proxy.port}`,
        maxConnections: 1,
        requestTimeoutMs: 3000,
      })
      try {
        await client.ping()
        const failure = await client.insert(table, rows).then(
          () => undefined,
          (error: unknown) => error as ClickwireError,
        )
        expect(failure, 'an insert is never a success without its confirmation').toBeDefined()
        expect(ClickwireError.isInstance(failure), String(failure)).toBe(true)
        expect(failure!.name).toBe('TimeoutError')
        expect(failure!.insertOutcome).toBe('unknown')
        expect(failure!.message).toContain(
          'the insert may have been written: all of its data was sent, but the server did not confirm it (retrying may duplicate it)',
        )
      } finally {
        await client.close()
        await proxy.close()
      }
      // The server did store it: "may have been written" was the honest answer.
      const counted = await direct.query(`SELECT count() AS c, sum(id) AS s FROM ${table}`)
      expect(await counted.rows()).toEqual([{ c: 100n, s: 4950n }])
    })
  })
}
