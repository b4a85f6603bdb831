#!/usr/bin/env node
import { resolve } from 'node:path'
import { createClient } from '@clickwire/client'
import { startClickHouse } from '@clickwire/testing'
import { Command, InvalidArgumentError } from 'commander'
import { goalChecks } from './bench-results.js'
import { type RunOptions, runBench } from './bench-run.js'
/**
 * The bench's command line (`node dist/cli.js`, or `pnpm bench` from the repository root).
 *
 * @example
 * ```sh
 * node dist/cli.js                                 # quick run: a few minutes, prints the table
 * node dist/cli.js --full --out results            # the full run whose files are committed
 * node dist/cli.js --server 18.16                  # Debian's 18.16 instead of 26.9 (or --server modern: 26.7)
 * node dist/cli.js setup-peers                     # Python drivers and ch-go into .peers/
 * CLICKHOUSE_URL=http://127.0.0.1:8123 node dist/cli.js --sections chbench --numbers 500M
 * ```
 */
import { type BenchRuntime, benchRuntimes, parseRuntime } from './clickwire-runtime.js'
import { renderFigures, runClusterInsert } from './cluster-insert.js'
import { ensureOntimeDataset } from './ontime-loader.js'
import { type Cutoff, referenceCutoffs } from './ontime-schema.js'
import { setupPeers } from './peer-setup.js'
import { rawRoundTrip } from './raw-roundtrip.js'
import { writeReportFiles } from './report-files.js'
import { renderMarkdownRatios, revisionHeading } from './report-markdown.js'
import { renderRstReport } from './report-rst.js'
import { renderRevisionTable, stringLayoutChecks } from './revision-comparison.js'
import { type ClientId, clientIds, sections } from './scenario-catalog.js'
import {
  chooseServerLine,
  isModernLine,
  parseServerChoice,
  type ServerLine,
  serverChoiceHint,
} from './server-choice.js'
import type { BenchPaths } from './variant-launch.js'

const root = resolve(import.meta.dirname, '..')
const paths: BenchPaths = {
  root,
  dist: resolve(root, 'dist'),
  python: resolve(root, 'python'),
  peers: resolve(root, '.peers'),
  data: resolve(root, '.data'),
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
}

function parseCutoffs(value: string): Cutoff[] {
  return list(value).map((part) => {
    const cutoff = referenceCutoffs.find((each) => each.label === part || each.date === part)
    if (!cutoff) {
      throw new InvalidArgumentError(
        `${part}: one of ${referenceCutoffs.map((each) => each.label).join(', ')}`,
      )
    }
    return cutoff
  })
}

function parseNumbers(value: string): number[] {
  return list(value).map((part) => {
    const match = /^(\d+(?:\.\d+)?)([kMG]?)$/.exec(part)
    if (!match) throw new InvalidArgumentError(`${part}: a row count like 100M or 500000000`)
    const scale = { '': 1, k: 1e3, M: 1e6, G: 1e9 }[match[2] as '' | 'k' | 'M' | 'G']
    return Math.round(Number(match[1]) * scale)
  })
}

function parseSections(value: string): string[] {
  const ids = list(value)
  for (const id of ids) {
    if (!sections.some((section) => section.id === id)) {
      throw new InvalidArgumentError(`${id}: one of ${sections.map((section) => section.id).join(', ')}`)
    }
  }
  return ids
}

function parseClients(value: string): ClientId[] {
  const ids = list(value)
  for (const id of ids) {
    if (!clientIds.includes(id as ClientId))
      throw new InvalidArgumentError(`${id}: one of ${clientIds.join(', ')}`)
  }
  return ids as ClientId[]
}

function parseServer(value: string): ServerLine {
  const line = parseServerChoice(value)
  if (!line) throw new InvalidArgumentError(`${value}: ${serverChoiceHint}`)
  return line
}

function positive(value: string): number {
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('a positive integer')
  return number
}

interface CliOptions {
  full?: boolean
  out?: string
  url?: string
  server?: ServerLine
  repetitions?: number
  cutoffs?: Cutoff[]
  numbers?: number[]
  sections?: string[]
  clients?: ClientId[]
  all?: boolean
  fromCsv?: string
  reload?: boolean
  timeout: number
  progress: boolean
  runtime?: BenchRuntime
}

