import { mkdirSync, writeFileSync } from 'node:fs'
import { ClickwireError } from '@clickwire/protocol'
import { typedErrorName } from '../guards/typed-errors.js'
import type { StreamShape } from './stream-decoding.js'

/** CLICKWIRE_LONG=1: the long mode, 10 times the cases of CI (1M in all instead of 100k). */
export const longMode = process.env.CLICKWIRE_LONG === '1'

/** CLICKWIRE_FUZZ_SCALE=n multiplies the CI cases by n (a run between CI and the long mode). */
const scale = Number(process.env.CLICKWIRE_FUZZ_SCALE ?? (longMode ? 10 : 1))

/** How long one property may run: bounded in CI, a day and more for bigger runs. */
export const fuzzTimeoutMs = scale > 1 ? 48 * 3600_000 : 300_000

/** Cases for a property: `ci` in CI, 10 times that in the long mode. */
export function fuzzRuns(ci: number): number {
  return Math.max(1, Math.round(ci * scale))
}

/**
 * The seed of this run's cases: CLICKWIRE_FUZZ_SEED to replay one, else a fresh one. It is
 * printed before the cases run, so even a run that kills the process can be replayed.
 */
export const fuzzSeed = process.env.CLICKWIRE_FUZZ_SEED
  ? Number(process.env.CLICKWIRE_FUZZ_SEED)
  : Math.floor(Math.random() * 2 ** 31)

/** Longest a single case may take before it counts as a hang. */
export const caseDeadlineMs = 2000

/** A case that did not finish within {@link caseDeadlineMs}: neither a result nor an error. */
export class HangError extends Error {
  constructor() {
    super(`the decoder neither finished nor failed within ${caseDeadlineMs} ms`)
    this.name = 'HangError'
  }
}

/** Turns stack traces off for the cases of a file (see {@link FuzzTally.check}); returns the undo. */
export function withoutStackTraces(): () => void {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  return () => {
    Error.stackTraceLimit = limit
  }
}

/** What a property's cases came to. */
export class FuzzTally {
  cases = 0
  slowestMs = 0
  readonly outcomes: Record<string, number> = {}
  private readonly started = performance.now()
  private finished = this.started

  constructor(readonly property: string) {
    console.log(`[fuzz] ${property}: seed ${fuzzSeed} (CLICKWIRE_FUZZ_SEED=${fuzzSeed} replays it)`)
  }

  /**
   * Runs one case under the deadline, counts how it ended, and throws (failing the
   * property) when it ended with an error that is not a clickwire error. Stack traces are
   * off while cases run (building them costs more than most cases); a failing case is run
   * once more with them on, for the report.
   */
  async check(decode: () => Promise<StreamShape>): Promise<StreamShape> {
    const shape = await this.run(decode)
    if (untypedFailure(shape) === undefined) return shape
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 30
    try {
      const again = await decode()
      throw new Error(untypedFailure(again) ?? untypedFailure(shape))
    } finally {
      Error.stackTraceLimit = limit
    }
  }

  /** Runs one case under the deadline and counts how it ended. */
  async run(decode: () => Promise<StreamShape>): Promise<StreamShape> {
    const started = performance.now()
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      const shape = await Promise.race([
        decode(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new HangError()), caseDeadlineMs)
        }),
      ])
      const outcome = shape.error === undefined ? 'complete' : (typedErrorName(shape.error) ?? 'untyped')
      this.outcomes[outcome] = (this.outcomes[outcome] ?? 0) + 1
      return shape
    } finally {
      clearTimeout(timer)
      this.cases++
      this.finished = performance.now()
      this.slowestMs = Math.max(this.slowestMs, this.finished - started)
    }
  }

  /** From the tally's creation to its last case. */
  get seconds(): number {
    return (this.finished - this.started) / 1000
  }

  summary(): Record<string, unknown> {
    return {
      property: this.property,
      cases: this.cases,
      seconds: Number(this.seconds.toFixed(1)),
      casesPerSecond: Math.round(this.cases / this.seconds),
      slowestCaseMs: Number(this.slowestMs.toFixed(1)),
      outcomes: this.outcomes,
    }
  }
}

/**
 * Why a case failed the "typed errors only" rule, or undefined when it passed: a stream
 * may decode or fail, but only with a clickwire error (ConnectionError when the bytes ran
 * out, ProtocolError for malformed bytes, ClickHouseError for an exception the server
 * sent); a RangeError or TypeError escaping is a crash.
 */
export function untypedFailure(shape: StreamShape): string | undefined {
  if (shape.error === undefined || ClickwireError.isInstance(shape.error)) return undefined
  const error = shape.error as Error
  return `untyped ${error?.name}: ${error?.message}\n${error?.stack ?? ''}\nevents: ${shape.events.join(' | ')}`
}

/** Prints the tallies and, with CLICKWIRE_WRITE_RESULTS=1, writes them to results/<name>.json. */
export function reportTallies(name: string, tallies: readonly FuzzTally[]): void {
  const summaries = tallies.map((tally) => tally.summary())
  const total = tallies.reduce((sum, tally) => sum + tally.cases, 0)
  console.log(`[fuzz] ${name}: ${total} cases\n${summaries.map((each) => JSON.stringify(each)).join('\n')}`)
  if (process.env.CLICKWIRE_WRITE_RESULTS === '1') {
    const directory = new URL('../../results/', import.meta.url)
    mkdirSync(directory, { recursive: true })
    writeFileSync(
      new URL(`${name}.json`, directory),
      `${JSON.stringify({ mode: longMode ? 'long' : scale === 1 ? 'ci' : `${scale}x ci`, total, properties: summaries }, null, 2)}\n`,
    )
  }
}
