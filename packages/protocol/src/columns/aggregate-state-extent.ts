import { ProtocolError } from '../errors/protocol-error.js'
import { maxValueLength } from '../io/byte-reader.js'
import { type TypeNode, typeArguments, typeToString } from '../types/type-node.js'
import { supportedAggregateFunctions } from './aggregate-function-names.js'
import { decimalParameters, decimalWidth } from './decimal-column.js'
import { enumElements } from './enum-column.js'

/**
 * Where one serialized aggregate-function state ends.
 *
 * Native writes an AggregateFunction column as the states of its rows back to back, each
 * in its function's own format and without a length, so reading a column means knowing
 * each format. These are the formats of the common functions, as ClickHouse's
 * `serialize()` writes them (src/AggregateFunctions: Count, Sum, Avg, SingleValueData,
 * UniquesHashSet, UniqExactSet/HashTable::write, GroupArray, ArgMinMax, Null), checked
 * byte for byte against 18.16 and 26.7:
 *
 * | function | state |
 * |---|---|
 * | count | VarUInt count |
 * | sum(T) | the sum: 8 bytes for (U)Int8-64, Float, Bool; 16 for (U)Int128 and Decimal up to 38 digits; 32 for (U)Int256 and Decimal256 |
 * | avg(T) | the sum as for sum(T), then VarUInt count |
 * | min, max, any, anyLast (T) | String: Int32 size (with a trailing NUL; -1 for no value) and the bytes; fixed-width T: UInt8 has-value, then the value if present |
 * | argMin, argMax (A, V) | the min/max state of A, then of V |
 * | uniq | UInt8 skip degree, VarUInt count, 4-byte hashes |
 * | uniqExact(T) | VarUInt count, then keys: T itself for numbers, dates, Enum, IPv4, UUID; a 16-byte hash otherwise |
 * | groupArray[(max)](T) | VarUInt count, then the elements: raw for numbers, Enum, Date, DateTime; VarUInt length + bytes each otherwise |
 *
 * `-If` (the condition argument adds nothing to the state) and Nullable arguments (26.7
 * writes a UInt8 flag and the nested state only when the flag is 1; count and groupArray
 * skip NULLs themselves and write their plain state) are handled; LowCardinality
 * arguments do not change the state. Other functions have no known extent: reading them
 * is a UsageError that suggests `finalizeAggregation`.
 */

/** Reads one state at `at`; returns its end, or {@link short} when `limit` comes first. */
export type StateReader = (bytes: Uint8Array, at: number, limit: number) => number

/** Returned by a StateReader that ran out of input. */
export const short = -1

let lastVarUInt = 0

function readVarUInt(bytes: Uint8Array, at: number, limit: number): number {
  let value = 0
  let scale = 1
  for (let i = 0; i < 10; i++) {
    if (at >= limit) return short
    const byte = bytes[at++]!
    value += (byte & 0x7f) * scale
    if (byte < 0x80) {
      lastVarUInt = value
      return at
    }
    scale *= 128
  }
  throw new ProtocolError('VarUInt longer than 10 bytes in an aggregate function state')
}

function checkedCount(what: string, count: number, max: number): number {
  if (count > max) throw new ProtocolError(`aggregate function state: ${what} ${count} is larger than ${max}`)
  return count
}

const fixed =
  (size: number): StateReader =>
  (_bytes, at, limit) =>
    at + size <= limit ? at + size : short

const countState: StateReader = readVarUInt

function sumThenCount(size: number): StateReader {
  return (bytes, at, limit) => (at + size < limit ? readVarUInt(bytes, at + size, limit) : short)
}

const stringSingleValue: StateReader = (bytes, at, limit) => {
  if (at + 4 > limit) return short
  const size = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)
  if (size < 0) return at + 4
  checkedCount('string size', size, maxValueLength)
  return at + 4 + size <= limit ? at + 4 + size : short
}

