import type { Measurement } from './job-runner.js'
import type { LoadReport } from './ontime-loader.js'
import type { ClientId } from './scenario-catalog.js'
import type { ServerGeneration } from './server-choice.js'

/** One column of a section: an ontime cutoff or a ch-bench row count. */
export interface Point {
  readonly id: string
  readonly label: string
  /** What the child gets: a cutoff date or a row count. */
  readonly argument: string
  /** Rows a full read returns, checked against what each child reports. */
  readonly expectedRows: number
}

/** A variant's runs at one point and their medians. */
export interface Cell {
  readonly runs: readonly Measurement[]
  readonly medianMs?: number | undefined
  readonly medianRssBytes?: number | undefined
  /** Median bytes the server sent during the runs (where it counts them; see `serverSentBytes`). */
  readonly medianSentBytes?: number | undefined
  /** Why there is no figure (every run failed, or the variant could not run here). */
  readonly error?: string | undefined
  /** Failed runs among `runs`, when some succeeded. */
  readonly failures?: number | undefined
}

export interface VariantResult {
  readonly id: string
  readonly label: string
  readonly client: ClientId
  readonly ours: boolean
  /** The revision an `@<revision>` copy of a clickwire variant was forced to (see `atRevision`). */
  readonly protocolRevision?: number | undefined
  readonly cells: Readonly<Record<string, Cell>>
}

export interface SectionResult {
  readonly id: string
  readonly title: string
  readonly axis: 'cutoff' | 'numbers'
  readonly points: readonly Point[]
  readonly variants: readonly VariantResult[]
}

export interface MachineInfo {
  readonly cpu: string
  readonly cores: number
  readonly memoryBytes: number
  readonly os: string
  readonly node: string
  /** What ran clickwire's variants (`--runtime`), when recorded: `Node.js v26.12.1`, `Bun 1.4.5`, ... */
  readonly clickwireRuntime?: string | undefined
  readonly python?: string | undefined
  readonly go?: string | undefined
}

export interface PeerInfo {
  readonly client: ClientId
  readonly version?: string | undefined
  /** Why it did not run, when it did not. */
  readonly unavailable?: string | undefined
}

export interface BenchReport {
  readonly mode: 'quick' | 'full' | 'custom'
  readonly generatedAt: string
  readonly repetitions: number
  readonly wallSeconds: number
  readonly machine: MachineInfo
  /**
   * The machine's 1-minute load average when the run started and ended: above the core count,
   * other processes competed with the runs (absent in reports written before it was recorded).
   */
  readonly load?: { readonly start: number; readonly end: number } | undefined
  readonly server: {
    readonly version: string
    /** `legacy` (18.16) or `modern`; absent in reports written before both generations ran. */
    readonly generation?: ServerGeneration | undefined
    /** The release line, `major.minor` (`26.9`); absent in reports written before 26.9 ran. */
    readonly line?: string | undefined
    /**
     * The native protocol revision clickwire and the server agreed on (the smaller of both);
     * absent in reports written before it was recorded.
     */
    readonly revision?: number | undefined
    readonly source: string
  }
  readonly dataset: LoadReport & { readonly cutoffRows: Readonly<Record<string, number>> }
  /**
   * Whether every run was also checked on the server's byte counters (the rows really
   * travelled); false where the server has none (18.16).
   */
  readonly trafficChecked?: boolean | undefined
  readonly peers: readonly PeerInfo[]
  readonly sections: readonly SectionResult[]
}

export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Summarises the runs of one cell. */
export function cellOf(runs: readonly Measurement[], unavailable?: string): Cell {
  if (unavailable) return { runs: [], error: unavailable }
  const good = runs.filter((run) => run.error === undefined)
  if (good.length === 0) return { runs, error: runs[0]?.error ?? 'not run' }
  const rss = good.map((run) => run.maxRssBytes).filter((value): value is number => value !== undefined)
  return {
    runs,
    medianMs: median(good.map((run) => run.elapsedMs)),
    medianRssBytes: median(rss),
    medianSentBytes: median(
      good.map((run) => run.serverSentBytes).filter((value): value is number => value !== undefined),
    ),
    failures: good.length < runs.length ? runs.length - good.length : undefined,
  }
}

