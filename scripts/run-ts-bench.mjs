// Bundles a benchmark written in TypeScript (workspace packages from their sources) with
// vite, then runs it with node, from the package folder that holds it:
//   node ../../scripts/run-ts-bench.mjs bench/<name>.ts   (each package has it as `pnpm bench`)
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, join, resolve } from 'node:path'

if (!process.argv[2]) throw new Error('usage: node ../../scripts/run-ts-bench.mjs bench/<name>.ts')
const entry = resolve(process.argv[2])
// Inside the package, so that the bundle's external imports (undici, ...) resolve.
mkdirSync('node_modules/.cache', { recursive: true })
const out = mkdtempSync(join('node_modules/.cache', 'clickwire-bench-'))
const require = createRequire(join(process.cwd(), '../../package.json'))
const { build } = await import(require.resolve('vite'))
try {
  await build({
    configFile: false,
    logLevel: 'warn',
    resolve: { conditions: ['@clickwire/source', 'node', 'module', 'import', 'default'] },
    ssr: {
      noExternal: [/^@clickwire\/(?!testing)/],
      external: ['@clickwire/testing', 'lz4-napi'],
      resolve: { conditions: ['@clickwire/source', 'node'], externalConditions: ['node'] },
    },
    build: {
      ssr: entry,
      outDir: out,
      emptyOutDir: true,
      minify: false,
      target: 'node20',
      rollupOptions: { output: { entryFileNames: `${basename(entry, '.ts')}.mjs` } },
    },
  })
  const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []
  const result = spawnSync(process.execPath, [...nodeArgs, join(out, `${basename(entry, '.ts')}.mjs`)], {
    stdio: 'inherit',
    cwd: process.cwd(),
  })
  process.exitCode = result.status ?? 1
} finally {
  rmSync(out, { recursive: true, force: true })
}
