import { daysFromCivil, daysInMonth } from './date-time-text.js'
import { valueError } from './fixed-width.js'
import type { TimeZone } from './time-zones.js'

/**
 * JS inputs of the date and time columns, turned into the numbers ClickHouse stores.
 *
 * Accepted everywhere: a `Date` (the instant), ClickHouse's own text
 * (`2017-01-04`, `2017-01-04 10:20:30.123`), ISO 8601 (`2017-01-04T10:20:30.123Z`,
 * `...+03:00`; without an offset the time is read on the column's clock), and numbers.
 * Digits finer than the column keeps are dropped (truncated), as ClickHouse does when it
 * parses text.
 */

/** An instant as whole seconds (floored) and the ticks of `10^-precision` seconds after them. */
export interface Instant {
  seconds: number
  ticks: number
}

const dateText = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$/
const dateTimeText =
  /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?\s*$/i
const decimalText = /^\s*([-+]?)(\d+)(?:\.(\d*))?\s*$/
const timeText = /^\s*(-?)(\d+):(\d{2}):(\d{2})(?:\.(\d+))?\s*$/

function civilDays(year: string, month: string, day: string): number | undefined {
  const y = Number(year)
  const m = Number(month)
  const d = Number(day)
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return undefined
  return daysFromCivil(y, m, d)
}

/** The first `precision` fraction digits of `digits` as ticks (missing digits are zeros). */
function fractionTicks(digits: string | undefined, precision: number): number {
  if (!digits || precision === 0) return 0
  const kept = digits.length >= precision ? digits.slice(0, precision) : digits.padEnd(precision, '0')
  return Number(kept)
}

/**
 * A decimal number of seconds (`-12.5`, also a JS number via its shortest text) as whole
 * seconds (floored) and ticks. Digits past the precision are dropped from the text, as
 * ClickHouse reads `1577836800.25` into DateTime64(1) as `.2`.
 */
function decimalSeconds(text: string, precision: number): Instant | undefined {
  const match = decimalText.exec(text)
  if (!match) return undefined
  const whole = Number(match[2])
  const ticks = fractionTicks(match[3], precision)
  if (match[1] !== '-') return { seconds: whole, ticks }
  if (ticks === 0) return { seconds: -whole, ticks: 0 }
  return { seconds: -whole - 1, ticks: 10 ** precision - ticks }
}

/** Shortest decimal text of a finite number (what JS prints), without an exponent. */
export function plainNumberText(value: number): string {
  const text = String(value)
  const e = text.search(/e/i)
  if (e < 0) return text
  const exponent = Number(text.slice(e + 1))
  let mantissa = text.slice(0, e)
  let sign = ''
  if (mantissa[0] === '-') {
    sign = '-'
    mantissa = mantissa.slice(1)
  }
  const dot = mantissa.indexOf('.')
  const digits = mantissa.replace('.', '')
  const point = (dot < 0 ? mantissa.length : dot) + exponent
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length)
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

/**
 * Days since 1970-01-01 for a Date or Date32 column: a `Date` (its UTC day), `YYYY-MM-DD`,
 * or a number/bigint of days.
 */
export function toDays(typeName: string, row: number, value: unknown): number {
  if (value instanceof Date) {
    const ms = value.getTime()
    if (Number.isNaN(ms)) throw valueError(typeName, row, value)
    return Math.floor(ms / 86400000)
  }
  if (typeof value === 'string') {
    const match = dateText.exec(value)
    const days = match ? civilDays(match[1]!, match[2]!, match[3]!) : undefined
    if (days === undefined) throw valueError(typeName, row, value, 'expected YYYY-MM-DD')
    return days
  }
  if (typeof value === 'number' && Number.isInteger(value)) return value
  if (typeof value === 'bigint' && value >= -(2n ** 40n) && value <= 2n ** 40n) return Number(value)
  throw valueError(typeName, row, value, 'expected a Date, YYYY-MM-DD or a number of days')
}

/** Seconds as a number (fraction kept to `precision` digits), or a bigint of seconds or ticks. */
function numericInstant(
  typeName: string,
  row: number,
  value: number | bigint,
  precision: number,
  bigintTicks: boolean,
): Instant {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw valueError(typeName, row, value)
    if (Number.isInteger(value)) return { seconds: value, ticks: 0 }
    return decimalSeconds(plainNumberText(value), precision)!
  }
  const scale = 10n ** BigInt(precision)
  if (!bigintTicks || scale === 1n) return { seconds: Number(value), ticks: 0 }
  let seconds = value / scale
  let ticks = value % scale
  if (ticks < 0n) {
    seconds -= 1n
    ticks += scale
  }
  return { seconds: Number(seconds), ticks: Number(ticks) }
}

