// The conformance checks as a program, for runtimes that run a file (Node, Bun, Deno):
//   <runtime> conformance-main.ts <url>   prints one JSON object, check name -> result.
import { defaultCreate, runConformance } from './conformance-checks.ts'

const url = (globalThis as { process?: { argv: string[] } }).process?.argv.at(-1) ?? ''
const results = await runConformance(defaultCreate, url)
console.log(`CONFORMANCE ${JSON.stringify(results)}`)
