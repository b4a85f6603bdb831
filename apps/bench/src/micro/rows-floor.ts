/**
 * Fully parsed ontime rows against V8's floor for eager objects of their shape (goals P3
 * and P4 of issue 19), every case in one process, interleaved round-robin.
 *
 * `pnpm --filter @clickwire/bench bench:rows-floor [--server latest|modern|18.16] [--cutoff 697k]
 * [--repetitions 3] [--no-rss] [--no-profile]` (builds, then runs; CLICKHOUSE_URL picks an
 * existing server, else a throwaway one is started and the bench's dataset loaded). Cases:
 *
 * - `floor`: the result fetched once as whole columns (`columns()`, untimed), then plain
 *   objects of the same 109 keys built from them by a generated object literal in a loop:
 *   what V8 needs for the objects alone;
 * - `native rows()` / `HTTP rows()`: `client.query(...).rows()` end to end;
 * - `builder`: the row builder the client uses (`rowFactory`) over blocks fetched and
 *   decoded beforehand (untimed): object building alone, block by block;
 * - `native blocks`: `blocks()` read to the end, nothing decoded to JS values (network,
 *   server, frame parsing, column views); `native blocks reused` the same with
 *   `reuseMemory: true`;
 * - `native strings`: the same plus `values()` of the String and FixedString columns;
 * - `native values`: the same plus `values()` of every column (what `rows()` decodes);
 * - `native for await` / `HTTP for await`: rows iterated one block in memory at a time.
 *
 * Each cell is the median of the repetitions: wall and CPU milliseconds, milliseconds of
 * main-thread GC pauses (a `gc` PerformanceObserver) and the heap still held after the
 * case (its result kept). Peak RSS comes from one child process per case (`--only`,
 * its own VmHWM), since one process's high-water mark cannot be reset; the children's
 * startup and their case's untimed preparation count in it (`--repetitions 0` measures
 * only that). A CPU profile of one `native rows()` child
 * (`--cpu-prof`, deleted afterwards) is summarized as the top self-time functions.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PerformanceObserver } from 'node:perf_hooks'
import { type Client, createClient } from '@clickwire/client'
import { rowFactory } from '@clickwire/protocol'
import { startClickHouse } from '@clickwire/testing'
import { ensureOntimeDataset } from '../ontime-loader.js'
import { ontimeColumns, referenceCutoffs } from '../ontime-schema.js'
import { ontimeQuery } from '../scenario-queries.js'
import { chooseServerLine, parseServerChoice } from '../server-choice.js'

interface Endpoints {
  nativeUrl: string
  httpUrl: string
  username: string
  password: string
  query: string
}

interface Clients {
  native: Client
  http: Client
}

/** One case: `prepare` is untimed, `run` is measured; what `run` returns is held until measured. */
interface Case {
  name: string
  prepare?: (clients: Clients, query: string) => Promise<unknown>
  run: (clients: Clients, query: string, prepared: unknown) => Promise<unknown> | unknown
}

const stringNames = new Set<string>(
  ontimeColumns
    .filter(([, type]) => type === 'String' || type.startsWith('FixedString'))
    .map(([name]) => name),
)

/**
 * The floor's builder: one generated function whose loop builds every row with an object
 * literal of the given keys, over columns held in locals (no per-row call, no per-block step).
 */
type FloorBuild = (columns: readonly ArrayLike<unknown>[], rows: number) => object[]
const floorBuilders = new Map<string, FloorBuild>()

function floorBuilder(names: readonly string[]): FloorBuild {
  // Kept across repetitions, as the client's row factories are, so that both run warm.
  const key = names.join('\u0000')
  let build = floorBuilders.get(key)
  if (!build) {
    build = compileFloor(names)
    floorBuilders.set(key, build)
  }
  return build
}

function compileFloor(names: readonly string[]): FloorBuild {
  const locals = names.map((_, index) => `const c${index} = c[${index}];`).join('\n')
  const properties = names.map((name, index) => `${JSON.stringify(name)}: c${index}[r]`).join(', ')
  return new Function(
    'c',
    'n',
    `${locals}\nconst out = new Array(n);\nfor (let r = 0; r < n; r++) out[r] = { ${properties} };\nreturn out`,
  ) as FloorBuild
}

