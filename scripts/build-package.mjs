#!/usr/bin/env node
import { spawnSync } from 'node:child_process'
// Builds a published package's dist: tsc for the declarations only, esbuild for the code.
//   node ../../scripts/build-package.mjs            (run in the package's directory)
//
// Why a bundle: tsc's one-file-per-module output made `import('@clickwire/client')` load
// ~215 modules, and a cold start (serverless, edge) paid for resolving and compiling each.
// Each entry named by package.json (`exports` and `imports`, every condition that points into
// dist) becomes one minified ESM file; modules shared by entries go to chunks, so a module's
// state (caches, brands) exists once per package. Other packages, `#` subpath imports and
// .wasm files stay imports: they are resolved at run time, by the export conditions
// (`workerd`, `node`, browsers) of whoever imports them.
import { rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { build } from 'esbuild'

const pkg = JSON.parse(await readFile('package.json', 'utf8'))

/** dist/x/y.js → src/x/y.ts, for every string target in an exports or imports map. */
function entryPoints() {
  const entries = {}
  const visit = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith('./dist/') && value.endsWith('.js')) {
        const name = value.slice('./dist/'.length, -'.js'.length)
        entries[name] = `src/${name}.ts`
      }
    } else if (value && typeof value === 'object') {
      for (const [condition, target] of Object.entries(value)) {
        if (condition !== 'types' && condition !== '@clickwire/source') visit(target)
      }
    }
  }
  visit(pkg.exports)
  visit(pkg.imports)
  return entries
}

rmSync('dist', { recursive: true, force: true })

const tsc = spawnSync('tsc', ['-p', 'tsconfig.build.json', '--emitDeclarationOnly'], {
  stdio: 'inherit',
  shell: process.platform === 'win32',
})
if (tsc.status !== 0) process.exit(tsc.status ?? 1)

await build({
  entryPoints: entryPoints(),
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2023',
  // Node built-ins, the other packages, `#` subpath imports and .wasm modules.
  packages: 'external',
  external: ['node:*', '#*', '*.wasm', 'cloudflare:*'],
  minify: true,
  // Error classes keep their names: `error.name` and `inspect` output show them.
  keepNames: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
})
