#!/usr/bin/env node
// Copies the WebAssembly modules (src/compression/*.wasm) beside the built files: the
// `workerd` build (dist/compression/precompiled-wasm-workerd.js) imports them, and tsc copies
// only what it compiles.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const from = fileURLToPath(new URL('../src/compression/', import.meta.url))
const to = fileURLToPath(new URL('../dist/compression/', import.meta.url))
mkdirSync(to, { recursive: true })
for (const name of readdirSync(from)) if (name.endsWith('.wasm')) copyFileSync(from + name, to + name)
