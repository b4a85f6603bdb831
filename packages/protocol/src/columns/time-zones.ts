import { UsageError } from '../errors/usage-error.js'
import { daysFromCivil } from './date-time-text.js'

/**
 * UTC offsets of an IANA time zone, as ClickHouse applies them to DateTime and DateTime64.
 *
 * `Intl.DateTimeFormat` is the only portable source of zone rules in JS, and one call costs
 * several microseconds, far too slow per row. So a zone's history is learned lazily in
 * spans of about a year: the offset is sampled weekly and every change between samples is
 * bisected to the exact second of the transition (several in a week are followed one after
 * the other). A lookup is then a comparison against the span of the previous answer, or a
 * short scan of one span's transitions. Zones that never change (UTC, `Etc/GMT+5`) skip
 * Intl entirely.
 */
export interface TimeZone {
  readonly name: string
  /** The offset when the zone never changes it (UTC, `Etc/GMT-3`), else undefined. */
  readonly fixedOffset: number | undefined
  /** Offset from UTC, in seconds, at the instant `utc` (whole seconds since 1970-01-01 UTC). */
  offsetAt(utc: number): number
  /**
   * The instant of a wall-clock time given as seconds since 1970-01-01 00:00:00 on this
   * zone's clock. ClickHouse's rule: a time that occurs twice (clocks turned back) is the
   * earlier instant; a time skipped by a forward change is read with the offset that
   * follows the change, which lands it before the change (02:30 on a spring-forward night
   * in New York is 01:30 EST).
   */
  utcOf(local: number): number
}

class FixedTimeZone implements TimeZone {
  constructor(
    readonly name: string,
    readonly fixedOffset: number,
  ) {}
  offsetAt(): number {
    return this.fixedOffset
  }
  utcOf(local: number): number {
    return local - this.fixedOffset
  }
}

/** Seconds per span learned at once (about 388 days). */
const spanSeconds = 2 ** 25
/** Distance between samples inside a span: a week. */
const sampleSeconds = 7 * 86400
/** Intl handles years 1 to 9999; beyond them the zone's first or last rule holds. */
const earliest = -62135596800
const latest = 253402300799

const numericParts = /(\d+)\D+(\d+)\D+(\d+)\D+(\d+)\D+(\d+)\D+(\d+)/

/** Transitions of one span: `offsets[i]` holds from `starts[i]` on (starts[0] is the span start). */
interface Span {
  readonly starts: number[]
  readonly offsets: number[]
}

class IntlTimeZone implements TimeZone {
  readonly fixedOffset = undefined
  private readonly spans = new Map<number, Span>()
  // The answer of the previous lookup holds on [from, to): sorted or clustered input
  // mostly stays in it.
  private from = 1
  private to = 0
  private offset = 0

  constructor(
    readonly name: string,
    private readonly format: Intl.DateTimeFormat,
  ) {}

  offsetAt(utc: number): number {
    if (utc >= this.from && utc < this.to) return this.offset
    return this.lookup(utc)
  }

  utcOf(local: number): number {
    const before = this.offsetAt(local - 86400)
    const after = this.offsetAt(local + 86400)
    if (before === after) {
      const utc = local - before
      if (this.offsetAt(utc) === before) return utc
      // Two changes within two days: settle on the offset at the first guess.
      const other = this.offsetAt(utc)
      return local - other
    }
    const early = local - before
    const late = local - after
    const earlyValid = this.offsetAt(early) === before
    const lateValid = this.offsetAt(late) === after
    if (earlyValid && lateValid) return Math.min(early, late)
    if (earlyValid) return early
    return late
  }

  private lookup(utc: number): number {
    const index = Math.floor(utc / spanSeconds)
    let span = this.spans.get(index)
    if (span === undefined) {
      span = this.learn(index * spanSeconds)
      this.spans.set(index, span)
    }
    const starts = span.starts
    let i = starts.length - 1
    while (starts[i]! > utc) i--
    this.from = starts[i]!
    this.to = i + 1 < starts.length ? starts[i + 1]! : (index + 1) * spanSeconds
    this.offset = span.offsets[i]!
    return this.offset
  }

  /** Offset by asking Intl for the wall clock at `utc`. */
  private intlOffset(utc: number): number {
    const clamped = Math.max(earliest, Math.min(utc, latest))
    const match = numericParts.exec(this.format.format(clamped * 1000))
    if (!match) throw new UsageError(`cannot read the wall clock of time zone ${this.name}`)
    const [, month, day, year, hour, minute, second] = match.map(Number) as number[]
    const local = daysFromCivil(year!, month!, day!) * 86400 + (hour! % 24) * 3600 + minute! * 60 + second!
    return local - clamped
  }

  private learn(start: number): Span {
    const end = start + spanSeconds
    const starts = [start]
    const offsets = [this.intlOffset(start)]
    let at = start
    let offset = offsets[0]!
    for (;;) {
      const next = Math.min(at + sampleSeconds, end - 1)
      const nextOffset = this.intlOffset(next)
      if (nextOffset !== offset) {
        // Find the first second with a new offset, then carry on from it: there may be
        // more than one change before `next`.
        let low = at
        let high = next
        while (high - low > 1) {
          const middle = Math.floor((low + high) / 2)
          if (this.intlOffset(middle) === offset) low = middle
          else high = middle
        }
        offset = this.intlOffset(high)
        starts.push(high)
        offsets.push(offset)
        at = high
        continue
      }
      if (next >= end - 1) break
      at = next
    }
    return { starts, offsets }
  }
}

const fixedNames =
  /^(?:Etc\/)?(?:UTC|UCT|GMT|GMT0|GMT[+-]0|Universal|Zulu|Greenwich)$|^(?:Etc\/)?GMT([+-])(\d{1,2})$/

const zones = new Map<string, TimeZone>()

/**
 * The time zone named `name` (IANA names as ClickHouse uses them). An empty name is UTC.
 * Zones are shared and cached for the life of the process.
 *
 * @throws {UsageError} for a name the JS runtime does not know.
 */
export function timeZone(name: string): TimeZone {
  let zone = zones.get(name)
  if (zone) return zone
  const fixed = fixedNames.exec(name === '' ? 'UTC' : name)
  if (fixed) {
    // POSIX signs: Etc/GMT+5 is five hours behind UTC.
    const offset = fixed[1] === undefined ? 0 : (fixed[1] === '+' ? -1 : 1) * Number(fixed[2]) * 3600
    zone = new FixedTimeZone(name, offset)
  } else {
    let format: Intl.DateTimeFormat
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: name,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      })
    } catch (error) {
      throw new UsageError(`unknown time zone ${JSON.stringify(name)}`, { cause: error })
    }
    zone = new IntlTimeZone(name, format)
  }
  zones.set(name, zone)
  return zone
}
