import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BenchReport } from './bench-results.js'
import { renderMarkdownReport } from './report-markdown.js'
import { renderRstReport } from './report-rst.js'
import { renderSectionSvg } from './report-svg.js'

/**
 * Writes a report as files: `results.rst` (the reference's grid tables), `results.md`
 * (tables, ratios, goals), `results.json` (every run, for later analysis) and one
 * `charts/<section>.svg` per section that has results.
 */
export async function writeReportFiles(report: BenchReport, folder: string): Promise<string[]> {
  await mkdir(join(folder, 'charts'), { recursive: true })
  const files: [string, string][] = [
    ['results.rst', renderRstReport(report)],
    ['results.md', renderMarkdownReport(report)],
    ['results.json', `${JSON.stringify(report, null, 2)}\n`],
  ]
  for (const section of report.sections) {
    if (section.variants.length > 0)
      files.push([join('charts', `${section.id}.svg`), renderSectionSvg(section)])
  }
  for (const [name, text] of files) await writeFile(join(folder, name), text)
  return files.map(([name]) => join(folder, name))
}
