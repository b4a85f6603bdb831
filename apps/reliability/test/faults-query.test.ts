// Queries through a fault-injecting proxy in front of the real server, on both transports:
// cuts and resets at random byte offsets both ways, stalls, delay, 1-byte fragments,
// refusal; with the fault there from the first connection (cold) or arriving after the
// client has worked (warm). Every case must end in a typed error or a correct result within
// the request timeout, leave nothing behind, and the same client must work again after.
import type { Client } from '@clickwire/client'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { installProcessGuard } from '../src/guards/process-guard.js'
import {
  cleanTraffic,
  type FaultCaseReport,
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
  type Traffic,
} from './support/fault-plan.js'
import { transports } from './support/proxied-client.js'

const server = inject('clickhouse')
const guard = installProcessGuard()
const reports: FaultCaseReport[] = []
const clientOptions = { requestTimeoutMs: 1000, connectTimeoutMs: 1000, maxConnections: 2 }
const limits: Survival = { timeoutMs: clientOptions.requestTimeoutMs, graceMs: 1000, maxConnections: 2 }
const rows = 3000
const sql = `SELECT number AS n, toString(number) AS s FROM system.numbers LIMIT ${rows}`
const plan = faultPlan(seededRandom(faultSeed), longMode ? 20 : 2, longMode ? 4 : 1)

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

for (const transport of transports) {
  for (const mode of ['cold', 'warm'] as const) {
    describe(`${transport} query, ${mode}`, () => {
      let traffic: Traffic = { toServer: 0, toClient: 0 }
      beforeAll(async () => {
        traffic = await cleanTraffic(server, transport, clientOptions, run, mode)
      })

      for (const spec of plan) {
        it(describeSpec(spec), async () => {
          const report = await runFaultCase({
            server,
            transport,
            fault: resolveFault(spec, traffic),
            guard,
            clientOptions,
            run,
            check,
            mode,
          })
          reports.push(report)
          expect(survivalFailures(report, limits), summarize(report)).toEqual([])
        })
      }
    })
  }
}
