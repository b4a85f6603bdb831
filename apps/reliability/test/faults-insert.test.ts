// Inserts through a fault-injecting proxy in front of the real server, on both transports,
// and what each cut leaves in the table. Besides everything the query cases check (typed
// error or success within the timeout, no leaks, a pool that recovers), an insert must
// never be reported as a success unless all of it was committed, and the rows a failed
// insert leaves are whole blocks:
//
// - ClickHouse writes an insert's blocks as it parses them, after squashing them up to
//   min_insert_block_size_rows (default 1,048,576) / _bytes; nothing is committed at the
//   end of the request as a unit. So with the defaults, an insert of fewer rows than that
//   which breaks off commits nothing; with squashing off (min_insert_block_size_rows = 1),
//   or with blocks that big, it commits the blocks received before the break: a multiple
//   of the block size, never part of a block. Both transports behave alike (native: each
//   Data packet; HTTP: each Native block of the body). That is 18.16; 26.x commits fewer
//   blocks of a cut insert (see `cutCommits`), still never part of one. A cut after the
//   last block can leave everything committed while the client, which never got the answer, raises: retrying
//   such an insert duplicates it (at-least-once), which the client cannot rule out.
import { type Client, createClient } from '@clickwire/client'
import { modernHandshakeAbort } from '@clickwire/testing'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { installProcessGuard } from '../src/guards/process-guard.js'
import {
  cleanTraffic,
  type FaultCaseReport,
  landsInHandshake,
  nativeHandshake,
  runFaultCase,
  type Survival,
  summarize,
  survivalFailures,
  tallyOutcomes,
} from './support/fault-case.js'
import {
  describeSpec,
  faultPlan,
  faultSeed,
  longMode,
  resolveFault,
  seededRandom,
} from './support/fault-plan.js'
import { transports } from './support/proxied-client.js'

const server = inject('clickhouse')
const guard = installProcessGuard()
const reports: FaultCaseReport[] = []
const clientOptions = { requestTimeoutMs: 1000, connectTimeoutMs: 1000, maxConnections: 2 }
const limits: Survival = { timeoutMs: clientOptions.requestTimeoutMs, graceMs: 1000, maxConnections: 2 }
const totalRows = 2000
const blockRows = 250
const data = Array.from({ length: totalRows }, (_, id) => ({ id, s: `row ${id} of the cut insert` }))
/** Rows left after failed inserts, per commit mode: the run's evidence for the guarantee. */
const leftovers: Record<string, number[]> = { squashed: [], 'per block': [] }
/** What the failed inserts' errors said (`insertOutcome`) against the rows they left. */
const saidOverLeft: Record<string, number> = {}
const commitModes = {
  squashed: {},
  'per block': { min_insert_block_size_rows: 1 },
} as const
const plan = faultPlan(seededRandom(faultSeed ^ 0x5bd1e995), longMode ? 20 : 2, longMode ? 10 : 1)

afterAll(() => {
  guard.dispose()
  console.log(
    `[faults] inserts: ${reports.length} cases (seed ${faultSeed}), outcomes ${JSON.stringify(tallyOutcomes(reports))}, rows left by failed inserts ${JSON.stringify(leftovers)}, insertOutcome said : rows left ${JSON.stringify(saidOverLeft)}`,
  )
})

/** Waits until the server no longer runs `queryId`, then counts the table's rows. */
async function rowsAfter(direct: Client, table: string, queryId: string): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const running = await direct.query(
      `SELECT count() AS c FROM system.processes WHERE query_id = '${queryId}'`,
    )
    const [row] = (await running.rows()) as { c: bigint }[]
    if (row?.c === 0n) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const counted = await direct.query(`SELECT count() AS c FROM ${table}`)
  const [row] = (await counted.rows()) as { c: bigint }[]
  return Number(row?.c)
}

/** A query id whose length does not depend on the moment (the cut offsets are measured with one). */
function midQueryId(transport: string): string {
  return `mid-${transport}-${Math.random().toString(36).slice(2, 10).padEnd(8, '0')}`
}

/**
 * What a per-block insert cut inside block `whole + 1` commits (`whole` blocks arrived
 * complete before the cut), per generation:
 *
 * - 18.16 writes and commits each block as it is received, in the connection's own thread
 *   (native: each Data packet; HTTP: each Native block of the body): exactly `whole` blocks.
 * - 26.x over HTTP: nothing. Before it runs the query, the server reads the body up to
 *   max_query_size (262,144 bytes) to parse the INSERT's text; this body (about 62 KB) is
 *   shorter, so the truncated chunk raises CANNOT_READ_ALL_DATA there, from the HTTP layer,
 *   before the query has started (its log has no executeQuery line for it). With
 *   max_query_size = 4096 the same cut commits blocks, as native does.
 * - 26.x over native: at most `whole - 1` blocks, so none for a cut in block 2. The blocks
 *   go through an insert pipeline run in other threads, and MergeTreeSink holds each part
 *   back until the next one is written (its "delayed chunk": the log shows "Wrote block"
 *   for part N, then "Renaming temporary part" for part N - 1); the read error cancels the
 *   pipeline, which drops the held-back part and whatever blocks are still queued. How many
 *   were queued depends on the threads' timing: between 0 and `whole - 1` blocks commit.
 */
function cutCommits(
  transport: string,
  whole: number,
): { label: string } & ({ exact: number; atMost?: never } | { exact?: never; atMost: number }) {
  const blocks = (n: number) => `${n} block${n === 1 ? '' : 's'}`
  if (server.generation !== 'modern')
    return { exact: whole * blockRows, label: `the ${blocks(whole)} before it` }
  if (transport === 'http')
    return { exact: 0, label: 'nothing on 26.x (the body is read to parse the query before it runs)' }
  if (whole === 1) return { exact: 0, label: 'nothing on 26.x (the sink holds back the last part written)' }
  return {
    atMost: (whole - 1) * blockRows,
    label: `at most ${blocks(whole - 1)} on 26.x (the sink holds back the last part written, queued blocks are dropped)`,
  }
}

