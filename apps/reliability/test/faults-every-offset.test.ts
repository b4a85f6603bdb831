// A small exchange broken at every byte offset, in each direction, by a reset and by a cut:
// a cold client's first query (its handshake and server detection included) and a small
// insert, on both transports. Every started call must settle within its deadline with a
// correct success or a typed error, and a failed insert must leave nothing, or say it may
// have been written and then hold all of it. (The large exchange, at a spread of offsets,
// is faults-large-insert; the full survival checks at sampled offsets are faults-query and
// faults-insert.) On the modern engine the native cases that break the handshake are
// skipped: that engine aborts on them (modernHandshakeAbort).
import { ClickwireError, createClient } from '@clickwire/client'
import { type Direction, type Fault, modernHandshakeAbort } from '@clickwire/testing'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { cleanTraffic, landsInHandshake, nativeHandshake } from './support/fault-case.js'
import { proxiedClient, transports } from './support/proxied-client.js'

const server = inject('clickhouse')
const deadlineMs = 1500
/** How long past its deadline a case may settle: generous, for a loaded machine runs timers late. */
const graceMs = 5000
/** Ten rows tagged with their case, so a late commit of one case never counts for another. */
const rowsOf = (tag: number) => Array.from({ length: 10 }, (_, id) => ({ c: tag, id, s: `row ${id}` }))
let tag = 0
const figures: Record<
  string,
  { started: number; settled: number; outcomes: Record<string, number>; skipped: number }
> = {}

afterAll(() => {
  console.log(`[faults] every offset: ${JSON.stringify(figures)}`)
})

/**
 * Cases run a few at a time: each is a fresh client through its own proxy, and a case
 * spends most of its time waiting on the network, so four at once take a third of the
 * time of one after another (the modern server's exchange has ~12 000 offsets).
 */
const casesAtOnce = 4

/** Runs `work` over `items`, at most `limit` at a time; rejects with the first failure. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0
  const worker = async () => {
    while (next < items.length) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: limit }, worker))
}

/** Every offset from the first byte to the last but one. */
function offsets(total: number): number[] {
  return Array.from({ length: Math.max(0, total - 1) }, (_, i) => i + 1)
}

const handshake = server.generation === 'modern' ? await nativeHandshake(server) : undefined

