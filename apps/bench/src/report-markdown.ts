import {
  type BenchReport,
  formatBytes,
  formatRatio,
  formatSeconds,
  type GoalCheck,
  goalChecks,
  ratioRows,
  type SectionResult,
} from './bench-results.js'
import { describeMachine } from './report-header.js'
import { renderRevisionTable, stringLayoutChecks } from './revision-comparison.js'
import { olderStringRevision } from './scenario-catalog.js'

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, index) => (index === 0 ? ':--' : '--:')).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ]
}

/** One section as two Markdown tables (timing, memory), one column per point. */
export function renderMarkdownSection(section: SectionResult): string {
  const header = ['', ...section.points.map((point) => point.label)]
  const block = (kind: 'timing' | 'memory') =>
    table(
      header,
      section.variants.map((variant) => [
        variant.ours ? `**${variant.label}**` : variant.label,
        ...section.points.map((point) => {
          const cell = variant.cells[point.id]
          if (cell?.medianMs === undefined) return 'n/a'
          return kind === 'timing' ? formatSeconds(cell.medianMs) : formatBytes(cell.medianRssBytes)
        }),
      ]),
    )
  return [
    `### ${section.title}: timing`,
    '',
    ...block('timing'),
    '',
    `### ${section.title}: memory`,
    '',
    ...block('memory'),
    '',
  ].join('\n')
}

/** Peers' time over clickwire's, per section and point: `native / HTTP`. */
export function renderMarkdownRatios(report: Pick<BenchReport, 'sections'>): string {
  const lines: string[] = []
  for (const section of report.sections) {
    const rows = ratioRows({ sections: [section] })
    if (rows.length === 0) continue
    lines.push(`### ${section.title}`, '')
    lines.push(
      ...table(
        ['peer', ...section.points.map((point) => point.label)],
        rows.map((row) => [
          row.variant.label,
          ...section.points.map(
            (point) => `${formatRatio(row.overNative[point.id])} / ${formatRatio(row.overHttp[point.id])}`,
          ),
        ]),
      ),
      '',
    )
  }
  return lines.join('\n')
}

function formatGoal(check: GoalCheck): string {
  const figure = (value: number) => (check.unit === 'bytes' ? formatBytes(value) : formatRatio(value))
  const status = check.met === undefined ? 'not measured' : check.met ? 'met' : 'not met'
  return `| ${check.goal} | ${check.description} | ${check.point ?? ''} | ${check.measured === undefined ? 'n/a' : figure(check.measured)} | ${check.kind} ${figure(check.limit)} | ${status} |`
}

/** The whole Markdown report: header, every section, the ratios and the performance targets. */
export function renderMarkdownReport(report: BenchReport): string {
  const parts = [
    '# clickwire benchmark results',
    '',
    ...describeMachine(report).map((line) => `- ${line}`),
    '',
    'Median of the repetitions: wall time from after imports to exit, and peak RSS (decimal MB/GB).',
    'clickwire rows are in bold; n/a: not installed here, not supported by the server, or failed (results.json says why).',
    '',
  ]
  for (const section of report.sections)
    if (section.variants.length > 0) parts.push(renderMarkdownSection(section))
  parts.push(
    '## Ratios',
    '',
    "Each peer's median time divided by clickwire's (native / HTTP), at each point: above 1 means clickwire is faster.",
    '',
    renderMarkdownRatios(report),
    '## Performance targets',
    '',
    'Each target is a limit clickwire should meet against a peer, checked at the largest point measured.',
    '',
    '| goal | what | at | measured | wanted | status |',
    '|:--|:--|:--|--:|:--|:--|',
    ...goalChecks(report).map(formatGoal),
    '',
  )
  const revisions = renderRevisionTable(report)
  if (revisions) {
    parts.push(
      `## String layout: ${revisionHeading(report)}`,
      '',
      `Each cell: clickwire's median at its own revision vs forced to ${olderStringRevision} (\`protocolRevision: ${olderStringRevision}\`), ` +
        'and the 54488 time over the other: above 1 means the newer String layout is faster.',
      '',
      revisions,
      '### String layout targets',
      '',
      '| goal | what | at | measured | wanted | status |',
      '|:--|:--|:--|--:|:--|:--|',
      ...stringLayoutChecks(report).map(formatGoal),
      '',
    )
  }
  return parts.join('\n')
}

/** `54492 vs 54488`: the revision the run's clickwire spoke with the server, vs the older one. */
export function revisionHeading(report: Pick<BenchReport, 'server'>): string {
  return `${report.server.revision ?? 'default'} vs ${olderStringRevision}`
}
