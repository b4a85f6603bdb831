import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { type Client, createClient } from '@clickwire/client'
import { type ClickHouseCommand, type ServerInfo, startClickHouse } from '@clickwire/testing'
import cliProgress from 'cli-progress'
import { type BenchReport, cellOf, type PeerInfo, type Point, type SectionResult } from './bench-results.js'
import { describePeers, describeThisMachine, findTools } from './bench-tools.js'
import { type BenchRuntime, clickwireRuntime } from './clickwire-runtime.js'
import { type Measurement, runMeasured } from './job-runner.js'
import { createEmptyOntime, ensureOntimeDataset, type LoadReport } from './ontime-loader.js'
import { type ClientId, isOurs, sections, type Variant, variants } from './scenario-catalog.js'
import { insertTable } from './scenario-queries.js'
import { defaultServerLine, describeServerLine, type ServerLine } from './server-choice.js'
import { readTraffic, transferShortfall } from './server-traffic.js'
import { type BenchPaths, type BenchServer, launchFor, missingTool, nativeFileFor } from './variant-launch.js'

/** What one benchmark run measures. */
/** A row cutoff: the reference's, or any date (tests use a small one). */
export interface CutoffPoint {
  readonly date: string
  readonly label: string
}

export interface RunOptions {
  readonly mode: BenchReport['mode']
  /** The throwaway server's release line (without CLICKHOUSE_URL or `server`); default 26.9. */
  readonly line?: ServerLine | undefined
  readonly repetitions: number
  readonly cutoffs: readonly CutoffPoint[]
  /** ch-bench row counts. */
  readonly numbers: readonly number[]
  /** Only these sections (ids), when given. */
  readonly sections?: readonly string[] | undefined
  /** Only these clients, when given. */
  readonly clients?: readonly ClientId[] | undefined
  /** Every variant (full run) or only the quick ones. */
  readonly allVariants: boolean
  readonly fromCsv?: string | undefined
  readonly reload?: boolean | undefined
  readonly timeoutMs: number
  readonly paths: BenchPaths
  /** A server to use and leave running (tests); default CLICKHOUSE_URL or a throwaway one. */
  readonly server?: ServerInfo | undefined
  /** Generate the dataset only through this day (tests). */
  readonly datasetLastDay?: string | undefined
  /** Progress bar and messages go to stderr; false keeps them quiet (tests). */
  readonly progress: boolean
  /** The runtime of clickwire's own variants (`--runtime`); default the bench's Node. */
  readonly runtime?: BenchRuntime | undefined
}

function log(options: RunOptions, line: string): void {
  if (options.progress) process.stderr.write(`${line}\n`)
}

export function formatCount(rows: number): string {
  if (rows >= 1e6 && rows % 1e6 === 0) return `${rows / 1e6}M`
  if (rows >= 1e3) return `${Math.round(rows / 1e3)}k`
  return String(rows)
}

function endpointsOf(server: ServerInfo): BenchServer {
  const { user, password } = server.users.default
  const credentials = `${encodeURIComponent(user)}:${encodeURIComponent(password)}@`
  const host = server.host.includes(':') ? `[${server.host}]` : server.host
  return {
    host: server.host,
    nativePort: server.ports.tcp,
    httpPort: server.ports.http,
    user,
    password,
    nativeUrl: `clickhouse://${credentials}${host}:${server.ports.tcp}`,
    httpUrl: `http://${credentials}${host}:${server.ports.http}`,
    httpBase: `http://${host}:${server.ports.http}`,
  }
}

async function countRows(client: Client, query: string): Promise<number> {
  const rows = await (await client.query(query)).arrays()
  return Number(rows[0]?.[0])
}

/**
 * Waits (up to `limitMs`) until the server runs no background merge. The parts an insert
 * run (or the dataset load) leaves are merged for a while afterwards, on the same 2 cores
 * the next runs measure: ch-bench uncompressed right after the insert section took 1.1–1.7 s
 * instead of 0.62–0.68 s. Every client gets the same quiet server.
 */