// Positional options: `load --url X` gives --url to load, not to the main program.
const program = new Command('clickwire-bench')
  .enablePositionalOptions()
  .description(
    'The ontime benchmark and ch-bench: clickwire side by side with @clickhouse/client, clickhouse-client, curl, ' +
      'Python clickhouse-driver / clickhouse-connect and ch-go (when installed: setup-peers).',
  )
  .option('--full', 'every cutoff, every variant, ch-bench at 100M and 500M, 5 repetitions')
  .option('--out <dir>', 'write results.rst, results.md, results.json and charts/*.svg there')
  .option('--url <url>', 'an existing server (default CLICKHOUSE_URL, else a throwaway local one)')
  .option(
    '--server <line>',
    'the throwaway server: latest (26.9), modern (26.7) or 18.16 (default: CLICKWIRE_SERVER, else 26.9)',
    parseServer,
  )
  .option('--repetitions <n>', 'runs per variant and point (median reported)', positive)
  .option('--cutoffs <list>', 'row cutoffs: 45k,131k,217k,450k,697k (or their dates)', parseCutoffs)
  .option('--numbers <list>', 'ch-bench row counts, e.g. 100M,500M', parseNumbers)
  .option(
    '--sections <list>',
    `only these sections: ${sections.map((section) => section.id).join(', ')}`,
    parseSections,
  )
  .option('--clients <list>', `only these clients: ${clientIds.join(', ')}`, parseClients)
  .option('--all', 'every variant, also the slow text-parsing baselines the quick run leaves out')
  .option('--from-csv <dir>', 'load real BTS zips/CSVs from this folder instead of generating the data')
  .option('--reload', 'reload the dataset even when the table looks complete')
  .option('--timeout <seconds>', 'limit of one run', positive, 900)
  .option('--no-progress', 'no progress bar')
  .option(
    '--runtime <name>',
    `run clickwire's variants on ${benchRuntimes.join(', ')} (the peers stay on this Node; default: this Node)`,
    parseRuntime,
  )
  .action(async (options: CliOptions) => {
    // `--url` before the command name belongs to the main program's options.
    const url = options.url ?? program.opts<{ url?: string }>().url
    if (url) process.env.CLICKHOUSE_URL = url
    const full = options.full === true
    const run: RunOptions = {
      mode: full
        ? 'full'
        : options.cutoffs || options.numbers || options.sections || options.clients
          ? 'custom'
          : 'quick',
      line: chooseServerLine(options.server),
      repetitions: options.repetitions ?? (full ? 5 : 2),
      cutoffs: options.cutoffs ?? (full ? referenceCutoffs : [referenceCutoffs[0], referenceCutoffs[4]]),
      numbers: options.numbers ?? (full ? [100e6, 500e6] : [100e6]),
      sections: options.sections,
      clients: options.clients,
      allVariants: full || options.all === true,
      fromCsv: options.fromCsv,
      reload: options.reload,
      timeoutMs: options.timeout * 1000,
      paths,
      progress: options.progress,
      runtime: options.runtime,
    }
    const report = await runBench(run)
    const out = resolve(options.out ?? resolve(paths.data, full ? 'last-full-run' : 'last-run'))
    const files = await writeReportFiles(report, out)
    process.stdout.write(`\n${renderRstReport(report)}\n`)
    process.stdout.write(
      `Ratios (peer time / clickwire time, native / HTTP):\n\n${renderMarkdownRatios(report)}\n`,
    )
    const goals = goalChecks(report).filter((check) => check.met !== undefined)
    if (goals.length > 0) {
      process.stdout.write(
        'Performance targets measured in this run (limits clickwire should meet against a peer):\n',
      )
      for (const check of goals) {
        const figure = (value: number) =>
          check.unit === 'bytes' ? `${(value / 1e6).toFixed(0)} MB` : `${value.toFixed(2)}×`
        process.stdout.write(
          `  ${check.goal} ${check.description} @ ${check.point}: ${figure(check.measured!)} (${check.kind} ${figure(check.limit)}) ${check.met ? 'met' : 'NOT met'}\n`,
        )
      }
    }
    const revisions = renderRevisionTable(report)
    if (revisions) {
      process.stdout.write(
        `\nString layout, ${revisionHeading(report)} (54488 time over the default's):\n\n${revisions}\n`,
      )
      for (const check of stringLayoutChecks(report).filter((each) => each.measured !== undefined)) {
        process.stdout.write(
          `  ${check.goal} ${check.description} @ ${check.point}: ${check.measured!.toFixed(2)}× (${check.kind} ${check.limit}×) ${check.met ? 'met' : 'NOT met'}\n`,
        )
      }
    }
    process.stdout.write(`\nWrote ${files.length} files to ${out} in ${report.wallSeconds.toFixed(0)} s.\n`)
  })

