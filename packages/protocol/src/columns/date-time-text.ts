/**
 * Calendar arithmetic and the text ClickHouse prints for dates and times, without `Date`
 * or `Intl` on the hot path.
 *
 * Dates repeat heavily in analytics (every row of a day shares its date), so the texts of
 * recently seen days and wall-clock seconds are kept in small direct-mapped caches: a hit
 * returns the very same string object, which is both faster than building a new one and
 * lighter on memory for the caller. A slot is verified by its full key, so a collision
 * only costs a rebuild.
 */

/** Days from 1970-01-01 to the proleptic Gregorian date `year-month-day` (month 1-12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146097 + dayOfEra - 719468
}

/** Year, month (1-12) and day of the date `days` after 1970-01-01, into `out`. */
export function civilFromDays(days: number, out: Int32Array): void {
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const dayOfEra = z - era * 146097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) /
      365,
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153)
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
  out[0] = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  out[1] = month
  out[2] = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1
}

/** Days in `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

/** `'00'` to `'99'`. */
export const twoDigits: readonly string[] = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'))

/** `'00:00:'` to `'23:59:'` by minute of the day. */
const minuteTexts: readonly string[] = Array.from(
  { length: 1440 },
  (_, i) => `${twoDigits[Math.floor(i / 60)]}:${twoDigits[i % 60]}:`,
)

/** 0000-01-01 and 9999-12-31: ClickHouse prints dates outside them as these bounds. */
export const minPrintableDay = -719528
export const maxPrintableDay = 2932896

const civil = new Int32Array(3)

function buildDateText(days: number): string {
  civilFromDays(days, civil)
  const year = civil[0]!
  const yearText = year >= 1000 ? String(year) : String(year).padStart(4, '0')
  return `${yearText}-${twoDigits[civil[1]!]}-${twoDigits[civil[2]!]}`
}

const dateSlots = 4096
const dateKeys = new Float64Array(dateSlots).fill(Number.NaN)
const dateValues: string[] = new Array<string>(dateSlots).fill('')

/** `YYYY-MM-DD` of the day `days` after 1970-01-01 (years 0-9999). */
export function dateText(days: number): string {
  const slot = days & (dateSlots - 1)
  if (dateKeys[slot] === days) return dateValues[slot]!
  const text = buildDateText(days)
  dateKeys[slot] = days
  dateValues[slot] = text
  return text
}

const minuteSlots = 4096
const minuteKeys = new Float64Array(minuteSlots).fill(Number.NaN)
const minuteValues: string[] = new Array<string>(minuteSlots).fill('')

/** `YYYY-MM-DD hh:mm:` of a wall-clock minute (minutes since 1970-01-01 00:00). */
function minuteText(minute: number): string {
  const slot = minute & (minuteSlots - 1)
  if (minuteKeys[slot] === minute) return minuteValues[slot]!
  const days = Math.floor(minute / 1440)
  const text = `${dateText(days)} ${minuteTexts[minute - days * 1440]}`
  minuteKeys[slot] = minute
  minuteValues[slot] = text
  return text
}

const dateTimeSlots = 8192
const dateTimeKeys = new Float64Array(dateTimeSlots).fill(Number.NaN)
const dateTimeValues: string[] = new Array<string>(dateTimeSlots).fill('')
// Keeping every new text in the cache makes it outlive the young generation, which costs
// more than it saves when values rarely repeat. So misses are stored only while recent
// lookups hit often enough; otherwise one miss in 16 is stored, to notice repeats again.
let storeMask = 0
let lookups = 0
let hits = 0
let misses = 0

/**
 * `YYYY-MM-DD hh:mm:ss` of a wall-clock time given as seconds since 1970-01-01 00:00:00
 * of the same clock (UTC seconds plus the zone's offset). Repeated values share one string.
 */
export function dateTimeText(local: number): string {
  if (++lookups === 4096) {
    storeMask = hits >= 512 ? 0 : 15
    lookups = 0
    hits = 0
  }
  const slot = local & (dateTimeSlots - 1)
  if (dateTimeKeys[slot] === local) {
    hits++
    return dateTimeValues[slot]!
  }
  const minute = Math.floor(local / 60)
  const text = minuteText(minute) + twoDigits[local - minute * 60]
  if ((++misses & storeMask) === 0) {
    dateTimeKeys[slot] = local
    dateTimeValues[slot] = text
  }
  return text
}

/** `YYYY-MM-DD hh:mm:ss.fff`: {@link dateTimeText} with a fraction, uncached (fractions rarely repeat). */
export function dateTimeFractionText(local: number, fraction: string): string {
  const minute = Math.floor(local / 60)
  return `${minuteText(minute)}${twoDigits[local - minute * 60]}.${fraction}`
}

const fractionPads = ['', '0', '00', '000', '0000', '00000', '000000', '0000000', '00000000', '000000000']

/** `fraction` (0 <= fraction < 10^digits) as exactly `digits` decimal digits. */
export function fractionText(fraction: number, digits: number): string {
  const text = String(fraction)
  return text.length === digits ? text : fractionPads[digits - text.length] + text
}

/** 10^0 to 10^9 as numbers. */
export const powersOfTen: readonly number[] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

/**
 * Splits a 64-bit tick count, given as its signed high and unsigned low 32-bit halves, into
 * whole seconds (floored) and the remaining ticks, for `scale` = 10^precision ticks per
 * second. Exact without BigInt: long division by `scale` in 16-bit steps keeps every
 * intermediate below 2^53. Writes `[seconds, ticks]` into `out`.
 */
export function splitTicks(high: number, low: number, scale: number, out: Float64Array): void {
  const q1 = Math.floor(high / scale)
  const r1 = high - q1 * scale
  const a = r1 * 65536 + (low >>> 16)
  const q2 = Math.floor(a / scale)
  const r2 = a - q2 * scale
  const b = r2 * 65536 + (low & 0xffff)
  const q3 = Math.floor(b / scale)
  out[0] = q1 * 4294967296 + q2 * 65536 + q3
  out[1] = b - q3 * scale
}