/** Reads the result's blocks to the end, decoding to JS values only the columns `decode` picks. */
async function countBlocks(
  client: Client,
  query: string,
  decode: (name: string) => boolean,
): Promise<number> {
  let rows = 0
  for await (const block of (await client.query(query)).blocks()) {
    for (const column of block.native.columns) {
      if (decode(column.name) && column.column.values().length !== block.rowCount)
        throw new Error('short column')
    }
    rows += block.rowCount
  }
  return rows
}

const cases: Case[] = [
  {
    name: 'floor',
    prepare: async ({ native }, query) => {
      const columns = await (await native.query(query)).columns()
      return Object.entries(columns) as [string, ArrayLike<unknown>][]
    },
    run: (_clients, _query, prepared) => {
      const entries = prepared as [string, ArrayLike<unknown>][]
      const build = floorBuilder(entries.map(([name]) => name))
      return build(
        entries.map(([, values]) => values),
        entries[0]![1].length,
      )
    },
  },
  { name: 'native rows()', run: async ({ native }, query) => (await native.query(query)).rows() },
  { name: 'HTTP rows()', run: async ({ http }, query) => (await http.query(query)).rows() },
  {
    name: 'builder',
    prepare: async ({ native }, query) => {
      const blocks: { names: string[]; values: ArrayLike<unknown>[]; rows: number }[] = []
      for await (const block of (await native.query(query)).blocks()) {
        const names = block.native.columns.map((column) => column.name)
        blocks.push({ names, values: block.values(), rows: block.rowCount })
      }
      return blocks
    },
    run: (_clients, _query, prepared) => {
      const blocks = prepared as { names: string[]; values: ArrayLike<unknown>[]; rows: number }[]
      const rows: object[] = []
      for (const block of blocks) {
        const read = rowFactory(block.names)(block.values)
        for (let row = 0; row < block.rows; row++) rows.push(read(row))
      }
      return rows
    },
  },
  { name: 'native blocks', run: ({ native }, query) => countBlocks(native, query, () => false) },
  {
    name: 'native blocks reused',
    run: async ({ native }, query) => {
      let rows = 0
      for await (const block of (await native.query(query)).blocks({ reuseMemory: true }))
        rows += block.rowCount
      return rows
    },
  },
  {
    name: 'native strings',
    run: ({ native }, query) => countBlocks(native, query, (name) => stringNames.has(name)),
  },
  { name: 'native values', run: ({ native }, query) => countBlocks(native, query, () => true) },
  {
    name: 'native for await',
    run: async ({ native }, query) => {
      let rows = 0
      for await (const _row of await native.query(query)) rows++
      return rows
    },
  },
  {
    name: 'HTTP for await',
    run: async ({ http }, query) => {
      let rows = 0
      for await (const _row of await http.query(query)) rows++
      return rows
    },
  },
]

interface Measurement {
  wallMs: number
  cpuMs: number
  gcMs: number
  majorGcMs: number
  heldBytes: number
}

const gcEntries: { start: number; duration: number; major: boolean }[] = []
// kind 4 is NODE_PERFORMANCE_GC_MAJOR (mark-compact); the rest are scavenges and incremental steps.
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind
    gcEntries.push({ start: entry.startTime, duration: entry.duration, major: kind === 4 })
  }
}).observe({ entryTypes: ['gc'] })

const collect = (globalThis as { gc?: () => void }).gc
const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

async function measure(each: Case, clients: Clients, query: string): Promise<Measurement> {
  let prepared = each.prepare ? await each.prepare(clients, query) : undefined
  collect?.()
  await settle()
  const heapBefore = process.memoryUsage().heapUsed
  const cpuBefore = process.cpuUsage()
  const start = performance.now()
  let result: unknown = await each.run(clients, query, prepared)
  const wallMs = performance.now() - start
  const cpu = process.cpuUsage(cpuBefore)
  await settle()
  const window = gcEntries.filter((entry) => entry.start >= start && entry.start <= start + wallMs)
  collect?.()
  const heldBytes = process.memoryUsage().heapUsed - heapBefore
  const rows = Array.isArray(result) ? result.length : result
  if (typeof rows !== 'number' || rows === 0) throw new Error(`${each.name} read no rows`)
  result = undefined
  prepared = undefined
  collect?.()
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    gcMs: window.reduce((sum, entry) => sum + entry.duration, 0),
    majorGcMs: window.filter((entry) => entry.major).reduce((sum, entry) => sum + entry.duration, 0),
    heldBytes: result === undefined ? heldBytes : 0,
  }
}

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function clientsFor(endpoints: Endpoints): Clients {
  const { nativeUrl, httpUrl, username, password } = endpoints
  return {
    native: createClient({ url: nativeUrl, username, password }),
    http: createClient({ url: httpUrl, username, password }),
  }
}