function fixedSingleValue(size: number): StateReader {
  return (bytes, at, limit) => {
    if (at >= limit) return short
    if (bytes[at] === 0) return at + 1
    return at + 1 + size <= limit ? at + 1 + size : short
  }
}

const uniqState: StateReader = (bytes, at, limit) => {
  if (at >= limit) return short
  const end = readVarUInt(bytes, at + 1, limit)
  if (end === short) return short
  const size = checkedCount('uniq set size', lastVarUInt, 1 << 17) * 4
  return end + size <= limit ? end + size : short
}

function countedItems(size: number, what: string): StateReader {
  return (bytes, at, limit) => {
    const end = readVarUInt(bytes, at, limit)
    if (end === short) return short
    const total = checkedCount(what, lastVarUInt, Math.floor(maxValueLength / size)) * size
    return end + total <= limit ? end + total : short
  }
}

const groupArrayOfSized: StateReader = (bytes, at, limit) => {
  let end = readVarUInt(bytes, at, limit)
  if (end === short) return short
  const count = checkedCount('groupArray size', lastVarUInt, 0xffffff)
  for (let i = 0; i < count; i++) {
    end = readVarUInt(bytes, end, limit)
    if (end === short) return short
    end += checkedCount('groupArray element size', lastVarUInt, maxValueLength)
    if (end > limit) return short
  }
  return end
}

function sequence(first: StateReader, second: StateReader): StateReader {
  return (bytes, at, limit) => {
    const middle = first(bytes, at, limit)
    return middle === short ? short : second(bytes, middle, limit)
  }
}

function flagged(nested: StateReader): StateReader {
  return (bytes, at, limit) => {
    if (at >= limit) return short
    return bytes[at] === 0 ? at + 1 : nested(bytes, at + 1, limit)
  }
}

/** Widths of the types whose binary form has a fixed size. */
const fixedWidths: Readonly<Record<string, number>> = {
  Bool: 1,
  Int8: 1,
  UInt8: 1,
  Int16: 2,
  UInt16: 2,
  Date: 2,
  Int32: 4,
  UInt32: 4,
  Float32: 4,
  Date32: 4,
  DateTime: 4,
  DateTime32: 4,
  IPv4: 4,
  Time: 4,
  Int64: 8,
  UInt64: 8,
  Float64: 8,
  DateTime64: 8,
  Time64: 8,
  Int128: 16,
  UInt128: 16,
  UUID: 16,
  IPv6: 16,
  Int256: 32,
  UInt256: 32,
}

/** Types ClickHouse aggregates as plain numbers (no per-element length in groupArray). */
const numericFamilies = new Set([
  'Bool',
  'Int8',
  'UInt8',
  'Int16',
  'UInt16',
  'Int32',
  'UInt32',
  'Int64',
  'UInt64',
  'Int128',
  'UInt128',
  'Int256',
  'UInt256',
  'Float32',
  'Float64',
  'Enum8',
  'Enum16',
  'Enum',
  'Date',
  'DateTime',
  'DateTime32',
])

/** uniqExact keeps these types' own bytes as keys; everything else is hashed to 16 bytes. */
const ownKeyFamilies = new Set([...numericFamilies, 'Date32', 'IPv4', 'UUID'])

/** Byte width of a fixed-size binary value of `type`, or undefined (String, arrays, ...). */
function fixedWidthOf(type: TypeNode): number | undefined {
  const known = fixedWidths[type.name]
  if (known !== undefined) return known
  if (type.name.startsWith('Interval')) return 8
  if (type.name.startsWith('Decimal')) return decimalWidth(decimalParameters(type).precision)
  if (type.name.startsWith('Enum')) return enumElements(type).width
  if (type.name === 'FixedString') {
    const size = type.args[0]
    return size?.kind === 'number' ? size.value : undefined
  }
  return undefined
}

/** Width of sum(T)'s and avg(T)'s running sum, or undefined when T is not summable here. */
function sumWidthOf(type: TypeNode): number | undefined {
  const name = type.name
  if (name.startsWith('Decimal')) return decimalWidth(decimalParameters(type).precision) === 32 ? 32 : 16
  if (name === 'Int128' || name === 'UInt128') return 16
  if (name === 'Int256' || name === 'UInt256') return 32
  if (/^(U?Int(8|16|32|64)|Float(32|64)|Bool)$/.test(name)) return 8
  return undefined
}

