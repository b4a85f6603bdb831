// An insert error tells the truth about the rows it stored (issue 29, point 2), on both
// transports and every server generation, with the server's count() as the oracle:
// - values in memory are encoded whole before the first block goes out, so a bad value in a
//   late row fails the insert with none of its bytes sent;
// - an insert that stops part way (its source throws, an abort) stores nothing: each block's
//   last byte is held back until the next one goes out, so the server always has a block cut
//   short, which it takes as an error (18.16 stored data that ended at a block boundary);
// - every error says so in its insertOutcome.
import { FaultProxy } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { AbortError, type ClickwireError, createClient, UsageError } from '../src/index.js'
import { serverRun } from './support/server-oracle.js'
import { clientFor, server, thrown, transports, uniqueTable } from './support/transports.js'

const blockRows = 1000

/** `blocks` blocks of rows, then whatever `after` does (throw, abort). */
async function* rowsThen(blocks: number, after: () => Promise<unknown>) {
  let rid = 0
  for (let block = 0; block < blocks; block++) {
    yield Array.from({ length: blockRows }, () => ({ rid: rid++, u8: 1 }))
  }
  await after()
}

async function count(table: string): Promise<string> {
  return (await serverRun(`SELECT count() FROM ${table} FORMAT TSV`)).trim()
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function withTable(prefix: string, run: (table: string) => Promise<void>): Promise<void> {
  const table = uniqueTable(prefix)
  await serverRun(`CREATE TABLE ${table} (rid UInt32, u8 UInt8) ENGINE = MergeTree ORDER BY rid`)
  try {
    await run(table)
  } finally {
    await serverRun(`DROP TABLE IF EXISTS ${table}`)
  }
}

describe.each(transports)('an in-memory insert with a bad value over %s', (transport) => {
  const total = 200_000
  const message = 'column [1] "u8" UInt8: row 150000: 300 is not a valid UInt8 (out of range)'

  it('fails with the UsageError before any of its blocks goes out, as rows and as columns', async () => {
    const target = { host: server.host, port: transport === 'native' ? server.ports.tcp : server.ports.http }
    const proxy = await FaultProxy.start(target, {}, { resetServer: server.generation !== 'modern' })
    let toServer = 0
    proxy.setTap((_connection, direction, bytes) => {
      if (direction === 'toServer') toServer += bytes.length
    })
    const scheme = transport === 'native' ? 'clickhouse' : 'http'
    const ch = createClient({ url: `${scheme}://127.0.0.1:${proxy.port}` })
    try {
      await withTable('whole_rows', async (table) => {
        const rows = Array.from({ length: total }, (_, rid) => ({ rid, u8: rid === 150_000 ? 300 : 7 }))
        const rid = Uint32Array.from({ length: total }, (_, index) => index)
        const u8 = rows.map((row) => row.u8)
        for (const values of [rows, { rid, u8 }]) {
          await ch.ping()
          const before = toServer
          const error = await thrown(() => ch.insert(table, values))
          expect(UsageError.isInstance(error), String(error)).toBe(true)
          expect((error as ClickwireError).message).toBe(message)
          expect((error as ClickwireError).insertOutcome).toBe('not-written')
          // The statement (and over HTTP the table's DESCRIBE) went out, none of the blocks:
          // the blocks of the good run below are hundreds of KB, compressed or not.
          expect(toServer - before).toBeLessThan(20_000)
          expect(await count(table)).toBe('0')
        }
        // The same rows with the value mended go in whole: the bytes above were the rows'.
        rows[150_000]!.u8 = 7
        const before = toServer
        await ch.insert(table, rows)
        expect(toServer - before).toBeGreaterThan(200_000)
        expect(await count(table)).toBe(String(total))
      })
    } finally {
      await ch.close()
      await proxy.close()
    }
  })
})

describe.each(transports)('a stopped insert over %s', (transport) => {
  it('whose source throws after 2 blocks stores nothing, and says not-written', async () => {
    await using ch = clientFor(transport, { insertBlockRows: blockRows })
    await withTable('stopped_throw', async (table) => {
      const boom = new Error('the source broke')
      const error = await thrown(() =>
        ch.insert(
          table,
          rowsThen(2, async () => {
            // Let the two blocks reach the server before the source fails.
            await pause(300)
            throw boom
          }),
        ),
      )
      expect(error).toBe(boom)
      expect((error as { insertOutcome?: string }).insertOutcome).toBe('not-written')
      expect(await count(table)).toBe('0')
    })
  })

  it('whose value in its third block is bad stores nothing, and says not-written', async () => {
    await using ch = clientFor(transport, { insertBlockRows: blockRows })
    await withTable('stopped_value', async (table) => {
      async function* rows() {
        yield* rowsThen(2, () => pause(300))
        yield [{ rid: 5000, u8: 300 }]
      }
      const error = await thrown(() => ch.insert(table, rows()))
      expect(UsageError.isInstance(error), String(error)).toBe(true)
      expect((error as ClickwireError).message).toBe(
        'column [1] "u8" UInt8: row 2000: 300 is not a valid UInt8 (out of range)',
      )
      expect((error as ClickwireError).insertOutcome).toBe('not-written')
      expect(await count(table)).toBe('0')
    })
  })

  it('aborted after 2 blocks stores nothing, and says not-written', async () => {
    await using ch = clientFor(transport, { insertBlockRows: blockRows })
    await withTable('stopped_abort', async (table) => {
      const controller = new AbortController()
      const error = await thrown(() =>
        ch.insert(
          table,
          rowsThen(2, async () => {
            await pause(300)
            controller.abort()
            await pause(500)
          }),
          { signal: controller.signal },
        ),
      )
      expect(AbortError.isInstance(error), String(error)).toBe(true)
      expect((error as ClickwireError).insertOutcome).toBe('not-written')
      // The server drops the insert when it reads the cut block: give it time to.
      await pause(1000)
      expect(await count(table)).toBe('0')
    })
  })

  it('refused by the server says not-written, and a closed client too', async () => {
    const ch = clientFor(transport)
    const missing = await thrown(() => ch.insert(uniqueTable('no_such_table'), [{ rid: 1 }]))
    expect((missing as ClickwireError).name).toBe('ClickHouseError')
    expect((missing as ClickwireError).insertOutcome).toBe('not-written')
    await ch.close()
    const closed = await thrown(() => ch.insert('t', [{ rid: 1 }]))
    expect(UsageError.isInstance(closed), String(closed)).toBe(true)
    expect((closed as ClickwireError).insertOutcome).toBe('not-written')
  })
})