for (const transport of transports) {
  const direct = createClient({ url: transport === 'native' ? server.nativeUrl : server.httpUrl })
  const table = `reliability_offsets_${transport}_${Date.now().toString(36)}`
  const operations = {
    query: {
      run: async (client: ReturnType<typeof createClient>, _caseTag: number) =>
        (await client.query('SELECT number AS n FROM system.numbers LIMIT 3')).rows(),
      check: (value: unknown) =>
        JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v)) ===
        '[{"n":0},{"n":1},{"n":2}]',
    },
    insert: {
      run: (client: ReturnType<typeof createClient>, caseTag: number) =>
        client.insert(table, rowsOf(caseTag)),
      check: () => true,
    },
  } as const

  describe(`${transport}: a small exchange broken at every offset`, () => {
    afterAll(async () => {
      await direct.command(`DROP TABLE IF EXISTS ${table}`)
      await direct.close()
    })

    for (const [name, operation] of Object.entries(operations)) {
      for (const kind of ['resetAfter', 'cutAfter'] as const) {
        it(`${name}, ${kind}: every call settles in time with a correct answer or a typed error${handshake && transport === 'native' ? ` (handshake offsets skipped: ${modernHandshakeAbort})` : ''}`, async () => {
          await direct.command(
            `CREATE TABLE IF NOT EXISTS ${table} (c UInt32, id UInt32, s String) ENGINE = MergeTree ORDER BY (c, id)`,
          )
          const clientOptions = {
            requestTimeoutMs: deadlineMs,
            connectTimeoutMs: deadlineMs,
            maxConnections: 1,
          }
          const traffic = await cleanTraffic(
            server,
            transport,
            clientOptions,
            (client) => operation.run(client, 0),
            'cold',
          )
          await direct.command(`TRUNCATE TABLE ${table}`)
          const key = `${transport} ${name} ${kind}`
          const expected = new Map<number, string | undefined>()
          const record = (figures[key] ??= { started: 0, settled: 0, outcomes: {}, skipped: 0 })
          const faults: { fault: Fault; where: string }[] = []
          for (const direction of ['toServer', 'toClient'] as Direction[]) {
            for (const bytes of offsets(traffic[direction])) {
              const fault = { [kind]: { direction, bytes } }
              if (handshake && transport === 'native' && landsInHandshake(fault, handshake)) record.skipped++
              else faults.push({ fault, where: `${key} ${direction} at ${bytes} of ${traffic[direction]}` })
            }
          }
          await inParallel(faults, casesAtOnce, async ({ fault, where }) => {
            const caseTag = ++tag
            const proxied = await proxiedClient(server, transport, fault, clientOptions)
            try {
              record.started++
              let timer: NodeJS.Timeout | undefined
              const started = Date.now()
              const outcome = await Promise.race([
                operation.run(proxied.client, caseTag).then(
                  (value) => ({ ok: true as const, value }),
                  (error: unknown) => ({ ok: false as const, error }),
                ),
                new Promise<'hung'>((resolve) => {
                  timer = setTimeout(() => resolve('hung'), deadlineMs + graceMs)
                }),
              ])
              clearTimeout(timer)
              expect(outcome, `${where}, after ${Date.now() - started} ms`).not.toBe('hung')
              if (outcome === 'hung') return
              record.settled++
              const label = outcome.ok ? 'success' : (outcome.error as Error).name
              record.outcomes[label] = (record.outcomes[label] ?? 0) + 1
              if (outcome.ok) expect(operation.check(outcome.value), where).toBe(true)
              else
                expect(ClickwireError.isInstance(outcome.error), `${where}: ${String(outcome.error)}`).toBe(
                  true,
                )
              if (name !== 'insert') return
              // What the insert left is checked once every case is over (a broken insert
              // may still be committing): all of it after a success, all or nothing after
              // "may have been written", nothing otherwise.
              expected.set(caseTag, outcome.ok ? 'success' : (outcome.error as ClickwireError).insertOutcome)
            } finally {
              await proxied.close()
            }
          })
          expect(record.settled).toBe(record.started)
          if (name !== 'insert') return
          // Generous: a loaded server lets go of a broken insert late (a quiet one at once).
          for (const until = Date.now() + 30_000; Date.now() < until; ) {
            const running = await direct.query(
              `SELECT count() AS c FROM system.processes WHERE query LIKE 'INSERT INTO ${table}%'`,
            )
            if (((await running.rows()) as { c: bigint }[])[0]?.c === 0n) break
            await new Promise((resolve) => setTimeout(resolve, 25))
          }
          await new Promise((resolve) => setTimeout(resolve, 500))
          const stored = new Map<number, number>()
          const counted = await direct.query(`SELECT c, count() AS n FROM ${table} GROUP BY c`)
          for (const row of (await counted.rows()) as { c: number; n: bigint }[])
            stored.set(row.c, Number(row.n))
          const rowsChecked = { written: 0, notWritten: 0 }
          for (const [each, said] of expected) {
            const left = stored.get(each) ?? 0
            const where = `${key}, case ${each}: ${said}`
            if (said === 'success') expect(left, where).toBe(10)
            else if (said === 'unknown') expect([0, 10], where).toContain(left)
            else expect(left, where).toBe(0)
            if (left > 0) rowsChecked.written++
            else rowsChecked.notWritten++
          }
          ;(record as Record<string, unknown>).rowsChecked = rowsChecked
          await direct.command(`TRUNCATE TABLE ${table}`)
        }, 600_000)
      }
    }
  })
}
