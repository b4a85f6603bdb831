import { plainNumberText } from './date-time-parsing.js'
import { valueError } from './fixed-width.js'

/**
 * Decimal text both ways: unscaled integers to `-12.50`, and JS inputs to unscaled
 * integers.
 */

const zeros = '0'.repeat(80)

/** Text of a non-negative integer given as its digits, scaled down by `scale` digits. */
function placePoint(digits: string, scale: number, negative: boolean): string {
  const sign = negative ? '-' : ''
  if (scale === 0) return sign + digits
  const padded = digits.length > scale ? digits : zeros.slice(0, scale + 1 - digits.length) + digits
  const point = padded.length - scale
  return `${sign}${padded.slice(0, point)}.${padded.slice(point)}`
}

/** `unscaled / 10^scale` as exact text with exactly `scale` fraction digits (a safe integer). */
export function decimalTextOfNumber(unscaled: number, scale: number): string {
  return unscaled < 0
    ? placePoint(String(-unscaled), scale, true)
    : placePoint(String(unscaled), scale, false)
}

/** `unscaled / 10^scale` as exact text with exactly `scale` fraction digits. */
export function decimalTextOfBigInt(unscaled: bigint, scale: number): string {
  return unscaled < 0n
    ? placePoint(String(-unscaled), scale, true)
    : placePoint(String(unscaled), scale, false)
}

const powers: number[] = Array.from({ length: 23 }, (_, i) => 10 ** i)

/**
 * `unscaled / 10^scale` as the nearest JS number. With both operands exact doubles (a safe
 * integer, 10^scale up to 10^22) IEEE division rounds correctly; otherwise the text is
 * parsed, which also rounds correctly.
 */
export function decimalNumberOfNumber(unscaled: number, scale: number): number {
  return scale <= 22 ? unscaled / powers[scale]! : Number(decimalTextOfNumber(unscaled, scale))
}

/** As {@link decimalNumberOfNumber} for a bigint. */
export function decimalNumberOfBigInt(unscaled: bigint, scale: number): number {
  if (unscaled >= -9007199254740991n && unscaled <= 9007199254740991n)
    return decimalNumberOfNumber(Number(unscaled), scale)
  return Number(decimalTextOfBigInt(unscaled, scale))
}

const decimalInput = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/

/**
 * The unscaled integer (value * 10^scale) of a JS input for Decimal(precision, scale).
 *
 * - string: exact. Digits past the scale are accepted only when they are zeros: older
 *   servers reject such text and newer ones drop the digits silently, so clickwire refuses
 *   to lose them either way.
 * - number: its shortest decimal text (what JS prints, `1.005` for 1.005), taken exactly
 *   as that string would be: so `1.005` and `'1.005'` are both refused for Decimal(P, 2),
 *   rather than one rounded and the other refused.
 * - bigint: an integer value (not unscaled).
 *
 * @throws {UsageError} for other inputs and for values with more than `precision` digits.
 */
export function toUnscaledDecimal(
  typeName: string,
  row: number,
  value: unknown,
  precision: number,
  scale: number,
  limit: bigint,
): bigint {
  let unscaled: bigint
  if (typeof value === 'number' && scale <= 22) {
    // When rounding value * 10^S gives an integer that divides back to exactly the same
    // double, the number's shortest text has at most S fraction digits and that integer is
    // its unscaled value: no text needed. (Below 2^51 the product is off by far less than 1/2.)
    const scaled = Math.round(value * powers[scale]!)
    if (Math.abs(scaled) < 2 ** 51 && scaled / powers[scale]! === value) {
      if (Math.abs(scaled) >= Number(limit))
        throw valueError(typeName, row, value, `more than ${precision - scale} digits before the point`)
      return BigInt(scaled)
    }
  }
  if (typeof value === 'bigint') unscaled = value * 10n ** BigInt(scale)
  else if (typeof value === 'string' || typeof value === 'number') {
    let text: string
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw valueError(typeName, row, value)
      text = plainNumberText(value)
    } else text = value
    const match = decimalInput.exec(text)
    if (!match || (match[2] === '' && (match[3] ?? '') === ''))
      throw valueError(typeName, row, value, 'expected a decimal number')
    const exponent = match[4] === undefined ? 0 : Number(match[4])
    if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 1000)
      throw valueError(typeName, row, value, 'exponent out of range')
    // All digits as one integer, and where the decimal point falls in it.
    let digits = (match[2] ?? '') + (match[3] ?? '')
    let fractionDigits = (match[3] ?? '').length - exponent
    if (fractionDigits < 0) {
      digits += '0'.repeat(-fractionDigits)
      fractionDigits = 0
    }
    if (fractionDigits > scale) {
      const dropped = digits.slice(digits.length - (fractionDigits - scale))
      if (/[1-9]/.test(dropped))
        throw valueError(typeName, row, value, `more than ${scale} digits after the point; round it first`)
      digits = digits.slice(0, digits.length - dropped.length)
      fractionDigits = scale
    }
    unscaled = BigInt(digits === '' ? '0' : digits) * 10n ** BigInt(scale - fractionDigits)
    if (match[1] === '-') unscaled = -unscaled
  } else throw valueError(typeName, row, value, 'expected a string, number or bigint')
  if (unscaled >= limit || unscaled <= -limit)
    throw valueError(typeName, row, value, `more than ${precision - scale} digits before the point`)
  return unscaled
}
