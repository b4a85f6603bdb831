import type { TypeNode } from '../types/type-node.js'
import {
  castableScalar,
  expressionScalar,
  type ParameterPath,
  parameterError,
  type ScalarHandler,
  type ScalarParameter,
} from './parameter-model.js'

/*
 * Integers, floats, decimals and Bool. Integer and decimal text is exact and canonical
 * (`-12.5`, never `1e3`), so the server's text reader and CAST read the same number.
 *
 * Floats need care on old servers: 18.16 parses floats from strings imprecisely (CAST of the
 * shortest round-trip text of random doubles came back one ulp off about one time in five)
 * but parses float literals in SQL exactly, except that it rejects literals of subnormal
 * numbers. So substituted floats are numeric literals inside CAST, subnormals are built
 * exactly as m * 2^-537 * 2^-537, and only -0, nan and inf (which a literal cannot spell)
 * go through a string.
 */

function integerRange(bits: number, signed: boolean): readonly [bigint, bigint] {
  const size = 1n << BigInt(bits)
  return signed ? [-(size >> 1n), (size >> 1n) - 1n] : [0n, size - 1n]
}

function toBigInt(type: TypeNode, value: unknown, at: ParameterPath): bigint {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return BigInt(value)
    throw parameterError(at, type, value, 'not an integer')
  }
  if (typeof value === 'boolean') return value ? 1n : 0n
  if (typeof value === 'string' && /^[-+]?\d+$/.test(value)) return BigInt(value)
  throw parameterError(at, type, value)
}

function integerHandler(bits: number, signed: boolean): ScalarHandler {
  const [min, max] = integerRange(bits, signed)
  return (type, value, at) => {
    const big = toBigInt(type, value, at)
    if (big < min || big > max) throw parameterError(at, type, value, 'out of range')
    return castableScalar(big.toString(), false)
  }
}

function toNumber(type: TypeNode, value: unknown, at: ParameterPath): number {
  if (typeof value === 'number') return value
  if (typeof value === 'bigint') {
    const number = Number(value)
    if (BigInt(number) !== value) throw parameterError(at, type, value, 'not exactly representable')
    return number
  }
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'string') {
    const text = value.toLowerCase()
    if (/^[-+]?nan$/.test(text)) return Number.NaN
    if (/^\+?inf(inity)?$/.test(text)) return Number.POSITIVE_INFINITY
    if (/^-inf(inity)?$/.test(text)) return Number.NEGATIVE_INFINITY
    if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/.test(text)) return Number(text)
  }
  throw parameterError(at, type, value)
}

/** Float text without spelling an integer past 2^53 in plain digits (which reads as an integer). */
function floatLiteral(number: number): string {
  return Math.abs(number) >= 2 ** 53 ? number.toExponential() : String(number)
}

/** The values a SQL literal cannot express; all read exactly from their string form. */
function specialFloat(number: number): ScalarParameter | undefined {
  if (Number.isNaN(number)) return castableScalar('nan', false)
  if (number === Number.POSITIVE_INFINITY) return castableScalar('inf', false)
  if (number === Number.NEGATIVE_INFINITY) return castableScalar('-inf', false)
  if (Object.is(number, -0)) return castableScalar('-0', false)
  return undefined
}

const smallestNormal = 2 ** -1022
const halfSubnormalScale = 2 ** -537

const float64: ScalarHandler = (type, value, at) => {
  const number = toNumber(type, value, at)
  const special = specialFloat(number)
  if (special) return special
  const text = floatLiteral(number)
  if (number !== 0 && Math.abs(number) < smallestNormal) {
    // Exact: the integer scale of a subnormal fits 52 bits, and both products are exact.
    const scaled = number / halfSubnormalScale / halfSubnormalScale
    const sql = `${scaled} * ${halfSubnormalScale} * ${halfSubnormalScale}`
    return expressionScalar(text, false, sql, '')
  }
  return expressionScalar(text, false, text, '')
}

/**
 * The shortest text that reads back as this Float32 value. With at most 9 significant
 * digits it can only sit on a rounding midpoint by being that midpoint, so the server's
 * direct decimal-to-float reading and the client's literal-to-double-to-float reading agree.
 */
