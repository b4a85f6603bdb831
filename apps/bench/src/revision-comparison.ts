import {
  type BenchReport,
  type Cell,
  formatBytes,
  formatRatio,
  formatSeconds,
  type GoalCheck,
  type SectionResult,
  type VariantResult,
} from './bench-results.js'

/** A clickwire variant at its own revision beside its copy forced to an older one. */
export interface RevisionRow {
  readonly section: SectionResult
  /** The variant at clickwire's own revision. */
  readonly current: VariantResult
  /** Its copy at {@link RevisionRow.revision}. */
  readonly older: VariantResult
  readonly revision: number
  /** point id -> older time / current time: 2 means the current revision takes half as long. */
  readonly speedup: Readonly<Record<string, number | undefined>>
}

function ratio(numerator: Cell | undefined, denominator: Cell | undefined): number | undefined {
  if (numerator?.medianMs === undefined || denominator?.medianMs === undefined || denominator.medianMs <= 0)
    return undefined
  return numerator.medianMs / denominator.medianMs
}

/** Every `@<revision>` variant of a report with the variant it was copied from, in table order. */
export function revisionRows(report: Pick<BenchReport, 'sections'>): RevisionRow[] {
  const rows: RevisionRow[] = []
  for (const section of report.sections) {
    for (const older of section.variants) {
      if (older.protocolRevision === undefined) continue
      const baseId = older.id.slice(0, older.id.lastIndexOf('@'))
      const current = section.variants.find((each) => each.id === baseId)
      if (!current) continue
      const speedup: Record<string, number | undefined> = {}
      for (const point of section.points)
        speedup[point.id] = ratio(older.cells[point.id], current.cells[point.id])
      rows.push({ section, current, older, revision: older.protocolRevision, speedup })
    }
  }
  return rows
}

/** The largest point where both cells have a time: the goals are stated at the largest size. */
function largestPoint(section: SectionResult, ...variants: (VariantResult | undefined)[]) {
  return [...section.points]
    .reverse()
    .find((point) => variants.every((variant) => variant?.cells[point.id]?.medianMs !== undefined))
}

function check(
  goal: string,
  description: string,
  measured: number | undefined,
  point: string | undefined,
  limit: number,
): GoalCheck {
  return {
    goal,
    description,
    measured,
    limit,
    kind: 'at least',
    unit: 'ratio',
    met: measured === undefined ? undefined : measured >= limit,
    point,
  }
}

/**
 * The goals of issue 27, point 5, on a report: String columns and Arrow string columns at
 * least twice as fast at clickwire's own revision (54492) as at 54488, and Arrow string
 * columns faster than clickhouse-connect's. Unmeasured goals have `met` undefined.
 */
export function stringLayoutChecks(report: Pick<BenchReport, 'sections'>): GoalCheck[] {
  const rows = revisionRows(report)
  const speedupGoal = (id: string, description: string) => {
    const row = rows.find((each) => each.current.id === id)
    const point = row && largestPoint(row.section, row.current, row.older)
    return check('#27.5', description, point && row.speedup[point.id], point?.label, 2)
  }
  const checks = [
    speedupGoal('strings/cw-native-columns', 'string columns() (10) native, 54488 time over 54492'),
    speedupGoal('strings/cw-http-columns', 'string columns() (10) HTTP, 54488 time over 54492'),
    speedupGoal('arrow-strings/cw-native-arrow', 'arrow() string columns (23) native, 54488 time over 54492'),
    speedupGoal('arrow-strings/cw-http-arrow', 'arrow() string columns (23) HTTP, 54488 time over 54492'),
  ]
  const section = report.sections.find((each) => each.id === 'arrow-strings')
  const ours = section?.variants.find((each) => each.id === 'arrow-strings/cw-native-arrow')
  const connect = section?.variants.find((each) => each.id === 'arrow-strings/connect-arrow')
  const point = section && largestPoint(section, ours, connect)
  checks.push(
    check(
      '#27.5',
      'clickhouse-connect (24) time over arrow() string columns (23) native',
      point && ratio(connect?.cells[point.id], ours?.cells[point.id]),
      point?.label,
      // "Ahead": any margin above 1 counts; the table shows how much.
      1,
    ),
  )
  return checks
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, index) => (index < 2 ? ':--' : '--:')).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ]
}

/**
 * The "54492 vs 54488" table in Markdown: each String-dependent clickwire variant, its time at
 * its own revision and at the older one, and the older time over the current one, per point.
 * Empty when the run has no `@<revision>` variant with a result.
 */
export function renderRevisionTable(report: Pick<BenchReport, 'sections'>): string {
  const rows = revisionRows(report).filter((row) =>
    row.section.points.some((point) => row.speedup[point.id] !== undefined),
  )
  if (rows.length === 0) return ''
  const lines: string[] = []
  for (const axis of ['cutoff', 'numbers'] as const) {
    const ofAxis = rows.filter((row) => row.section.axis === axis)
    if (ofAxis.length === 0) continue
    const points = ofAxis[0]!.section.points
    const compare = (
      figure: (cell: Cell | undefined) => number | undefined,
      format: (value: number) => string,
    ) =>
      table(
        ['section', 'clickwire variant', ...points.map((point) => point.label)],
        ofAxis.map((row) => [
          row.section.title,
          row.current.label,
          ...points.map((point) => {
            const current = figure(row.current.cells[point.id])
            const older = figure(row.older.cells[point.id])
            if (current === undefined || older === undefined || current <= 0) return 'n/a'
            return `${format(current)} vs ${format(older)} (${formatRatio(older / current)})`
          }),
        ]),
      )
    lines.push(...compare((cell) => cell?.medianMs, formatSeconds), '')
    const sent = (cell: Cell | undefined) => (cell?.medianMs === undefined ? undefined : cell.medianSentBytes)
    if (ofAxis.some((row) => points.some((point) => sent(row.current.cells[point.id]) !== undefined))) {
      lines.push(
        'Bytes the server sent per run (`NetworkSendBytes`), the same way round: below 1, the newer layout sends more.',
        '',
        ...compare(sent, formatBytes),
        '',
      )
    }
  }
  return lines.join('\n')
}