program
  .command('setup-peers')
  .description(
    'install the optional peers into apps/bench/.peers/ (pip --target, go build): never system-wide',
  )
  .action(async () => {
    const result = await setupPeers(paths, (line) => process.stderr.write(`${line}\n`))
    if (!result.python && !result.go) process.exitCode = 1
  })

program
  .command('load')
  .description('create perftest.ontime and load the dataset on the server of CLICKHOUSE_URL (or --url)')
  .option('--url <url>', 'the server')
  .option('--from-csv <dir>', 'real BTS zips/CSVs instead of generated data')
  .option('--reload', 'load even when the table looks complete')
  .action(async (options: { url?: string; fromCsv?: string; reload?: boolean }) => {
    // `--url` before the command name belongs to the main program's options.
    const url = options.url ?? program.opts<{ url?: string }>().url
    if (url) process.env.CLICKHOUSE_URL = url
    if (!process.env.CLICKHOUSE_URL)
      throw new Error('load needs a server that outlives it: set CLICKHOUSE_URL or --url')
    const server = await startClickHouse()
    const { user, password } = server.users.default
    const client = createClient({ url: server.nativeUrl, username: user, password })
    try {
      const report = await ensureOntimeDataset(client, { fromCsv: options.fromCsv, reload: options.reload })
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    } finally {
      await client.close()
    }
  })

program
  .command('raw-roundtrip')
  .description(
    'the ontime data exported as CSV, the file inserted with insertRaw, read back as TSV and Parquet (servers that write it)',
  )
  .option('--server <line>', 'the throwaway server: latest (26.9), modern (26.7) or 18.16', parseServer)
  .action(async (options: { server?: ServerLine }) => {
    const line = chooseServerLine(options.server)
    const server = await startClickHouse({ generation: line })
    const { user, password } = server.users.default
    const native = createClient({ url: server.nativeUrl, username: user, password })
    const http = createClient({ url: server.httpUrl, username: user, password })
    try {
      const load = await ensureOntimeDataset(native)
      process.stdout.write(`ClickHouse ${server.version}: perftest.ontime has ${load.rows} rows\n`)
      // 18.16 has no Parquet format.
      const steps = await rawRoundTrip(http, isModernLine(line))
      for (const step of steps) {
        process.stdout.write(
          `${step.step.padEnd(40)} ${String(step.rows).padStart(8)} rows ${(step.bytes / 1e6).toFixed(1).padStart(8)} MB ${step.seconds.toFixed(2).padStart(7)} s\n`,
        )
      }
    } finally {
      await Promise.all([native.close(), http.close()])
      await server.stop()
    }
  })

program
  .command('cluster-insert')
  .description(
    'insert throughput into a 1- and 2-shard cluster: a sync Distributed insert vs direct to the shards',
  )
  .option('--server <line>', 'the throwaway servers: latest (26.9), modern (26.7) or 18.16', parseServer)
  .option('--rows <n>', 'rows per insert', positive, 2_000_000)
  .option('--repetitions <n>', 'timed inserts per path and shard count', positive, 3)
  .option('--transport <name>', 'native or http', 'native')
  .action(async (options: { server?: ServerLine; rows: number; repetitions: number; transport: string }) => {
    const line = chooseServerLine(options.server)
    const transport = options.transport === 'http' ? 'http' : 'native'
    const log = (line: string) => process.stderr.write(`${line}\n`)
    const { version, figures } = await runClusterInsert({ ...options, line, transport, log })
    process.stdout.write(
      renderFigures(
        figures,
        `ClickHouse ${version}, ${transport}, ${options.rows} rows, median of ${options.repetitions}`,
      ),
    )
  })

await program.parseAsync()
