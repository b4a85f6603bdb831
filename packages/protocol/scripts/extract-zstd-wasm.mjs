#!/usr/bin/env node
// Writes src/compression/zstd.wasm: the WebAssembly module that the installed
// @hpcc-js/wasm-zstd (zstd compiled by emscripten) carries inside its JavaScript, taken as
// the package hands it to WebAssembly.instantiate. Workers cannot compile it from those
// bytes; as a `.wasm` file the runtime precompiles it (precompiled-wasm-workerd.ts), and
// loadZstd() gives the package that module. It must match the package's own glue code, so
// `--check` (run by lint) exits 1 when the committed file differs from the installed
// package's module: after updating @hpcc-js/wasm-zstd, run this script.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const file = fileURLToPath(new URL('../src/compression/zstd.wasm', import.meta.url))

const original = WebAssembly.instantiate
let captured
WebAssembly.instantiate = function (source, imports) {
  if (!(source instanceof WebAssembly.Module))
    captured = Buffer.from(
      ArrayBuffer.isView(source)
        ? source.buffer.slice(source.byteOffset, source.byteOffset + source.byteLength)
        : source,
    )
  return original.call(this, source, imports)
}
const { Zstd } = await import('@hpcc-js/wasm-zstd')
await Zstd.load()
WebAssembly.instantiate = original
if (captured === undefined) {
  console.error('extract-zstd-wasm: @hpcc-js/wasm-zstd compiled no module through WebAssembly.instantiate')
  process.exit(1)
}

if (process.argv.includes('--check')) {
  let current = Buffer.alloc(0)
  try {
    current = readFileSync(file)
  } catch {}
  if (!current.equals(captured)) {
    console.error(`stale: ${file} (differs from the module of the installed @hpcc-js/wasm-zstd)`)
    process.exit(1)
  }
} else writeFileSync(file, captured)
