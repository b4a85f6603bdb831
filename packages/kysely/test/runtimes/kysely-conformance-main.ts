// The Kysely conformance checks as a program, for runtimes that run a file (Node, Bun, Deno):
//   <runtime> kysely-conformance-main.ts <url>   prints one JSON object, check name -> result.
import { defaultCreate, runKyselyConformance } from './kysely-conformance-checks.ts'

const url = (globalThis as { process?: { argv: string[] } }).process?.argv.at(-1) ?? ''
const results = await runKyselyConformance(defaultCreate, url)
console.log(`CONFORMANCE ${JSON.stringify(results)}`)
