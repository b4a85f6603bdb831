// A large insert whose connection dies while the client is still writing: a reset (RST) or
// a half-close (FIN), or a stall (nothing forwarded any more) after a given number of client bytes, through the fault proxy, on both
// transports. Every insert promise must settle with a typed error within its deadline, and
// a failed insert must leave nothing in the table: 1,000,000 rows stay below the server's
// squashing threshold (min_insert_block_size_rows = 1,048,576), so nothing is committed
// before the end of the request. The existing insert fault suite sends 2,000 rows, too few
// to fill a socket buffer, so it never reached the client's write path under backpressure.
import { ClickwireError, createClient } from '@clickwire/client'
import type { Fault } from '@clickwire/testing'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { longMode } from './support/fault-plan.js'
import { proxiedClient, transports } from './support/proxied-client.js'

const server = inject('clickhouse')
const totalRows = 1_000_000
const chunkRows = 50_000
const deadlineMs = 3000
/**
 * How long past its deadline a promise may take to settle (a stalled server is torn down):
 * generous, for a loaded machine runs every timer and teardown late.
 */
const graceMs = 5000
/** How long the server may take to let go of a broken insert (generous, for the same reason). */
const releaseMs = 20_000
/** Client-to-server byte offsets: the 96,257, then a spread over the first ~2 MB. */
const offsets = [
  96_257,
  ...Array.from({ length: longMode ? 59 : 5 }, (_, i) => 40_000 + i * (longMode ? 34_000 : 400_000)),
]
const tally: Record<
  string,
  { started: number; settled: number; rowsLeft: number[]; outcomes: Record<string, number> }
> = {}

/** The rows in chunks; `pulled.all` turns true once the client has asked past the last chunk. */
async function* rows(pulled = { all: false }): AsyncGenerator<{ id: number; s: string }[]> {
  for (let start = 0; start < totalRows; start += chunkRows) {
    yield Array.from({ length: chunkRows }, (_, i) => ({
      id: start + i,
      s: `value ${start + i} of the large insert`,
    }))
  }
  pulled.all = true
}

/**
 * Every insert squashes by rows only (`min_insert_block_size_bytes = 0`): what the client
 * may say of rows sent short of the end then depends on rows alone, and they all stay below
 * the rows threshold, on both sides (see expectedOutcomes).
 */
const insertOptions = { settings: { min_insert_block_size_bytes: 0 } }

/**
 * The outcomes that are true for what the client saw when its insert broke: a broken
 * connection, or its own deadline first.
 * - A reset or a cut breaks the connection while data is still going out, below the
 *   squashing threshold: nothing was written (the table checked after agrees).
 * - A stalled proxy still takes every byte, so a client that sent it all before its
 *   deadline knows only that the answer is missing: `unknown` (may have been written).
 * - But a loaded machine can take longer than the deadline to encode and send the rows, and
 *   it can run the deadline's timer before it reads the reset that came meanwhile (timers
 *   run before I/O in Node's event loop, and both were queued behind the encoding). Then it
 *   is the client that stops an insert that had not sent everything. No server stores such
 *   an insert: the client holds back each block's last byte until the next packet, so a
 *   stopped insert leaves the server a block cut short (18.16 would commit data that ends
 *   at a block boundary), and the rows sent stay below the squashing threshold: `not-written`
 *   on every generation. Until the client has pulled the producer's last chunk it certainly
 *   had not sent everything, so only that is true; after, `unknown` is too (the end may
 *   have gone out).
 */
function expectedOutcomes(error: string, pulledAll: boolean): string[] {
  if (error === 'ConnectionError') return ['not-written']
  return pulledAll ? ['unknown', 'not-written'] : ['not-written']
}

/** The sentence each outcome's message carries. */
const explanation: Record<string, string> = {
  unknown: 'the insert may have been written',
  incomplete: 'the insert is incomplete',
  'not-written': 'the insert was not written',
}

afterAll(() => {
  console.log(`[faults] large inserts: ${JSON.stringify(tally)}`)
})

