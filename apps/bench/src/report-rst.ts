import { type BenchReport, formatBytes, formatSeconds, type SectionResult } from './bench-results.js'
import { describeMachine } from './report-header.js'

/** Centres text in a width, the extra space going left, as the reference's header does. */
function centre(text: string, width: number): string {
  const room = Math.max(0, width - text.length)
  const left = Math.ceil(room / 2)
  return ' '.repeat(left) + text + ' '.repeat(room - left)
}

/**
 * The reference's results grid table: one column per point (row cutoff or ch-bench row
 * count) under a spanning header, then per section a `timing` and a `memory` block with
 * one row per variant. Every section passed must share the same points.
 */
export function renderRstTable(sections: readonly SectionResult[], axisTitle = 'Rows'): string {
  const points = sections[0]?.points ?? []
  const rows = sections.map((section) =>
    section.variants.map((variant) => ({
      label: variant.label,
      times: points.map((point) => {
        const cell = variant.cells[point.id]
        return cell?.medianMs === undefined ? 'n/a' : formatSeconds(cell.medianMs)
      }),
      memory: points.map((point) => {
        const cell = variant.cells[point.id]
        return cell?.medianMs === undefined ? 'n/a' : formatBytes(cell.medianRssBytes)
      }),
    })),
  )
  const values = rows.flat().flatMap((row) => [...row.times, ...row.memory])
  const cellWidth = Math.max(
    11,
    ...points.map((point) => point.label.length + 2),
    ...values.map((value) => value.length + 2),
  )
  const spanWidth = points.length * (cellWidth + 1) - 1
  const titles = sections.flatMap((section) => [
    `**${section.title}: timing**`,
    `**${section.title}: memory**`,
  ])
  const labelWidth = Math.max(
    34,
    ...rows.flat().map((row) => row.label.length),
    ...titles.map((title) => title.length - spanWidth - 1),
  )
  const innerWidth = labelWidth + 1 + spanWidth
  const rule = (fill: string) =>
    `+${fill.repeat(labelWidth)}+${points.map(() => fill.repeat(cellWidth)).join('+')}+`
  const lines = [
    rule('-'),
    `|${' '.repeat(labelWidth)}|${centre(axisTitle, spanWidth)}|`,
    `|${' '.repeat(labelWidth)}${rule('-').slice(labelWidth + 1)}`,
    `|${' '.repeat(labelWidth)}|${points.map((point) => centre(point.label, cellWidth)).join('|')}|`,
    rule('='),
  ]
  sections.forEach((section, index) => {
    for (const kind of ['timing', 'memory'] as const) {
      lines.push(`|${`**${section.title}: ${kind}**`.padEnd(innerWidth)}|`, rule('-'))
      for (const row of rows[index]!) {
        const cells = kind === 'timing' ? row.times : row.memory
        lines.push(
          `|${row.label.padEnd(labelWidth)}|${cells.map((value) => `${value.padStart(cellWidth - 1)} `).join('|')}|`,
        )
        lines.push(rule('-'))
      }
    }
  })
  return `${lines.join('\n')}\n`
}

/** The RST results document: machine and server header, the ontime table and the ch-bench table. */
export function renderRstReport(report: BenchReport): string {
  const ontime = report.sections.filter((section) => section.axis === 'cutoff' && section.variants.length > 0)
  const numbers = report.sections.filter(
    (section) => section.axis === 'numbers' && section.variants.length > 0,
  )
  const header = describeMachine(report)
  const parts = [
    'Results',
    '=======',
    '',
    ...header.map((line) => `* ${line}`),
    '',
    'Median of the repetitions: wall time from after imports to exit, and peak RSS',
    '(decimal MB/GB). n/a: not installed here, not supported by the server, or failed',
    '(see results.json for the reason).',
    '',
  ]
  if (ontime.length > 0) {
    parts.push(
      'Ontime',
      '------',
      '',
      '.. rst-class:: table-small-text table-center-header table-right-text-align-results',
      '',
    )
    parts.push(renderRstTable(ontime))
  }
  if (numbers.length > 0) {
    parts.push(
      'ch-bench',
      '--------',
      '',
      '.. rst-class:: table-small-text table-center-header table-right-text-align-results',
      '',
    )
    parts.push(renderRstTable(numbers))
  }
  return parts.join('\n')
}