/** Seconds as the reference prints them: `0.13 s`. */
export function formatSeconds(ms: number | undefined): string {
  if (ms === undefined) return 'n/a'
  const seconds = ms / 1000
  return `${seconds >= 100 ? seconds.toFixed(1) : seconds.toFixed(2)} s`
}

/** Memory as the reference prints it: `61 MB`, `1.48 GB` (decimal units). */
export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return 'n/a'
  if (bytes < 999.5e6) return `${Math.round(bytes / 1e6)} MB`
  return `${(bytes / 1e9).toFixed(2)} GB`
}

/** A peer's time over ours: 3.2 means the peer takes 3.2 times as long. */
export function formatRatio(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return 'n/a'
  return `${ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}×`
}

/** How one peer compares with clickwire in one section, per point. */
export interface RatioRow {
  readonly section: string
  readonly variant: VariantResult
  /** point id -> peer time / clickwire native time */
  readonly overNative: Readonly<Record<string, number | undefined>>
  /** point id -> peer time / clickwire HTTP time */
  readonly overHttp: Readonly<Record<string, number | undefined>>
}

/** The section's reference rows: its first clickwire native and HTTP variants. */
export function baselineVariants(section: SectionResult) {
  return {
    native: section.variants.find((each) => each.client === 'clickwire-native'),
    http: section.variants.find((each) => each.client === 'clickwire-http'),
  }
}

function ratio(peer: Cell | undefined, ours: Cell | undefined): number | undefined {
  if (peer?.medianMs === undefined || ours?.medianMs === undefined || ours.medianMs <= 0) return undefined
  return peer.medianMs / ours.medianMs
}

/** Every peer's time over clickwire's, section by section (sections without clickwire give none). */
export function ratioRows(report: Pick<BenchReport, 'sections'>): RatioRow[] {
  const rows: RatioRow[] = []
  for (const section of report.sections) {
    const { native, http } = baselineVariants(section)
    if (!native && !http) continue
    for (const variant of section.variants) {
      if (variant.ours) continue
      const overNative: Record<string, number | undefined> = {}
      const overHttp: Record<string, number | undefined> = {}
      for (const point of section.points) {
        overNative[point.id] = ratio(variant.cells[point.id], native?.cells[point.id])
        overHttp[point.id] = ratio(variant.cells[point.id], http?.cells[point.id])
      }
      rows.push({ section: section.id, variant, overNative, overHttp })
    }
  }
  return rows
}

/** One performance goal of issue 11, evaluated on a report. */
export interface GoalCheck {
  readonly goal: string
  readonly description: string
  /** The measured figure (a ratio, or bytes for memory goals). */
  readonly measured?: number | undefined
  readonly limit: number
  readonly kind: 'at most' | 'at least'
  readonly unit: 'ratio' | 'bytes'
  /** undefined: not measured in this run. */
  readonly met?: boolean | undefined
  readonly point?: string | undefined
}

function cellAt(report: Pick<BenchReport, 'sections'>, variantId: string, point?: string) {
  for (const section of report.sections) {
    const variant = section.variants.find((each) => each.id === variantId)
    if (!variant) continue
    // The largest point measured: the goals are stated at 697k rows and 500M numbers.
    const pointId =
      point ?? [...section.points].reverse().find((each) => variant.cells[each.id]?.medianMs)?.id
    return pointId ? { cell: variant.cells[pointId], point: pointId } : undefined
  }
  return undefined
}

function timeRatio(report: Pick<BenchReport, 'sections'>, numerator: string, denominator: string) {
  const top = cellAt(report, numerator)
  const bottom = top ? cellAt(report, denominator, top.point) : undefined
  return { value: ratio(top?.cell, bottom?.cell), point: top?.point }
}

function fastestPeer(
  report: Pick<BenchReport, 'sections'>,
  ids: readonly string[],
  point: string | undefined,
) {
  let best: Cell | undefined
  for (const id of ids) {
    const cell = cellAt(report, id, point)?.cell
    if (cell?.medianMs !== undefined && (best?.medianMs === undefined || cell.medianMs < best.medianMs))
      best = cell
  }
  return best
}