for (const transport of transports) {
  describe(`${transport}: a large insert whose connection dies while the client writes`, () => {
    const direct = createClient({ url: transport === 'native' ? server.nativeUrl : server.httpUrl })
    const table = `reliability_large_${transport}_${Date.now().toString(36)}`
    afterAll(async () => {
      await direct.command(`DROP TABLE IF EXISTS ${table}`)
      await direct.close()
    })

    it('close() settles an insert that is stuck writing to a stalled connection, at once', async () => {
      await direct.command(
        `CREATE TABLE IF NOT EXISTS ${table} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`,
      )
      await direct.command(`TRUNCATE TABLE ${table}`)
      // No deadline at all: only close() can end it.
      const proxied = await proxiedClient(server, transport, {
        stallAfter: { direction: 'toServer', bytes: 200_000 },
      })
      try {
        let early: string | undefined
        const insert = proxied.client.insert(table, rows()).then(
          () => 'success',
          (error: unknown) => {
            early ??= String(error)
            return (error as Error).name
          },
        )
        // Wait until the client is writing into the stall (generously: a loaded machine is
        // slow to start), unless the insert already ended (the message then says how).
        for (
          const until = Date.now() + 30_000;
          Date.now() < until && proxied.proxy.forwarded.toServer < 200_000 && early === undefined;
        )
          await new Promise((resolve) => setTimeout(resolve, 20))
        expect(
          proxied.proxy.forwarded.toServer,
          early ?? 'the insert is still running',
        ).toBeGreaterThanOrEqual(200_000)
        // The insert has no deadline, so settling at all shows close() ended it; the bound is
        // only there to fail instead of hanging, generous for a loaded machine.
        const closing = Date.now()
        let timer: NodeJS.Timeout | undefined
        const closed = proxied.client.close()
        const outcome = await Promise.race([
          insert,
          new Promise<'hung'>((resolve) => {
            timer = setTimeout(() => resolve('hung'), 10_000)
          }),
        ])
        clearTimeout(timer)
        expect(outcome).not.toBe('hung')
        expect(['AbortError', 'ConnectionError']).toContain(outcome)
        expect(Date.now() - closing).toBeLessThan(10_000)
        await closed
      } finally {
        await proxied.close()
      }
      const counted = await direct.query(`SELECT count() AS c FROM ${table}`)
      expect(await counted.rows()).toEqual([{ c: 0n }])
    }, 60_000)

    for (const kind of ['resetAfter', 'cutAfter', 'stallAfter'] as const) {
      // Every offset lies past the handshake (about 100 bytes), which the modern engine does
      // not survive breaking (modernHandshakeAbort).
      it(
        `${kind}: every insert settles with a typed error within its deadline and leaves no rows`,
        async () => {
          await direct.command(
            `CREATE TABLE IF NOT EXISTS ${table} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`,
          )
          const key = `${transport} ${kind}`
          const record = (tally[key] ??= { started: 0, settled: 0, rowsLeft: [], outcomes: {} })
          for (const bytes of offsets) {
            await direct.command(`TRUNCATE TABLE ${table}`)
            const fault: Fault = { [kind]: { direction: 'toServer', bytes } }
            const proxied = await proxiedClient(server, transport, fault, {
              requestTimeoutMs: deadlineMs,
              connectTimeoutMs: deadlineMs,
            })
            try {
              record.started++
              const started = Date.now()
              const pulled = { all: false }
              let timer: NodeJS.Timeout | undefined
              const hung = new Promise<'hung'>((resolve) => {
                timer = setTimeout(() => resolve('hung'), deadlineMs + graceMs)
              })
              const outcome = await Promise.race([
                proxied.client.insert(table, rows(pulled), insertOptions).then(
                  (result) => ({ ok: true as const, result }),
                  (error: unknown) => ({ ok: false as const, error }),
                ),
                hung,
              ])
              clearTimeout(timer)
              const where = `${key} at ${bytes} bytes, after ${Date.now() - started} ms`
              expect(outcome, where).not.toBe('hung')
              if (outcome === 'hung') continue
              record.settled++
              // The connection broke long before the last row was sent: this cannot succeed.
              expect(outcome.ok, where).toBe(false)
              if (outcome.ok) continue
              expect(ClickwireError.isInstance(outcome.error), `${where}: ${String(outcome.error)}`).toBe(
                true,
              )
              expect((outcome.error as ClickwireError).name, where).toMatch(
                /^(ConnectionError|TimeoutError)$/,
              )
              const error = outcome.error as ClickwireError
              const said = error.insertOutcome
              const seen = `${error.name} ${said}`
              record.outcomes[seen] = (record.outcomes[seen] ?? 0) + 1
              expect(said, `${where}: ${error.message}`).toBeOneOf(expectedOutcomes(error.name, pulled.all))
              expect(error.message, where).toContain(explanation[said!])
              // Nothing committed: wait until the server has let go of the broken insert.
              let left = -1
              for (const until = Date.now() + releaseMs; Date.now() < until; ) {
                const running = await direct.query(
                  `SELECT count() AS c FROM system.processes WHERE query LIKE 'INSERT INTO ${table}%'`,
                )
                const [row] = (await running.rows()) as { c: bigint }[]
                if (row?.c === 0n) break
                await new Promise((resolve) => setTimeout(resolve, 100))
              }
              const counted = await direct.query(`SELECT count() AS c FROM ${table}`)
              left = Number(((await counted.rows()) as { c: bigint }[])[0]?.c)
              record.rowsLeft.push(left)
              expect(left, where).toBe(0)
            } finally {
              await proxied.close()
            }
          }
          expect(record.settled).toBe(record.started)
        }, // Each offset may take its deadline, the grace and the wait for the server to let go.
        Math.max(240_000, offsets.length * (deadlineMs + graceMs + releaseMs)),
      )
    }
  })
}
