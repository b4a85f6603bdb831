#!/usr/bin/env node
// What a new user pays for `npm i @clickwire/client`, side by side with `npm i @clickhouse/client`:
// the bytes and packages installed, and the time of `await import()` in a fresh Node process.
//   node scripts/install-footprint.mjs [--rounds 7] [--keep] [--peer-version 1.23.0]
// Packs the built packages (run `pnpm build` first) with pnpm, installs the tarballs with npm
// into a temp app, installs the peer from the registry into another, then measures both apps
// in alternation (the machine's load changes slowly; alternation spreads it over both).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    keep: { type: 'boolean', default: false },
    'peer-version': { type: 'string', default: 'latest' },
  },
})
const rounds = Number(values.rounds)
const root = resolve(import.meta.dirname, '..')
const work = mkdtempSync(join(tmpdir(), 'clickwire-footprint-'))

const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })

function app(name, dependencies) {
  const dir = join(work, name)
  mkdirSync(dir)
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name, private: true, type: 'module', dependencies }),
  )
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], dir)
  return dir
}

// Our packages as npm would get them: pnpm pack rewrites workspace:* to the versions.
const tarballs = {}
for (const name of ['protocol', 'native', 'http', 'client']) {
  const out = run('pnpm', ['pack', '--pack-destination', work], join(root, 'packages', name))
    .trim()
    .split('\n')
  tarballs[`@clickwire/${name}`] = `file:${out.at(-1)}`
}
const ours = app('ours', tarballs)
const peer = app('peer', { '@clickhouse/client': values['peer-version'] })

/** Bytes of the files (not blocks) under node_modules, and the packages installed there. */
function footprint(dir) {
  let bytes = 0
  let files = 0
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.isFile()) {
        bytes += statSync(full).size
        files++
      }
    }
  }
  const modules = join(dir, 'node_modules')
  walk(modules)
  const names = readdirSync(modules).filter((name) => !name.startsWith('.'))
  const packages = names.flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)) : [name]))
  return { bytes, files, packages: packages.length }
}

function importMs(dir, specifier) {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t)`
  return Number(run(process.execPath, ['--input-type=module', '-e', code], dir))
}

const times = { ours: [], peer: [] }
for (let round = 0; round < rounds; round++) {
  times.ours.push(importMs(ours, '@clickwire/client'))
  times.peer.push(importMs(peer, '@clickhouse/client'))
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]
const mb = (bytes) => (bytes / 1e6).toFixed(2)

console.log(`Node ${process.versions.node}, ${rounds} rounds, import times alternating`)
for (const [label, dir, key] of [
  ['@clickwire/client', ours, 'ours'],
  ['@clickhouse/client', peer, 'peer'],
]) {
  const { bytes, files, packages } = footprint(dir)
  console.log(
    `${label.padEnd(20)} ${mb(bytes)} MB in ${files} files, ${packages} packages; import median ${median(times[key]).toFixed(1)} ms (min ${Math.min(...times[key]).toFixed(1)})`,
  )
}
console.log(`ratio (ours / peer): import ${(median(times.ours) / median(times.peer)).toFixed(2)}×`)
if (values.keep) console.log(`apps kept in ${work}`)
else rmSync(work, { recursive: true, force: true })
