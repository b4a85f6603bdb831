// CityHash128 v1.0.2 throughput of each implementation clickwire tried: the WebAssembly
// module it uses, the plain-JS fallback (32-bit halves) and the BigInt reference from the
// tests. Run from packages/protocol after `npx tsc -p tsconfig.build.json` (see README.md).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cityHash128Js } from '../dist/compression/cityhash-js.js'
import { loadCityHashWasm } from '../dist/compression/cityhash-wasm.js'
import { gbps, randomBytes, throughput } from './bench-support.mjs'

/** The BigInt reference lives in test/support (not built): transpile it on the fly. */
async function loadReference() {
  const ts = createRequire(import.meta.url)('typescript')
  const source = readFileSync(
    new URL('../test/support/compression-cityhash-reference.ts', import.meta.url),
    'utf8',
  )
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  })
  const file = join(mkdtempSync(join(tmpdir(), 'clickwire-bench-')), 'reference.mjs')
  writeFileSync(file, outputText)
  return (await import(file)).referenceCityHash128
}

const wasm = loadCityHashWasm()
if (!wasm) throw new Error('WebAssembly did not load')
const reference = await loadReference()
const out = new Uint8Array(16)

console.log('CityHash128 v1.0.2, best of 7 rounds')
for (const size of [1 << 20, 4096, 64]) {
  const data = randomBytes(size)
  const label = size >= 1 << 20 ? `${size >> 20} MiB` : `${size} B`
  const fast = throughput(() => wasm.hashInto(data, 0, size, out, 0), size)
  const js = throughput(() => cityHash128Js(data, 0, size, out, 0), size)
  const big = throughput(() => reference(data), size, { rounds: 3, roundMs: 300 })
  const copy = new Uint8Array(size)
  const memcpy = throughput(() => copy.set(data), size)
  console.log(
    `${label.padStart(6)}: wasm ${gbps(fast)}, js ${gbps(js)}, BigInt ${gbps(big)}, memcpy ${gbps(memcpy)}` +
      ` | wasm/js ${(fast / js).toFixed(1)}x, wasm/BigInt ${(fast / big).toFixed(0)}x`,
  )
}
