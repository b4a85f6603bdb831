import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseChildReport } from './child-clock.js'
import type { LaunchSpec } from './variant-launch.js'

/** One run of one variant at one point. */
export interface Measurement {
  readonly elapsedMs: number
  /** Peak resident set size; undefined when it could not be measured. */
  readonly maxRssBytes?: number | undefined
  /** Rows the process says it read, when it reports them. */
  readonly rows?: number | null | undefined
  /**
   * Bytes the server's sockets sent while the run lasted (`NetworkSendBytes`, set by the
   * runner; undefined where the server does not count them). The server's own traffic
   * besides the run is included: a few kilobytes.
   */
  readonly serverSentBytes?: number | undefined
  /** Set when the run failed; the other fields are then not meaningful. */
  readonly error?: string | undefined
}

/** The end of a program's output for an error message, without control characters (servers echo raw bytes). */
function lastLines(text: string, count: number): string {
  return text
    .trim()
    .split('\n')
    .slice(-count)
    .join(' | ')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '?')
    .slice(0, 400)
}

/**
 * Runs one measured process. Programs that report themselves (our children, the Python
 * scripts, the Go program) are trusted for their time from after imports and their peak
 * RSS; external programs (clickhouse-client, curl) are timed from spawn to exit here,
 * with the peak RSS from GNU time when it is installed.
 */
export async function runMeasured(
  spec: LaunchSpec,
  options: { timeoutMs: number; gnuTime?: string | undefined },
): Promise<Measurement> {
  let file = spec.file
  let args = [...spec.args]
  let rssFile: string | undefined
  let tempDir: string | undefined
  if (spec.measure === 'external' && options.gnuTime) {
    tempDir = await mkdtemp(join(tmpdir(), 'clickwire-bench-'))
    rssFile = join(tempDir, 'rss')
    args = ['--format', '%M', '--output', rssFile, file, ...args]
    file = options.gnuTime
  } else {
    // Linux carries a process's peak RSS across fork and exec: a child forked straight
    // from this (large) runner would report our RSS as its own peak. A small shell
    // forks it instead, the way GNU time does for external programs.
    args = ['-c', '"$0" "$@"; exit $?', file, ...args]
    file = '/bin/sh'
  }
  const stdin = spec.stdinFile
    ? openSync(spec.stdinFile, 'r')
    : spec.stdinText !== undefined
      ? 'pipe'
      : 'ignore'
  const stdout = spec.stdoutToNull ? openSync('/dev/null', 'w') : 'pipe'
  try {
    const started = performance.now()
    // Its own process group, so a timeout ends the program and not only its wrapper.
    const child = spawn(file, args, { env: spec.env, stdio: [stdin, stdout, 'pipe'], detached: true })
    if (spec.stdinText !== undefined) child.stdin?.end(spec.stdinText)
    let output = ''
    let errors = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      // Only the tail matters (the report line); keep memory flat for chatty programs.
      output = (output + chunk).slice(-65_536)
    })
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      errors = (errors + chunk).slice(-8192)
    })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
    }, options.timeoutMs)
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>(
      (resolve) => {
        child.once('error', (error) => resolve({ code: null, signal: null, error }))
        child.once('close', (code, signal) => resolve({ code, signal }))
      },
    )
    clearTimeout(timer)
    const wallMs = performance.now() - started
    if (timedOut)
      return { elapsedMs: wallMs, error: `timeout after ${Math.round(options.timeoutMs / 1000)} s` }
    if (exit.error) return { elapsedMs: wallMs, error: exit.error.message }
    if (exit.code !== 0) {
      return {
        elapsedMs: wallMs,
        error: `exit ${exit.code ?? exit.signal}: ${lastLines(errors, 3) || lastLines(output, 3)}`,
      }
    }
    if (spec.measure === 'self') {
      const report = parseChildReport(output)
      if (!report) return { elapsedMs: wallMs, error: `no report: ${lastLines(errors, 3)}` }
      return { elapsedMs: report.elapsedMs, maxRssBytes: report.maxRssBytes, rows: report.rows }
    }
    let maxRssBytes: number | undefined
    if (rssFile) {
      const text = await readFile(rssFile, 'utf8').catch(() => '')
      const kilobytes = Number(text.trim().split('\n').pop())
      if (Number.isFinite(kilobytes) && kilobytes > 0) maxRssBytes = kilobytes * 1024
    }
    return { elapsedMs: wallMs, maxRssBytes }
  } finally {
    if (typeof stdin === 'number') closeSync(stdin)
    if (typeof stdout === 'number') closeSync(stdout)
    if (tempDir) await rm(tempDir, { recursive: true, force: true })
  }
}
