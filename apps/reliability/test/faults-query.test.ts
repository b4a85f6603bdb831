// Queries through a fault-injecting proxy in front of the real server, on both transports:
// cuts and resets at random byte offsets both ways, stalls, delay, 1-byte fragments,
// refusal; with the fault there from the first connection (cold) or arriving after the
// client has worked (warm). Every case must end in a typed error or a correct result within
// the request timeout, leave nothing behind, and the same client must work again after.
import type { Client } from '@clickwire/client'
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
// The request limit bounds each case's call, connecting included; the connect limit is
// generous so that the recovery queries after a case (limits of their own) can connect on a
// loaded machine, where a connect and Hello can take longer than a second.
const clientOptions = { requestTimeoutMs: 1000, connectTimeoutMs: 10_000, maxConnections: 2 }
// A case must settle within its timeout plus a grace that a loaded machine also meets (it
// runs every timer and teardown late); a case that hangs still fails, only later.
const limits: Survival = { timeoutMs: clientOptions.requestTimeoutMs, graceMs: 5000, maxConnections: 2 }
const rows = 3000
const sql = `SELECT number AS n, toString(number) AS s FROM system.numbers LIMIT ${rows}`
const plan = faultPlan(seededRandom(faultSeed), longMode ? 20 : 2, longMode ? 10 : 1)

async function run(client: Client): Promise<unknown[][]> {
  return (await client.query(sql, { settings: { max_block_size: 500 } })).arrays()
}

function check(result: unknown[][]): string | undefined {
  if (result.length !== rows) return `${result.length} rows instead of ${rows}`
  for (let i = 0; i < rows; i++) {
    const [n, s] = result[i]!
    if (n !== BigInt(i) || s !== String(i)) return `row ${i} is ${String(n)}, ${String(s)}`
  }
  return undefined
}

afterAll(() => {
  guard.dispose()
  console.log(
    `[faults] queries: ${reports.length} cases (seed ${faultSeed}), outcomes ${JSON.stringify(tallyOutcomes(reports))}`,
  )
})

// Measured before the cases are made: on the modern engine, a native case whose fault lands
// inside the handshake is skipped, which its name has to say.
const modernHandshake = server.generation === 'modern' ? await nativeHandshake(server) : undefined

for (const transport of transports) {
  for (const mode of ['cold', 'warm'] as const) {
    const traffic = await cleanTraffic(server, transport, clientOptions, run, mode)
    describe(`${transport} query, ${mode}`, () => {
      for (const spec of plan) {
        const fault = resolveFault(spec, traffic)
        const inHandshake =
          transport === 'native' && modernHandshake !== undefined && landsInHandshake(fault, modernHandshake)
        const name = inHandshake
          ? `${describeSpec(spec)} (skipped on modern: inside the handshake, ${modernHandshakeAbort})`
          : describeSpec(spec)
        it.skipIf(inHandshake)(name, async () => {
          const report = await runFaultCase({
            server,
            transport,
            fault,
            guard,
            clientOptions,
            run,
            check,
            mode,
          })
          reports.push(report)
          const failures = survivalFailures(report, limits)
          expect(failures, `${summarize(report)}: ${failures.join('; ')}`).toEqual([])
        })
      }
    })
  }
}