function float32Text(float: number): string {
  for (let digits = 1; digits < 10; digits++) {
    const candidate = Number(float.toPrecision(digits))
    if (Math.fround(candidate) === float) return floatLiteral(candidate)
  }
  return floatLiteral(float)
}

const float32: ScalarHandler = (type, value, at) => {
  const number = toNumber(type, value, at)
  const float = Math.fround(number)
  const special = specialFloat(float)
  if (special) {
    if (Number.isFinite(number) && !Number.isFinite(float))
      throw parameterError(at, type, value, 'out of range')
    return special
  }
  const text = float32Text(float)
  return expressionScalar(text, false, text, '')
}

const bool: ScalarHandler = (type, value, at) => {
  if (typeof value === 'boolean') return castableScalar(value ? 'true' : 'false', false)
  if (value === 0 || value === 1 || value === 0n || value === 1n)
    return castableScalar(value ? 'true' : 'false', false)
  throw parameterError(at, type, value, 'expected a boolean')
}

const decimalWidths: Readonly<Record<string, number>> = {
  Decimal32: 9,
  Decimal64: 18,
  Decimal128: 38,
  Decimal256: 76,
}

/** Precision and scale of `Decimal(P, S)` (defaults 10, 0) and `DecimalN(S)`. */
export function decimalPrecisionScale(type: TypeNode): readonly [precision: number, scale: number] {
  const numbers = type.args.map((arg) => (arg.kind === 'number' ? arg.value : Number.NaN))
  const width = decimalWidths[type.name]
  const [precision, scale] =
    width === undefined ? [numbers[0] ?? 10, numbers[1] ?? 0] : [width, numbers[0] ?? 0]
  return [precision, scale]
}

/** Plain decimal digits of a finite JS number's shortest round-trip text (no exponent). */
export function plainDecimal(number: number): string {
  const text = String(number)
  const match = /^(-?)(\d+)(?:\.(\d+))?e([-+]\d+)$/.exec(text)
  if (!match) return text
  const [, sign, whole, fraction = '', exponentText] = match
  const digits = whole! + fraction
  const point = whole!.length + Number(exponentText)
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

const decimal: ScalarHandler = (type, value, at) => {
  const [precision, scale] = decimalPrecisionScale(type)
  if (
    !Number.isInteger(precision) ||
    !Number.isInteger(scale) ||
    precision < 1 ||
    precision > 76 ||
    scale < 0 ||
    scale > precision
  )
    throw parameterError(at, type, value, 'precision must be 1-76 and scale 0-precision')
  let text: string
  if (typeof value === 'string') text = value
  else if (typeof value === 'bigint') text = value.toString()
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw parameterError(at, type, value, 'not finite')
    text = plainDecimal(value)
  } else throw parameterError(at, type, value, 'expected a decimal string, number or bigint')
  const match = /^([-+]?)(\d+)(?:\.(\d+))?$/.exec(text)
  if (!match) throw parameterError(at, type, value, 'expected decimal digits')
  const whole = match[2]!.replace(/^0+/, '')
  const fraction = (match[3] ?? '').replace(/0+$/, '')
  if (fraction.length > scale)
    throw parameterError(at, type, value, `more than ${scale} digits after the point; round it first`)
  if (whole.length > precision - scale) throw parameterError(at, type, value, 'out of range')
  const negative = match[1] === '-' && (whole !== '' || fraction !== '')
  const canonical = `${negative ? '-' : ''}${whole || '0'}${fraction ? `.${fraction}` : ''}`
  return castableScalar(canonical, false)
}

/** Scalar handlers for numeric types and Bool, by family name. */
export const numericParameterHandlers: Readonly<Record<string, ScalarHandler>> = {
  UInt8: integerHandler(8, false),
  UInt16: integerHandler(16, false),
  UInt32: integerHandler(32, false),
  UInt64: integerHandler(64, false),
  UInt128: integerHandler(128, false),
  UInt256: integerHandler(256, false),
  Int8: integerHandler(8, true),
  Int16: integerHandler(16, true),
  Int32: integerHandler(32, true),
  Int64: integerHandler(64, true),
  Int128: integerHandler(128, true),
  Int256: integerHandler(256, true),
  Float32: float32,
  Float64: float64,
  Bool: bool,
  Decimal: decimal,
  Decimal32: decimal,
  Decimal64: decimal,
  Decimal128: decimal,
  Decimal256: decimal,
}