async function settle(client: Client, limitMs = 60_000): Promise<void> {
  const until = Date.now() + limitMs
  while (Date.now() < until && (await countRows(client, 'SELECT count() FROM system.merges')) > 0) {
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function authorization(server: BenchServer): string {
  return `Basic ${Buffer.from(`${server.user}:${server.password}`).toString('base64')}`
}

/** A query's result in the Native format, written to a file by clickhouse-client. */
async function exportNative(
  command: ClickHouseCommand,
  server: BenchServer,
  query: string,
  file: string,
): Promise<void> {
  const output = openSync(file, 'w')
  try {
    const args = [
      ...command.args,
      '--host',
      server.host,
      '--port',
      String(server.nativePort),
      '--user',
      server.user,
      ...(server.password ? ['--password', server.password] : []),
      '--query',
      query,
      '--format',
      'Native',
    ]
    const child = spawn(command.file, args, { stdio: ['ignore', output, 'pipe'] })
    let errors = ''
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      errors += chunk
    })
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject)
      child.once('close', resolve)
    })
    if (code !== 0) throw new Error(`exporting ${file} failed: ${errors.trim()}`)
  } finally {
    closeSync(output)
  }
}

/** Reads the whole table once so every client starts with the same warm page cache. */
async function warmUp(server: BenchServer): Promise<void> {
  const response = await fetch(
    `${server.httpBase}/?query=${encodeURIComponent('SELECT * FROM perftest.ontime FORMAT Null')}`,
    { headers: { authorization: authorization(server) } },
  )
  await response.text()
}

/** An error text without the server's password (a program may echo its command line). */
function redact(text: string, server: BenchServer): string {
  return server.password ? text.replaceAll(server.password, '***') : text
}

/** One scheduled run. */
interface Job {
  readonly variant: Variant
  readonly point: Point
  readonly repetition: number
}

/**
 * The order of runs: repetition by repetition, section by section, point by point, and
 * within each the variants rotated one step per repetition, so that peers alternate and
 * a noisy moment of the machine hits them all alike.
 */
export function planJobs(
  chosen: readonly Variant[],
  pointsOf: (variant: Variant) => readonly Point[],
  repetitions: number,
): Job[] {
  const jobs: Job[] = []
  for (let repetition = 0; repetition < repetitions; repetition++) {
    for (const section of sections) {
      const inSection = chosen.filter((variant) => variant.section === section.id)
      if (inSection.length === 0) continue
      for (const point of pointsOf(inSection[0]!)) {
        const shift = repetition % inSection.length
        const rotated = [...inSection.slice(shift), ...inSection.slice(0, shift)]
        for (const variant of rotated) jobs.push({ variant, point, repetition })
      }
    }
  }
  return jobs
}

/** The variants a run includes. */
export function chooseVariants(options: Pick<RunOptions, 'sections' | 'clients' | 'allVariants'>): Variant[] {
  return variants.filter(
    (variant) =>
      (options.allVariants || variant.quick) &&
      (!options.sections || options.sections.includes(variant.section)) &&
      (!options.clients || options.clients.includes(variant.client)),
  )
}

/**
 * Runs the benchmark: a server (CLICKHOUSE_URL, else a throwaway local one), the dataset
 * (loaded when missing), then every chosen variant at every point, each run in its own
 * process, interleaved over the repetitions. Returns the report; nothing is printed but
 * progress.
 */