/** Runs one case in a child of this script (same flags), returning its output lines. */
function child(
  endpoints: Endpoints,
  name: string,
  extraNodeFlags: readonly string[] = [],
): Promise<{ maxRssBytes: number; rssBeforeBytes: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      // Only --expose-gc is passed on: a larger heap limit would let the heap, and so the RSS, grow further.
      [
        ...process.execArgv.filter((flag) => flag === '--expose-gc'),
        ...extraNodeFlags,
        process.argv[1]!,
        '--only',
        name,
      ],
      {
        env: { ...process.env, ROWS_FLOOR_ENDPOINTS: JSON.stringify(endpoints) },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    let output = ''
    proc.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    proc.once('error', reject)
    proc.once('close', (code) => {
      const line = output.split('\n').find((each) => each.startsWith('@@rows-floor '))
      if (code !== 0 || !line) reject(new Error(`child ${name} exited ${code}: ${output}`))
      else resolve(JSON.parse(line.slice('@@rows-floor '.length)))
    })
  })
}

/**
 * This process's own peak RSS. On Linux `getrusage` (`resourceUsage().maxRSS`) keeps the
 * high-water mark of the address space the process was forked from, so a child of a large
 * parent reports the parent's RSS (measured here: a 13 MB python3 spawned by a 445 MB Node
 * process said 385 MB); `VmHWM` in /proc/self/status belongs to the process alone.
 */
function ownPeakRss(): number {
  try {
    const kilobytes = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
    if (kilobytes) return Number(kilobytes) * 1024
  } catch {}
  return process.resourceUsage().maxRSS * 1024
}

/** `--only <case>`: one case in this process, then its peak RSS on stdout. */
async function runOnly(name: string): Promise<void> {
  const endpoints = JSON.parse(process.env.ROWS_FLOOR_ENDPOINTS ?? '') as Endpoints
  const each = cases.find((candidate) => candidate.name === name)
  if (!each) throw new Error(`no case ${name}`)
  const clients = clientsFor(endpoints)
  const prepared = each.prepare ? await each.prepare(clients, endpoints.query) : undefined
  collect?.()
  const rssBeforeBytes = process.memoryUsage().rss
  const result = await each.run(clients, endpoints.query, prepared)
  const maxRssBytes = ownPeakRss()
  await Promise.all([clients.native.close(), clients.http.close()])
  if (result === undefined) throw new Error('no result')
  process.stdout.write(`@@rows-floor ${JSON.stringify({ maxRssBytes, rssBeforeBytes })}\n`)
}

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
}

/** The top self-time functions of a .cpuprofile, as `percent ms name file:line`. */
function summarizeProfile(profile: {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)!.callFrame
    const file = frame.url.replace(/^file:\/\//, '').replace(/^.*\/(packages|apps)\//, '$1/')
    const key = `${frame.functionName || '(anonymous)'} ${file ? `${file}:${frame.lineNumber + 1}` : ''}`
    const micros = profile.timeDeltas[index] ?? 0
    self.set(key, (self.get(key) ?? 0) + micros)
    total += micros
  })
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(
      ([key, micros]) =>
        `${((100 * micros) / total).toFixed(1).padStart(5)}% ${(micros / 1000).toFixed(0).padStart(6)} ms  ${key}`,
    )
}

async function profileNativeRows(endpoints: Endpoints): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'rows-floor-prof-'))
  try {
    await child(endpoints, 'native rows()', ['--cpu-prof', `--cpu-prof-dir=${dir}`])
    const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'))
    if (!file) return ['no profile written']
    return summarizeProfile(JSON.parse(await readFile(join(dir, file), 'utf8')))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name)
  return index > 0 ? process.argv[index + 1] : undefined
}

