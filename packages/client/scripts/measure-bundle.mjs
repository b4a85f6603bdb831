#!/usr/bin/env node
// What a browser page that only queries rows weighs, with clickwire and with
// @clickhouse/client-web side by side. Each page is bundled with esbuild exactly as
// `esbuild page.js --bundle --minify --format=esm --platform=browser` would, twice:
//
// - single file (those flags alone): esbuild then inlines every `import()` into the one
//   file (it splits only with --splitting), so lazily loaded code counts too;
// - with `--splitting`: what the page loads before it runs (the entry and the chunks it
//   imports statically) and, apart, what it would load only on demand (Arrow, ZSTD).
//   Vite, Rollup, webpack and Parcel split `import()` this way by default.
//
// Sizes are bytes, minified and gzipped (zlib level 9, as `gzip -9`), printed in kB of
// 1000 bytes.
//
//   node scripts/measure-bundle.mjs            # the built packages (dist), as npm users get them
//   node scripts/measure-bundle.mjs --source   # the TypeScript sources (no build needed)
//   node scripts/measure-bundle.mjs --json     # machine-readable
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const packageDir = fileURLToPath(new URL('..', import.meta.url))

/** The pages measured: each makes one query and reads its rows. */
export const pages = {
  clickwire: `import { createClient } from '@clickwire/client'
const ch = createClient('http://127.0.0.1:8123')
const rs = await ch.query('SELECT number FROM system.numbers LIMIT 3')
console.log(await rs.rows())
`,
  'clickwire + arrow()': `import { createClient } from '@clickwire/client'
const ch = createClient('http://127.0.0.1:8123')
const rs = await ch.query('SELECT number FROM system.numbers LIMIT 3')
console.log((await rs.arrow()).numRows)
`,
  '@clickhouse/client-web': `import { createClient } from '@clickhouse/client-web'
const ch = createClient({ url: 'http://127.0.0.1:8123' })
const rs = await ch.query({ query: 'SELECT number FROM system.numbers LIMIT 3', format: 'JSONEachRow' })
console.log(await rs.json())
`,
}

const gzipped = (bytes) => gzipSync(bytes, { level: 9 }).length

/**
 * Bundles one page both ways. `source` resolves workspace packages to their TypeScript
 * sources (the `@clickwire/source` export condition) instead of `dist`.
 *
 * @returns sizes in bytes, the input files each bundle took in (for checks on content), and
 *   the minified bytes of each file in what loads first
 */
export async function measurePage(code, { source = false } = {}) {
  // Under .tmp/ (git-ignored) of the package, so that a crash leaves nothing to commit.
  mkdirSync(join(packageDir, '.tmp'), { recursive: true })
  const dir = mkdtempSync(join(packageDir, '.tmp', 'measure-'))
  try {
    // The page sits inside the package so that `@clickwire/client` and the devDependency
    // @clickhouse/client-web resolve as they would from an app's own file.
    const entry = join(dir, 'page.js')
    writeFileSync(entry, code)
    const common = {
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'error',
      conditions: source ? ['@clickwire/source'] : [],
    }
    const single = await build({ ...common, outfile: join(dir, 'out.js') })
    const file = single.outputFiles[0].contents
    const split = await build({ ...common, splitting: true, outdir: join(dir, 'split') })
    const outputs = new Map(split.outputFiles.map((output) => [output.path, output.contents]))
    const meta = split.metafile.outputs
    // The entry chunk and everything it imports statically load before the page runs.
    const initial = new Set()
    const visit = (path) => {
      if (initial.has(path)) return
      initial.add(path)
      for (const next of meta[path].imports) if (next.kind === 'import-statement') visit(next.path)
    }
    // The page's own output: the chunks `import()` loads are entry points in the metafile too.
    const entryOutput = Object.keys(meta).find((path) => meta[path].entryPoint?.endsWith('page.js'))
    visit(entryOutput)
    const sized = (paths) => {
      let minified = 0
      let gzip = 0
      for (const path of paths) {
        const bytes = outputs.get(join(packageDir, path)) ?? outputs.get(path)
        if (!bytes) throw new Error(`esbuild wrote no ${path}`)
        minified += bytes.length
        gzip += gzipped(bytes)
      }
      return { minified, gzip }
    }
    const jsOutputs = Object.keys(meta).filter((path) => path.endsWith('.js'))
    const inputsOf = (paths) => paths.flatMap((path) => Object.keys(meta[path].inputs))
    // Minified bytes each source file puts in what loads first, largest first.
    const initialBytes = [...initial]
      .flatMap((path) =>
        Object.entries(meta[path].inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput]),
      )
      .sort((a, b) => b[1] - a[1])
    return {
      single: { minified: file.length, gzip: gzipped(file) },
      initial: sized([...initial]),
      lazy: sized(jsOutputs.filter((path) => !initial.has(path))),
      initialInputs: inputsOf([...initial]),
      initialBytes,
      allInputs: Object.keys(single.metafile.inputs),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`

async function main() {
  const args = new Set(process.argv.slice(2))
  const source = args.has('--source')
  const results = {}
  for (const [name, code] of Object.entries(pages)) {
    const { single, initial, lazy } = await measurePage(code, { source })
    results[name] = { single, initial, lazy }
  }
  if (args.has('--json')) {
    console.log(JSON.stringify(results, null, 2))
    return
  }
  console.log(`esbuild --bundle --minify --format=esm --platform=browser (${source ? 'sources' : 'dist'})\n`)
  const rows = [
    ['page', 'single file', 'single gzip', 'loads first', 'first gzip', 'on demand', 'on demand gzip'],
  ]
  for (const [name, { single, initial, lazy }] of Object.entries(results)) {
    rows.push([
      name,
      kB(single.minified),
      kB(single.gzip),
      kB(initial.minified),
      kB(initial.gzip),
      kB(lazy.minified),
      kB(lazy.gzip),
    ])
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)))
  for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '))
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