/**
 * The instant of a DateTime/DateTime64 input. Numbers are seconds (a fraction is kept to
 * `precision` digits); a bigint is seconds for `bigintTicks` false and ticks otherwise.
 */
export function toInstant(
  typeName: string,
  row: number,
  value: unknown,
  zone: TimeZone,
  precision: number,
  bigintTicks: boolean,
): Instant {
  if (value instanceof Date) {
    const ms = value.getTime()
    if (Number.isNaN(ms)) throw valueError(typeName, row, value)
    const seconds = Math.floor(ms / 1000)
    const millis = ms - seconds * 1000
    const ticks = precision >= 3 ? millis * 10 ** (precision - 3) : Math.floor(millis / 10 ** (3 - precision))
    return { seconds, ticks }
  }
  if (typeof value === 'number' || typeof value === 'bigint')
    return numericInstant(typeName, row, value, precision, bigintTicks)
  if (typeof value === 'string') {
    const match = dateTimeText.exec(value)
    if (match) {
      const days = civilDays(match[1]!, match[2]!, match[3]!)
      const hour = Number(match[4] ?? 0)
      const minute = Number(match[5] ?? 0)
      const second = Number(match[6] ?? 0)
      if (days !== undefined && hour < 24 && minute < 60 && second < 60) {
        const local = days * 86400 + hour * 3600 + minute * 60 + second
        const ticks = fractionTicks(match[7], precision)
        const offset = match[8]
        if (offset === undefined) return { seconds: zone.utcOf(local), ticks }
        if (offset === 'Z' || offset === 'z') return { seconds: local, ticks }
        const digits = offset.replace(':', '')
        const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0)
        return { seconds: local - (offset[0] === '-' ? -minutes : minutes) * 60, ticks }
      }
    }
    const seconds = decimalSeconds(value, precision)
    if (seconds) return seconds
    throw valueError(typeName, row, value, 'expected YYYY-MM-DD hh:mm:ss, ISO 8601 or seconds')
  }
  throw valueError(typeName, row, value, 'expected a Date, a string or a number of seconds')
}

/**
 * A Time/Time64 input as whole seconds (floored) and ticks: `[-]h:mm:ss[.fff]` as
 * ClickHouse prints it, a number of seconds, or a bigint (seconds for `bigintTicks` false,
 * ticks otherwise).
 */
export function toTimeOfDay(
  typeName: string,
  row: number,
  value: unknown,
  precision: number,
  bigintTicks: boolean,
): Instant {
  if (typeof value === 'string') {
    const match = timeText.exec(value)
    if (match) {
      const minute = Number(match[3])
      const second = Number(match[4])
      if (minute < 60 && second < 60) {
        const whole = Number(match[2]) * 3600 + minute * 60 + second
        const ticks = fractionTicks(match[5], precision)
        if (match[1] !== '-') return { seconds: whole, ticks }
        if (ticks === 0) return { seconds: -whole, ticks: 0 }
        return { seconds: -whole - 1, ticks: 10 ** precision - ticks }
      }
    }
    const seconds = decimalSeconds(value, precision)
    if (seconds) return seconds
    throw valueError(typeName, row, value, 'expected [-]hhh:mm:ss[.fff] or seconds')
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    return numericInstant(typeName, row, value, precision, bigintTicks)
  }
  throw valueError(typeName, row, value, 'expected a string or a number of seconds')
}

/**
 * Writes `seconds * scale + ticks` as a little-endian Int64 at `offset` of `view`, exactly,
 * without BigInt (|seconds| below 2^40, scale at most 10^9).
 */
export function writeTicks(
  view: DataView,
  offset: number,
  seconds: number,
  scale: number,
  ticks: number,
): void {
  const secondsHigh = Math.floor(seconds / 1048576)
  const secondsLow = seconds - secondsHigh * 1048576
  const a = secondsHigh * scale
  const b = secondsLow * scale + ticks
  const bHigh = Math.floor(b / 1048576)
  const bLow = b - bHigh * 1048576
  const c = a + bHigh
  const cHigh = Math.floor(c / 4096)
  view.setUint32(offset, (c - cHigh * 4096) * 1048576 + bLow, true)
  view.setInt32(offset + 4, cHigh, true)
}