export async function runBench(options: RunOptions): Promise<BenchReport> {
  const started = performance.now()
  const loadAtStart = loadavg()[0]!
  await mkdir(options.paths.data, { recursive: true })
  if (!options.server) {
    log(
      options,
      process.env.CLICKHOUSE_URL
        ? 'Using the server of CLICKHOUSE_URL.'
        : `Starting a throwaway ClickHouse server, ${describeServerLine(options.line ?? defaultServerLine)}...`,
    )
  }
  const owned = options.server
    ? undefined
    : await startClickHouse({ generation: options.line ?? defaultServerLine })
  const server: ServerInfo = options.server ?? owned!
  const endpoints = endpointsOf(server)
  const admin = createClient({ url: endpoints.nativeUrl })
  try {
    const info = await admin.serverInfo()
    log(
      options,
      `ClickHouse ${server.version || info.version} (${server.generation} generation), revision ${info.revision} with clickwire, at ${endpoints.httpBase}.`,
    )

    const loadBar = options.progress
      ? new cliProgress.SingleBar(
          {
            format: 'loading perftest.ontime {bar} {value}/{total} rows',
            noTTYOutput: true,
            notTTYSchedule: 5000,
          },
          cliProgress.Presets.shades_classic,
        )
      : undefined
    let loadStarted = false
    const dataset: LoadReport = await ensureOntimeDataset(admin, {
      fromCsv: options.fromCsv,
      reload: options.reload,
      lastDay: options.datasetLastDay,
      onRows: (rows, expected) => {
        if (!loadBar) return
        if (!loadStarted) {
          loadBar.start(expected ?? 0, 0)
          loadStarted = true
        }
        if (!expected) loadBar.setTotal(rows)
        loadBar.update(rows)
      },
    })
    loadBar?.stop()
    if (dataset.source !== 'existing') {
      log(
        options,
        `Loaded ${dataset.rows} rows in ${dataset.seconds.toFixed(1)} s (${Math.round(dataset.rowsPerSecond)} rows/s inserting).`,
      )
    }
    const cutoffRows: Record<string, number> = {}
    for (const cutoff of options.cutoffs) {
      cutoffRows[cutoff.date] = await countRows(
        admin,
        `SELECT count() FROM perftest.ontime WHERE FlightDate < '${cutoff.date}'`,
      )
    }

    // 18.16 has no byte counters: there only the rows the peers report are checked.
    const countsTraffic = (await readTraffic(admin)) !== undefined
    const runtime = clickwireRuntime(options.runtime)
    const tools = { ...findTools(options.paths), clickwire: options.runtime ? runtime : undefined }
    const peerInfo = describePeers(tools, options.paths)
    const unavailable = new Map<string, string>()
    for (const peer of peerInfo.values()) if (peer.unavailable) unavailable.set(peer.client, peer.unavailable)
    if (tools.chgo) {
      // ch-go skips ClientInfo below revision 54420: old servers reject its queries.
      const probe = await runMeasured(
        launchFor(variants.find((each) => each.client === 'ch-go' && each.work === 'numbers')!, '1', {
          server: endpoints,
          paths: options.paths,
          tools,
        }),
        { timeoutMs: 30_000 },
      )
      if (probe.error) unavailable.set('ch-go', `fails on this server: ${redact(probe.error, endpoints)}`)
    }

    const chosen = chooseVariants(options)
    const cutoffPoints: Point[] = options.cutoffs.map((cutoff) => ({
      id: cutoff.label,
      label: cutoff.label,
      argument: cutoff.date,
      expectedRows: cutoffRows[cutoff.date]!,
    }))
    const numberPoints: Point[] = options.numbers.map((rows) => ({
      id: formatCount(rows),
      label: formatCount(rows),
      argument: String(rows),
      expectedRows: rows,
    }))
    const pointsOf = (variant: Variant) =>
      sections.find((section) => section.id === variant.section)?.axis === 'numbers'
        ? numberPoints
        : cutoffPoints

    // The @54488 copies measure the older String layout against the current one: where the
    // client and the server agree on 54488 or less anyway, both would run the same bytes.
    const revisionUnavailable = (variant: Variant) =>
      variant.protocolRevision !== undefined && info.revision <= variant.protocolRevision
        ? `clickwire and this server speak revision ${info.revision}: the same as the default run`
        : undefined
    const whyNot = (variant: Variant) =>
      missingTool(variant, tools, unavailable) ?? revisionUnavailable(variant)
    const canRun = chosen.filter((variant) => !whyNot(variant))
    if (canRun.some((variant) => variant.work === 'insert')) {
      await createEmptyOntime(admin, insertTable.split('.')[1])
      if (tools.clickhouseClient) {
        for (const point of cutoffPoints) {
          await exportNative(
            tools.clickhouseClient,
            endpoints,
            `SELECT * FROM perftest.ontime WHERE FlightDate < '${point.argument}' FORMAT Native`,
            nativeFileFor(options.paths, point.argument, point.expectedRows),
          )
        }
      }
    }
    await warmUp(endpoints)

    const jobs = planJobs(canRun, pointsOf, options.repetitions)
    const runs = new Map<string, Measurement[]>()
    const key = (variant: Variant, point: Point) => `${variant.id}@${point.id}`
    const bar = options.progress
      ? new cliProgress.SingleBar(
          {
            format:
              '{bar} {value}/{total} runs | {duration_formatted} elapsed, ~{eta_formatted} left | {job}',
            noTTYOutput: true,
            notTTYSchedule: 10_000,
            etaBuffer: 40,
          },
          cliProgress.Presets.shades_classic,
        )
      : undefined
    bar?.start(jobs.length, 0, { job: '' })
    for (const job of jobs) {
      const { variant, point } = job
      bar?.update({ job: `${variant.label} @ ${point.label} (#${job.repetition + 1})` })
      const previous = runs.get(key(variant, point)) ?? []
      // A variant that failed once at a point is not tried again there: failures here are
      // capabilities (an old server, a missing format) or timeouts, not noise.
      if (previous.some((run) => run.error !== undefined)) {
        bar?.increment()
        continue
      }
      if (variant.work === 'insert') await admin.command(`TRUNCATE TABLE ${insertTable}`)
      await settle(admin)
      const before = countsTraffic ? await readTraffic(admin) : undefined
      let measurement = await runMeasured(
        launchFor(variant, point.argument, {
          server: endpoints,
          paths: options.paths,
          tools,
          rows: point.expectedRows,
        }),
        { timeoutMs: options.timeoutMs, gnuTime: tools.gnuTime },
      )
      if (!measurement.error) {
        const rows =
          variant.work === 'insert'
            ? await countRows(admin, `SELECT count() FROM ${insertTable}`)
            : measurement.rows
        if (typeof rows === 'number' && rows !== point.expectedRows) {
          measurement = { ...measurement, error: `read ${rows} rows, expected ${point.expectedRows}` }
        }
      }
      if (!measurement.error && before) {
        // clickhouse-client and curl report no rows: this catches a result the server
        // discarded itself (on 26.7 a FORMAT Null inside the query sends nothing).
        const after = await readTraffic(admin)
        const shortfall = after && transferShortfall(variant.work, point.expectedRows, before, after)
        if (after) measurement = { ...measurement, serverSentBytes: after.sentBytes - before.sentBytes }
        if (shortfall) measurement = { ...measurement, error: shortfall }
      }
      // Its parts would otherwise be merged in the background during the next runs.
      if (variant.work === 'insert') await admin.command(`TRUNCATE TABLE ${insertTable}`)
      if (measurement.error) measurement = { ...measurement, error: redact(measurement.error, endpoints) }
      runs.set(key(variant, point), [...previous, measurement])
      bar?.increment()
    }
    bar?.stop()

    const sectionResults: SectionResult[] = sections.map((section) => {
      const inSection = chosen.filter((variant) => variant.section === section.id)
      const points = section.axis === 'numbers' ? numberPoints : cutoffPoints
      return {
        id: section.id,
        title: section.title,
        axis: section.axis,
        points,
        variants: inSection.map((variant) => {
          const missing = whyNot(variant)
          return {
            id: variant.id,
            label: variant.label,
            client: variant.client,
            ours: isOurs(variant.client),
            protocolRevision: variant.protocolRevision,
            cells: Object.fromEntries(
              points.map((point) => [point.id, cellOf(runs.get(key(variant, point)) ?? [], missing)]),
            ),
          }
        }),
      }
    })
    const usedClients = new Set(chosen.map((variant) => variant.client))
    const peers: PeerInfo[] = [...peerInfo.values()]
      .filter((peer) => usedClients.has(peer.client))
      .map((peer) => ({ ...peer, unavailable: unavailable.get(peer.client) }))
    return {
      mode: options.mode,
      generatedAt: new Date().toISOString(),
      repetitions: options.repetitions,
      wallSeconds: (performance.now() - started) / 1000,
      machine: { ...describeThisMachine(tools), clickwireRuntime: runtime.version },
      load: { start: loadAtStart, end: loadavg()[0]! },
      server: {
        // `SELECT version()` has all four parts (26.7.2.1); the hello only three.
        version: server.version || info.version,
        generation: server.generation,
        line: server.line || undefined,
        revision: info.revision || undefined,
        source: server.source === 'local' ? 'a throwaway local server started by the bench' : server.source,
      },
      dataset: { ...dataset, cutoffRows },
      trafficChecked: countsTraffic,
      peers,
      sections: sectionResults,
    }
  } finally {
    await admin.close()
    // The harness's keeper process is unref'd, so while stop() waits for it nothing else
    // would keep this process alive: hold the event loop open until the server is gone.
    const keepAlive = setInterval(() => {}, 1000)
    try {
      await owned?.stop()
    } finally {
      clearInterval(keepAlive)
    }
  }
}
