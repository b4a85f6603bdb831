import { quoteSqlString } from '../sql/sql-quoting.js'
import { type TypeNode, typeToString } from '../types/type-node.js'
import {
  castableScalar,
  expressionScalar,
  type ParameterPath,
  parameterError,
  type ScalarHandler,
} from './parameter-model.js'

/*
 * Date, Date32, DateTime, DateTime64, Time, Time64.
 *
 * Strings must be ClickHouse's canonical text ('2017-01-04', '2017-01-04 10:20:30[.123]');
 * the server reads them in the type's time zone (or the server's, for a type without one).
 * JS Dates and numbers are instants: they travel as Unix timestamps ('1483228800',
 * '1483228800.123', zero-padded to ten digits because the server reads short digit runs as
 * something else), which every server reads the same way whatever its time zone.
 *
 * Substitution avoids `CAST('...' AS DateTime('tz'))`: 18.16 reads that string in the server's
 * time zone instead of 'tz' (checked live: 10:20:30 Moscow came back as 13:20:30). The
 * conversion functions `toDateTime(text, 'tz')` and `toDateTime64(text, p, 'tz')` read it in
 * 'tz' on every server.
 */

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

function pad(value: number | bigint, width: number): string {
  return String(value).padStart(width, '0')
}

/** 'YYYY-MM-DD' of the UTC day of an instant. */
function utcDay(date: Date): string {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`
}

/** 'YYYY-MM-DD hh:mm:ss' in UTC. */
function utcWallClock(date: Date): string {
  return `${utcDay(date)} ${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}`
}

const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?)?$/

/** Parses canonical date or date-time text; undefined unless every field is in range. */
function parseDateTime(text: string, withTime: boolean): { year: number; fraction: string } | undefined {
  const match = dateTimePattern.exec(text)
  if (!match || (match[4] !== undefined) !== withTime) return undefined
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map((part) => Number(part ?? 0))
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth(year!, month!)) return undefined
  if (hour > 23 || minute > 59 || second > 59) return undefined
  return { year: year!, fraction: match[7] ?? '' }
}

function timeZone(type: TypeNode, index: number): string | undefined {
  const arg = type.args[index]
  return arg?.kind === 'string' ? arg.value : undefined
}

function validDate(type: TypeNode, value: unknown, at: ParameterPath): Date {
  if (Number.isNaN((value as Date).getTime())) throw parameterError(at, type, value, 'invalid Date')
  return value as Date
}

function dateHandler(first: string, last: string): ScalarHandler {
  return (type, value, at) => {
    let text: string
    if (value instanceof Date) text = utcDay(validDate(type, value, at))
    else if (typeof value === 'string' && parseDateTime(value, false)) text = value
    else throw parameterError(at, type, value, "expected 'YYYY-MM-DD' or a Date")
    if (text < first || text > last) throw parameterError(at, type, value, `outside ${first} to ${last}`)
    return castableScalar(text, true)
  }
}

/** Whole seconds of an instant given as a Date (floored) or as integer Unix seconds. */
function epochSeconds(type: TypeNode, value: unknown, at: ParameterPath): bigint | undefined {
  if (value instanceof Date) return BigInt(Math.floor(validDate(type, value, at).getTime() / 1000))
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw parameterError(at, type, value, 'Unix seconds must be an integer')
    return BigInt(value)
  }
  if (typeof value === 'bigint') return value
  return undefined
}

const maxDateTime = 0xffff_ffffn

const dateTime: ScalarHandler = (type, value, at) => {
  const zone = timeZone(type, 0)
  const zoneArgument = zone === undefined ? '' : `, ${quoteSqlString(zone)}`
  const seconds = epochSeconds(type, value, at)
  let text: string
  if (seconds !== undefined) {
    if (seconds < 0n || seconds > maxDateTime) throw parameterError(at, type, value, 'outside 1970 to 2106')
    text = pad(seconds, 10)
  } else if (typeof value === 'string' && parseDateTime(value, true)?.fraction === '') text = value
  else throw parameterError(at, type, value, "expected 'YYYY-MM-DD hh:mm:ss', a Date or Unix seconds")
  return expressionScalar(
    text,
    true,
    `toDateTime(${quoteSqlString(text)}${zoneArgument})`,
    typeToString(type),
  )
}

function floorDivide(dividend: bigint, divisor: bigint): bigint {
  const quotient = dividend / divisor
  return dividend % divisor !== 0n && dividend < 0n ? quotient - 1n : quotient
}

const dateTime64: ScalarHandler = (type, value, at) => {
  const precision = type.args[0]?.kind === 'number' ? type.args[0].value : Number.NaN
  if (!Number.isInteger(precision) || precision < 0 || precision > 9)
    throw parameterError(at, type, value, 'precision must be 0-9')
  const zone = timeZone(type, 1)
  const scale = 10n ** BigInt(precision)
  if (typeof value === 'string') {
    const parsed = parseDateTime(value, true)
    if (!parsed || parsed.fraction.length > precision)
      throw parameterError(
        at,
        type,
        value,
        `expected 'YYYY-MM-DD hh:mm:ss' with up to ${precision} fraction digits`,
      )
    if (parsed.year < 1900 || parsed.year > 2299)
      throw parameterError(at, type, value, 'outside 1900 to 2299')
    const zoneArgument = zone === undefined ? '' : `, ${quoteSqlString(zone)}`
    const sql = `toDateTime64(${quoteSqlString(value)}, ${precision}${zoneArgument})`
    return expressionScalar(value, true, sql, typeToString(type))
  }
  let units: bigint
  if (value instanceof Date) {
    const ms = BigInt(validDate(type, value, at).getTime())
    units = precision >= 3 ? ms * 10n ** BigInt(precision - 3) : floorDivide(ms, 10n ** BigInt(3 - precision))
  } else {
    const seconds = epochSeconds(type, value, at)
    if (seconds === undefined)
      throw parameterError(at, type, value, "expected 'YYYY-MM-DD hh:mm:ss', a Date or Unix seconds")
    units = seconds * scale
  }
  const whole = floorDivide(units, scale)
  const wall = new Date(Number(whole) * 1000)
  if (Number.isNaN(wall.getTime()) || wall.getUTCFullYear() < 1900 || wall.getUTCFullYear() > 2299)
    throw parameterError(at, type, value, 'outside 1900 to 2299')
  const fraction = precision === 0 ? '' : `.${pad(units - whole * scale, precision)}`
  const utcText = utcWallClock(wall) + fraction
  let text: string
  if (units < 0n && units > -scale) {
    // The server reads '-0.001' as +0.001: the sign of a zero whole part is lost (checked
    // with chdb 26.7). Only a wall-clock text can say it, and only for a type read in UTC.
    if (zone !== 'UTC')
      throw parameterError(at, type, value, "instants in the second before 1970 need DateTime64(p, 'UTC')")
    text = utcText
  } else {
    const magnitude = units < 0n ? -units : units
    const magnitudeFraction = precision === 0 ? '' : `.${pad(magnitude % scale, precision)}`
    text = `${units < 0n ? '-' : ''}${pad(magnitude / scale, 10)}${magnitudeFraction}`
  }
  // The instant as UTC wall-clock time; CAST to the declared zone keeps the instant.
  const sql = `toDateTime64(${quoteSqlString(utcText)}, ${precision}, 'UTC')`
  return expressionScalar(text, true, sql, `DateTime64(${precision}, 'UTC')`)
}

function timeHandler(withFraction: boolean): ScalarHandler {
  return (type, value, at) => {
    const precision = withFraction && type.args[0]?.kind === 'number' ? type.args[0].value : 0
    const match = typeof value === 'string' ? /^-?\d{1,3}:[0-5]\d:[0-5]\d(?:\.(\d+))?$/.exec(value) : null
    if (!match || (match[1]?.length ?? 0) > precision)
      throw parameterError(at, type, value, `expected '[-]hhh:mm:ss' with up to ${precision} fraction digits`)
    return castableScalar(value as string, true)
  }
}

/** Scalar handlers for date and time types, by family name. */
export const timeParameterHandlers: Readonly<Record<string, ScalarHandler>> = {
  Date: dateHandler('1970-01-01', '2149-06-06'),
  Date32: dateHandler('1900-01-01', '2299-12-31'),
  DateTime: dateTime,
  DateTime64: dateTime64,
  Time: timeHandler(false),
  Time64: timeHandler(true),
}