function singleValue(type: TypeNode): StateReader | undefined {
  if (type.name === 'String') return stringSingleValue
  const width = fixedWidthOf(type)
  return width === undefined ? undefined : fixedSingleValue(width)
}

function stripLowCardinality(type: TypeNode): TypeNode {
  return type.name === 'LowCardinality' ? (typeArguments(type)[0] ?? type) : type
}

/** The function name and argument types of an AggregateFunction type. */
export function aggregateFunctionOf(type: TypeNode): { name: string; params: number; args: TypeNode[] } {
  for (const arg of type.args) {
    if (arg.kind === 'function')
      return { name: arg.name, params: arg.params.length, args: typeArguments(type) }
  }
  return { name: '', params: 0, args: [] }
}

/** The state reader of a function over plain (not Nullable) argument types, or undefined. */
function plainReader(name: string, params: number, args: TypeNode[]): StateReader | undefined {
  const first = args[0]
  switch (name.toLowerCase()) {
    case 'count':
      return countState
    case 'sum': {
      const width = args.length === 1 && params === 0 ? sumWidthOf(first!) : undefined
      return width === undefined ? undefined : fixed(width)
    }
    case 'avg': {
      const width = args.length === 1 && params === 0 ? sumWidthOf(first!) : undefined
      return width === undefined ? undefined : sumThenCount(width)
    }
    case 'min':
    case 'max':
    case 'any':
    case 'anylast':
      return args.length === 1 && params === 0 ? singleValue(first!) : undefined
    case 'argmin':
    case 'argmax': {
      if (args.length !== 2 || params !== 0) return undefined
      const result = singleValue(args[0]!)
      const value = singleValue(args[1]!)
      return result && value ? sequence(result, value) : undefined
    }
    case 'uniq':
      return args.length > 0 && params === 0 ? uniqState : undefined
    case 'uniqexact': {
      if (args.length === 0 || params !== 0) return undefined
      const own = args.length === 1 && ownKeyFamilies.has(first!.name) ? fixedWidthOf(first!) : undefined
      return countedItems(own ?? 16, 'uniqExact set size')
    }
    case 'grouparray': {
      if (args.length !== 1 || params > 1) return undefined
      if (numericFamilies.has(first!.name)) return countedItems(fixedWidthOf(first!)!, 'groupArray size')
      return groupArrayOfSized
    }
    default:
      return undefined
  }
}

/**
 * The reader of one state of an `AggregateFunction(...)` type, or a message saying why
 * its states cannot be delimited.
 */
export function aggregateStateReader(type: TypeNode): StateReader | string {
  const { name, params, args: written } = aggregateFunctionOf(type)
  let base = name
  let args = written.map(stripLowCardinality)
  if (/If$/.test(base) && base.length > 2 && args.length > 0) {
    base = base.slice(0, -2)
    args = args.slice(0, -1)
  }
  const nullable = args.some((arg) => arg.name === 'Nullable')
  const plainArgs = args.map((arg) =>
    arg.name === 'Nullable' ? stripLowCardinality(typeArguments(arg)[0] ?? arg) : arg,
  )
  let reader: StateReader | undefined
  try {
    reader = plainReader(base, params, plainArgs)
  } catch {
    reader = undefined
  }
  if (reader && nullable && !/^(count|grouparray)$/i.test(base)) reader = flagged(reader)
  if (reader) return reader
  return (
    `the Native layout of ${typeToString(type)} states is not known to clickwire ` +
    `(supported: ${supportedAggregateFunctions.join(', ')}, with -If, over numbers, dates, ` +
    `Decimal, UUID, IP, Enum, FixedString and String); ` +
    `select finalizeAggregation(column) or the -Merge function to get the values instead`
  )
}