/** The goals P1-P6 of issue 11, as far as this run measured them. */
export function goalChecks(report: Pick<BenchReport, 'sections'>): GoalCheck[] {
  const checks: GoalCheck[] = []
  const add = (
    goal: string,
    description: string,
    measured: { value: number | undefined; point: string | undefined },
    kind: GoalCheck['kind'],
    limit: number,
    unit: GoalCheck['unit'] = 'ratio',
  ) => {
    const met =
      measured.value === undefined
        ? undefined
        : kind === 'at most'
          ? measured.value <= limit
          : measured.value >= limit
    checks.push({
      goal,
      description,
      measured: measured.value,
      limit,
      kind,
      unit,
      met,
      point: measured.point,
    })
  }
  const inverse = (measured: { value: number | undefined; point: string | undefined }) => ({
    value: measured.value === undefined ? undefined : 1 / measured.value,
    point: measured.point,
  })
  add(
    'P1',
    'ch-bench native LZ4 vs clickhouse-client LZ4',
    timeRatio(report, 'chbench/cw-native-lz4', 'chbench/cli-lz4'),
    'at most',
    1.1,
  )
  add(
    'P1',
    'ch-bench native uncompressed vs clickhouse-client uncompressed',
    timeRatio(report, 'chbench/cw-native-none', 'chbench/cli-none'),
    'at most',
    1.3,
  )
  const chbenchRss = cellAt(report, 'chbench/cw-native-lz4')
  add(
    'P1',
    'ch-bench native LZ4 peak RSS',
    { value: chbenchRss?.cell?.medianRssBytes, point: chbenchRss?.point },
    'at most',
    100e6,
    'bytes',
  )
  add(
    'P2',
    'ch-bench HTTP Native vs curl of the same bytes',
    timeRatio(report, 'chbench/cw-http', 'chbench/curl-native'),
    'at most',
    1.1,
  )
  add(
    'P3',
    'rows() (4) vs clickhouse-client --format Null',
    timeRatio(report, 'parsed/cw-native-rows', 'parsed/cli-null'),
    'at most',
    1.6,
  )
  add(
    'P3',
    'clickhouse-driver (4) over rows() (4)',
    inverse(timeRatio(report, 'parsed/cw-native-rows', 'parsed/driver-rows')),
    'at least',
    3,
  )
  const rows = cellAt(report, 'parsed/cw-native-rows')
  const chjs = fastestPeer(report, ['parsed/chjs-jsoneachrow', 'parsed/chjs-jsoncompact'], rows?.point)
  add(
    'P3',
    "@clickhouse/client's fastest format over rows() (4)",
    { value: ratio(chjs, rows?.cell), point: rows?.point },
    'at least',
    5,
  )
  add(
    'P4',
    'clickhouse-driver execute_iter (7) over for await (7)',
    inverse(timeRatio(report, 'iteration/cw-native-iterate', 'iteration/driver-iter')),
    'at least',
    4,
  )
  const iteration = cellAt(report, 'iteration/cw-native-iterate')
  add(
    'P4',
    'for await (7) peak RSS',
    { value: iteration?.cell?.medianRssBytes, point: iteration?.point },
    'at most',
    120e6,
    'bytes',
  )
  add(
    'P5',
    'int columns() (13) vs clickhouse-client --format Null',
    timeRatio(report, 'ints/cw-native-columns', 'ints/cli-null'),
    'at most',
    1.1,
  )
  add(
    'P5',
    'arrow() int columns (21) vs clickhouse-client --format Null',
    timeRatio(report, 'arrow-ints/cw-native-arrow', 'arrow-ints/cli-null'),
    'at most',
    1.1,
  )
  add(
    'P5',
    'arrow() string columns (23) vs clickhouse-client --format Null',
    timeRatio(report, 'arrow-strings/cw-native-arrow', 'arrow-strings/cli-null'),
    'at most',
    1.1,
  )
  add(
    'P6',
    'native insert vs clickhouse-client Native file',
    timeRatio(report, 'insert/cw-native-insert', 'insert/cli-native'),
    'at most',
    1.3,
  )
  return checks
}