// Measured before the cases are made: on the modern engine, a native case whose fault lands
// inside the handshake is skipped, which its name has to say.
const modernHandshake = server.generation === 'modern' ? await nativeHandshake(server) : undefined

for (const transport of transports) {
  const direct = createClient({ url: transport === 'native' ? server.nativeUrl : server.httpUrl })
  const table = `reliability_cut_${transport}_${Date.now().toString(36)}`
  await direct.command(`CREATE TABLE ${table} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`)
  const insert = (client: Client) => client.insert(table, data, { blockRows })
  const traffic = {
    cold: await cleanTraffic(server, transport, clientOptions, insert, 'cold'),
    warm: await cleanTraffic(server, transport, clientOptions, insert, 'warm'),
  }
  // Bytes a clean warm insert of the first k blocks sends (same settings, same query id
  // length as the cut case): the offset where block k ends, give or take the end-of-data
  // trailer (tens of bytes, where a block is thousands).
  const prefixes = new Map<number, number>()
  for (const blocks of [1, 2, 4, 5]) {
    const rows = data.slice(0, blocks * blockRows)
    const measured = await cleanTraffic(
      server,
      transport,
      clientOptions,
      (client) =>
        client.insert(table, rows, {
          blockRows,
          queryId: midQueryId(transport),
          settings: commitModes['per block'],
        }),
      'warm',
    )
    prefixes.set(blocks, measured.toServer)
  }
  await direct.command(`TRUNCATE TABLE ${table}`)

  describe(`${transport} insert`, () => {
    afterAll(async () => {
      await direct.command(`DROP TABLE IF EXISTS ${table}`)
      await direct.close()
    })

    for (const [commit, settings] of Object.entries(commitModes)) {
      for (const mode of ['cold', 'warm'] as const) {
        for (const spec of plan) {
          const fault = resolveFault(spec, traffic[mode])
          const inHandshake =
            transport === 'native' &&
            modernHandshake !== undefined &&
            landsInHandshake(fault, modernHandshake)
          const name = `${commit} commit, ${mode}: ${describeSpec(spec)}`
          const skipped = `${name} (skipped on modern: inside the handshake, ${modernHandshakeAbort})`
          it.skipIf(inHandshake)(inHandshake ? skipped : name, async () => {
            const queryId = `cut-${transport}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
            const report = await runFaultCase({
              server,
              transport,
              fault,
              guard,
              clientOptions,
              run: (client) => client.insert(table, data, { blockRows, queryId, settings }),
              check: (result) =>
                result.rowsWritten === totalRows ? undefined : `rowsWritten ${result.rowsWritten}`,
              mode,
            })
            reports.push(report)
            const committed = await rowsAfter(direct, table, queryId)
            await direct.command(`TRUNCATE TABLE ${table}`)
            const label = `${summarize(report)}, ${committed} rows committed`
            expect(survivalFailures(report, limits), label).toEqual([])
            if (report.outcome === 'success') {
              // Reported as written: all of it must be there.
              expect(committed, label).toBe(totalRows)
            } else {
              leftovers[commit]!.push(committed)
              // Every insert error says what may be stored, and never "not written" over
              // rows that are there.
              const said = (report.error as { insertOutcome?: string } | undefined)?.insertOutcome
              const seen = `${said} : ${committed === 0 ? 'none' : committed === totalRows ? 'all' : 'some'}`
              saidOverLeft[seen] = (saidOverLeft[seen] ?? 0) + 1
              expect(['not-written', 'incomplete', 'unknown'], label).toContain(said)
              if (committed > 0) expect(said, label).not.toBe('not-written')
              // Whole blocks or none, never part of a block.
              expect(committed % blockRows, label).toBe(0)
              expect(committed, label).toBeLessThanOrEqual(totalRows)
              // Squashed (the default): the blocks wait in the squashing buffer until the end.
              if (commit === 'squashed') expect([0, totalRows], label).toContain(committed)
            }
          })
        }
      }
    }

    // A cut inside block `whole + 1` (halfway through it, so the end-of-data trailer of the
    // measured prefixes cannot move it across a boundary): what each generation commits.
    for (const whole of [1, 4]) {
      const expected = cutCommits(transport, whole)
      it(`a cut inside block ${whole + 1} of ${totalRows / blockRows} leaves ${expected.label}, and the client raises`, async () => {
        const queryId = midQueryId(transport)
        const before = prefixes.get(whole)!
        const through = prefixes.get(whole + 1)!
        const report = await runFaultCase({
          server,
          transport,
          fault: { cutAfter: { direction: 'toServer', bytes: before + Math.floor((through - before) / 2) } },
          guard,
          clientOptions,
          run: (client) =>
            client.insert(table, data, { blockRows, queryId, settings: commitModes['per block'] }),
          check: () => undefined,
          mode: 'warm',
        })
        const committed = await rowsAfter(direct, table, queryId)
        await direct.command(`TRUNCATE TABLE ${table}`)
        const label = `${summarize(report)}, ${committed} rows committed`
        expect(survivalFailures(report, limits), label).toEqual([])
        expect(report.outcome, label).toBe('ConnectionError')
        expect(committed % blockRows, label).toBe(0)
        if (expected.exact !== undefined) expect(committed, label).toBe(expected.exact)
        else expect(committed, label).toBeLessThanOrEqual(expected.atMost)
      })
    }
  })
}
