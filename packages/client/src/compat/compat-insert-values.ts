import { parseTypeCached, type TypeNode, UsageError } from '@clickwire/protocol'
import { ClickHouseError } from './compat-error.js'

/** Turns a JSON value of a column (as @clickhouse/client users write them) into the value our insert takes. */
export type ValueConverter = (value: unknown) => unknown

/** How the server would read the JSON values the drop-in converts itself over native. */
export interface InsertReading {
  /**
   * A JSON integer for a DateTime64 column is its raw ticks at the column's precision
   * (`1662328969123` into DateTime64(3) is 2022-09-04 22:02:49.123), not seconds. This is
   * `input_format_read_datetime_number_as_raw_value`: 1 by default before ClickHouse 26.8
   * (which had no such setting and always read ticks), 0 from 26.8 on.
   */
  readonly dateTimeNumbersAsTicks: boolean
}

const utf8 = new TextEncoder()

const bigIntegers = /^U?Int(64|128|256)$/
const smallIntegers = /^U?Int(8|16|32)$/

function typeArg(node: TypeNode, index: number): TypeNode {
  const arg = node.args[index]
  if (arg?.kind !== 'type') throw new UsageError(`unexpected type ${node.name}`)
  return arg.type
}

function converterFor(node: TypeNode, reading: InsertReading): ValueConverter {
  const name = node.name
  if (name === 'Nullable') {
    const inner = converterFor(typeArg(node, 0), reading)
    return (value) => (value === null || value === undefined ? null : inner(value))
  }
  if (name === 'LowCardinality') return converterFor(typeArg(node, 0), reading)
  if (bigIntegers.test(name))
    return (value) =>
      typeof value === 'string' && /^-?\d+$/.test(value.trim())
        ? BigInt(value.trim())
        : typeof value === 'number' && Number.isInteger(value)
          ? BigInt(value)
          : value
  if (smallIntegers.test(name)) {
    // The server reads an out-of-range integer of a JSON input format wrapped to the width
    // (256 into UInt8 is 0); the drop-in writes what the server would have stored.
    const bits = Number(name.replace(/^U?Int/, ''))
    const wrap = name.startsWith('U') ? BigInt.asUintN : BigInt.asIntN
    return (value) => {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
      return typeof number === 'number' && Number.isInteger(number)
        ? Number(wrap(bits, BigInt(number)))
        : number
    }
  }
  if (name === 'Float32' || name === 'Float64')
    return (value) =>
      typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value
  if (/^Decimal/.test(name)) return (value) => (typeof value === 'number' ? String(value) : value)
  if (name === 'Bool') return (value) => (value === 0 || value === 1 ? value === 1 : value)
  if (name === 'DateTime64' && reading.dateTimeNumbersAsTicks)
    // Our encoder reads a number as seconds and a bigint as ticks.
    return (value) => (typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value)
  if (name === 'FixedString') {
    const size = node.args[0]?.kind === 'number' ? node.args[0].value : Number.NaN
    // The server refuses a longer value with TOO_LARGE_STRING_SIZE; @clickhouse/client users
    // catch that code, so the drop-in raises it in the server's shape before sending.
    return (value) => {
      if (typeof value === 'string' && utf8.encode(value).length > size)
        throw new ClickHouseError(
          { message: `Too large value for FixedString(${size})`, code: '131', type: 'TOO_LARGE_STRING_SIZE' },
          {
            cause: new UsageError(
              `${JSON.stringify(value)} is ${utf8.encode(value).length} bytes, longer than FixedString(${size})`,
            ),
          },
        )
      return value
    }
  }
  if (name === 'Array') {
    const inner = converterFor(typeArg(node, 0), reading)
    return (value) => (Array.isArray(value) ? value.map(inner) : value)
  }
  if (name === 'Tuple') {
    const parts = node.args.map((arg) =>
      arg.kind === 'type' ? { name: arg.name, convert: converterFor(arg.type, reading) } : undefined,
    )
    return (value) => {
      if (Array.isArray(value)) return value.map((each, index) => parts[index]?.convert(each) ?? each)
      if (typeof value === 'object' && value !== null) {
        const object: Record<string, unknown> = {}
        for (const part of parts)
          if (part?.name !== undefined)
            object[part.name] = part.convert((value as Record<string, unknown>)[part.name])
        return object
      }
      return value
    }
  }
  if (name === 'Map') {
    const key = converterFor(typeArg(node, 0), reading)
    const inner = converterFor(typeArg(node, 1), reading)
    return (value) => {
      const entries =
        value instanceof Map
          ? [...value]
          : typeof value === 'object' && value !== null && !Array.isArray(value)
            ? Object.entries(value)
            : undefined
      return entries ? new Map(entries.map(([k, v]) => [key(k), inner(v)])) : value
    }
  }
  return (value) => value
}

/** The converter of a column of `type` (its ClickHouse type text), reading values as the server would. */
export function insertConverter(type: string, reading: InsertReading): ValueConverter {
  return converterFor(parseTypeCached(type), reading)
}