async function main(): Promise<void> {
  const only = option('--only')
  if (only) return runOnly(only)
  if (!collect) throw new Error('run with node --expose-gc (the package script does)')
  const cutoffLabel = option('--cutoff') ?? '697k'
  const cutoff = referenceCutoffs.find((each) => each.label === cutoffLabel || each.date === cutoffLabel)
  if (!cutoff) throw new Error(`--cutoff: one of ${referenceCutoffs.map((each) => each.label).join(', ')}`)
  const repetitions = Number(option('--repetitions') ?? 3)
  if (!Number.isInteger(repetitions) || repetitions < 0) throw new Error('--repetitions: 0 or more')
  const serverOption = option('--server')
  const serverLine = chooseServerLine(serverOption ? parseServerChoice(serverOption) : undefined)

  const server = await startClickHouse({ generation: serverLine })
  const { user, password } = server.users.default
  const endpoints: Endpoints = {
    nativeUrl: server.nativeUrl,
    httpUrl: server.httpUrl,
    username: user,
    password,
    query: ontimeQuery('rows', cutoff.date),
  }
  const clients = clientsFor(endpoints)
  try {
    const load = await ensureOntimeDataset(clients.native)
    const rows = await (
      await clients.native.query(
        `SELECT count() AS n FROM perftest.ontime WHERE FlightDate < '${cutoff.date}'`,
      )
    ).rows()
    console.log(
      `ClickHouse ${server.version} (${serverLine}), perftest.ontime ${load.rows} rows (${load.source}); ${rows[0]!.n} rows below ${cutoff.date}, ${ontimeColumns.length} columns; Node ${process.version}`,
    )
    const results = new Map<string, Measurement[]>(cases.map((each) => [each.name, []]))
    for (let repetition = 0; repetition < repetitions; repetition++) {
      // Rotated one step per repetition, so that load from other processes hits every case alike.
      for (let step = 0; step < cases.length; step++) {
        const each = cases[(step + repetition) % cases.length]!
        const measured = await measure(each, clients, endpoints.query)
        results.get(each.name)!.push(measured)
        process.stderr.write(
          `  ${repetition + 1}/${repetitions} ${each.name}: ${measured.wallMs.toFixed(0)} ms\n`,
        )
      }
    }
    const rss = new Map<string, { maxRssBytes: number; rssBeforeBytes: number }>()
    if (!process.argv.includes('--no-rss')) {
      for (const each of cases) rss.set(each.name, await child(endpoints, each.name))
    }
    const floor = median(results.get('floor')!.map((each) => each.wallMs))
    const floorCpu = median(results.get('floor')!.map((each) => each.cpuMs))
    const header = [
      'case',
      'wall ms',
      'cpu ms',
      'gc ms',
      'major gc',
      'held MB',
      'peak RSS',
      'RSS at start',
      '/floor',
      'cpu/floor',
    ]
    // --repetitions 0 measures only the children's peak RSS.
    const figure = (value: number, digits: number, unit = '') =>
      Number.isFinite(value) ? `${value.toFixed(digits)}${unit}` : '-'
    const table = cases.map((each) => {
      const all = results.get(each.name)!
      const pick = (key: keyof Measurement) => median(all.map((one) => one[key]))
      const memory = rss.get(each.name)
      return [
        each.name,
        figure(pick('wallMs'), 0),
        figure(pick('cpuMs'), 0),
        figure(pick('gcMs'), 0),
        figure(pick('majorGcMs'), 0),
        figure(pick('heldBytes') / 1e6, 0),
        memory ? `${(memory.maxRssBytes / 1e6).toFixed(0)} MB` : '-',
        memory ? `${(memory.rssBeforeBytes / 1e6).toFixed(0)} MB` : '-',
        figure(pick('wallMs') / floor, 2, '×'),
        figure(pick('cpuMs') / floorCpu, 2, '×'),
      ]
    })
    const widths = header.map((title, i) => Math.max(title.length, ...table.map((row) => row[i]!.length)))
    const line = (cells: readonly string[]) =>
      `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`
    console.log(`Median of ${repetitions} interleaved repetitions; wall and CPU time of the timed part only`)
    console.log(line(header))
    console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`)
    for (const row of table) console.log(line(row))
    console.log(
      'held MB: heap still used after the case with its result kept; peak RSS: a child process running that case alone (preparation included); RSS at start: that child before the timed part',
    )
    if (!process.argv.includes('--no-profile')) {
      console.log('\nTop self time of one `native rows()` child (--cpu-prof):')
      for (const entry of await profileNativeRows(endpoints)) console.log(entry)
    }
  } finally {
    await Promise.all([clients.native.close(), clients.http.close()])
    await server.stop()
  }
}

await main()
