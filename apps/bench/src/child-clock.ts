import { writeSync } from 'node:fs'

/** What a benchmark child process reports on its last line, `@@bench {json}`. */
export interface ChildReport {
  readonly elapsedMs: number
  readonly maxRssBytes: number
  /** Rows it read or wrote, checked by the runner against the server. */
  readonly rows: number | null
}

export const reportMarker = '@@bench '

let started: number | undefined
let rows: number | null = null

/**
 * Starts the clock of a benchmark child: call it as the first statement after the
 * imports, the way the reference starts its clock after `import timing`. At exit the
 * process prints the time since then and its peak RSS (imports included, like the
 * reference's `ru_maxrss`).
 */
export function startClock(): void {
  started = performance.now()
  process.once('exit', () => {
    const report: ChildReport = {
      elapsedMs: performance.now() - (started ?? 0),
      // resourceUsage reports kilobytes.
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      rows,
    }
    writeSync(1, `${reportMarker}${JSON.stringify(report)}\n`)
  })
}

/** Records the rows the child read, for the runner's check. */
export function reportRows(count: number): void {
  rows = count
}

/** Reads a child's report from its output, if it printed one. */
export function parseChildReport(output: string): ChildReport | undefined {
  const at = output.lastIndexOf(reportMarker)
  if (at < 0) return undefined
  const end = output.indexOf('\n', at)
  try {
    return JSON.parse(output.slice(at + reportMarker.length, end < 0 ? undefined : end)) as ChildReport
  } catch {
    return undefined
  }
}

/** The arguments after the script: `<work> <point> [extra...]`, with a usage error otherwise. */
export function childArguments(usage: string, count: number): string[] {
  const args = process.argv.slice(2)
  if (args.length < count) {
    process.stderr.write(`usage: ${usage}\n`)
    process.exit(2)
  }
  return args
}

/** The environment variable the runner sets, or a clear failure. */
export function requiredEnv(name: string): string {
  const value = process.env[name]
  if (value === undefined || value === '') {
    process.stderr.write(`${name} is not set (the bench runner sets it)\n`)
    process.exit(2)
  }
  return value
}
