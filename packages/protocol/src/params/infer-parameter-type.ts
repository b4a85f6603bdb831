import { describeValue } from '../columns/column-codec.js'
import { UsageError } from '../errors/usage-error.js'
import { versionAtLeast } from '../sql/server-version.js'
import { type TypeNode, typeArg, typeArguments, typeNode, typeToString } from '../types/type-node.js'

/**
 * What the server's type system has, as far as inference cares. Servers before these types
 * existed get the nearest older type, or an error when there is none.
 */
export interface ParameterTypeFeatures {
  /** `Bool` (ClickHouse 21.12 and later). Without it, booleans are UInt8 0/1. */
  readonly bool: boolean
  /**
   * `DateTime64` (ClickHouse 20.1 and later). Without it, a JS Date is a `DateTime('UTC')`,
   * which has whole seconds only: a Date with milliseconds is then a UsageError.
   */
  readonly dateTime64: boolean
  /** `Map` (ClickHouse 21.1 and later). Without it, objects and JS Maps cannot be inferred. */
  readonly map: boolean
}

/** Every type inference may produce is available: current servers. */
export const modernParameterFeatures: ParameterTypeFeatures = Object.freeze({
  bool: true,
  dateTime64: true,
  map: true,
})

/**
 * Which inferred parameter types a server of `version` understands: Bool from 21.12,
 * DateTime64 from 20.1, Map from 21.1. An empty (unknown yet) version is a current server.
 */
export function parameterFeaturesOf(version: string): ParameterTypeFeatures {
  return {
    bool: versionAtLeast(version, 21, 12),
    dateTime64: versionAtLeast(version, 20, 1),
    map: versionAtLeast(version, 21, 1),
  }
}

/** ClickHouse 18.16: no Bool, DateTime64 or Map. */
export const legacyParameterFeatures: ParameterTypeFeatures = Object.freeze({
  bool: false,
  dateTime64: false,
  map: false,
})

const nothing = typeNode('Nothing')
const utc = { kind: 'string', value: 'UTC' } as const
const int64Range = [-(2n ** 63n), 2n ** 63n - 1n] as const
const uint64Max = 2n ** 64n - 1n

const typedArrayElements: ReadonlyArray<readonly [new (...args: never[]) => ArrayBufferView, string]> = [
  [Int8Array, 'Int8'],
  [Uint8ClampedArray, 'UInt8'],
  [Int16Array, 'Int16'],
  [Uint16Array, 'UInt16'],
  [Int32Array, 'Int32'],
  [Uint32Array, 'UInt32'],
  [Float32Array, 'Float32'],
  [Float64Array, 'Float64'],
  [BigInt64Array, 'Int64'],
  [BigUint64Array, 'UInt64'],
]

function fail(where: string, message: string): never {
  throw new UsageError(`cannot infer a ClickHouse type for ${where}: ${message}; declare it with {name:Type}`)
}

function isNullNothing(type: TypeNode): boolean {
  return type.name === 'Nullable' && typeArguments(type)[0]?.name === 'Nothing'
}

function nullable(type: TypeNode, where: string): TypeNode {
  if (type.name === 'Nullable') return type
  if (type.name === 'Array' || type.name === 'Map' || type.name === 'Tuple')
    fail(where, `null next to a value of type ${typeToString(type)}, which cannot be Nullable`)
  return typeNode('Nullable', [typeArg(type)])
}

function stripNullable(type: TypeNode): TypeNode {
  return type.name === 'Nullable' ? typeArguments(type)[0]! : type
}

const numericOrder = ['Int64', 'UInt64', 'Float64']

/** The one type that holds values of both `a` and `b`. */
function unify(a: TypeNode, b: TypeNode, where: string): TypeNode {
  const aText = typeToString(a)
  const bText = typeToString(b)
  if (aText === bText) return a
  if (a.name === 'Nothing') return b
  if (b.name === 'Nothing') return a
  if (isNullNothing(a)) return nullable(b, where)
  if (isNullNothing(b)) return nullable(a, where)
  if (a.name === 'Nullable' || b.name === 'Nullable')
    return nullable(unify(stripNullable(a), stripNullable(b), where), where)
  if (a.name === 'Array' && b.name === 'Array')
    return typeNode('Array', [typeArg(unify(typeArguments(a)[0]!, typeArguments(b)[0]!, where))])
  if (a.name === 'Map' && b.name === 'Map') {
    const [aKey, aValue] = typeArguments(a)
    const [bKey, bValue] = typeArguments(b)
    return typeNode('Map', [typeArg(unify(aKey!, bKey!, where)), typeArg(unify(aValue!, bValue!, where))])
  }
  const aRank = numericOrder.indexOf(aText)
  const bRank = numericOrder.indexOf(bText)
  // Int64 values are safe integers or bigints, which UInt64 and Float64 check exactly.
  if (aRank >= 0 && bRank >= 0) return aRank > bRank ? a : b
  return fail(where, `it mixes ${aText} and ${bText}`)
}

function unifyAll(types: Iterable<TypeNode>, where: string): TypeNode {
  let result = nothing
  for (const type of types) result = unify(result, type, where)
  return result
}

function infer(value: unknown, features: ParameterTypeFeatures, where: string): TypeNode {
  if (value === null || value === undefined) return typeNode('Nullable', [typeArg(nothing)])
  switch (typeof value) {
    case 'boolean':
      return typeNode(features.bool ? 'Bool' : 'UInt8')
    case 'number':
      return Number.isSafeInteger(value) && !Object.is(value, -0) ? typeNode('Int64') : typeNode('Float64')
    case 'bigint':
      if (value >= int64Range[0] && value <= int64Range[1]) return typeNode('Int64')
      if (value >= 0n && value <= uint64Max) return typeNode('UInt64')
      return fail(where, `${value}n is outside Int64 and UInt64`)
    case 'string':
      return typeNode('String')
  }
  if (value instanceof Uint8Array && !(value instanceof Uint8ClampedArray)) return typeNode('String')
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) fail(where, 'an invalid Date')
    if (features.dateTime64) return typeNode('DateTime64', [{ kind: 'number', value: 3, text: '3' }, utc])
    if (value.getTime() % 1000 !== 0)
      fail(
        where,
        "a Date with milliseconds, and this server has no DateTime64; DateTime('UTC') would drop them",
      )
    return typeNode('DateTime', [utc])
  }
  for (const [arrayClass, element] of typedArrayElements) {
    if (value instanceof arrayClass) return typeNode('Array', [typeArg(typeNode(element))])
  }
  if (Array.isArray(value)) {
    const element = unifyAll(
      value.map((item, i) => infer(item, features, `${where} [${i}]`)),
      where,
    )
    return typeNode('Array', [typeArg(element)])
  }
  const isMap = value instanceof Map
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined
  if (isMap || proto === Object.prototype || proto === null) {
    if (!features.map) fail(where, 'an object, and this server has no Map type')
    const entries = isMap ? Array.from(value.entries()) : Object.entries(value as object)
    const keys = isMap
      ? unifyAll(
          entries.map(([key]) => infer(key, features, `${where} key`)),
          where,
        )
      : typeNode('String')
    if (keys.name === 'Nullable') fail(where, 'a Map with a null key')
    const values = unifyAll(
      entries.map(([key, item]) => infer(item, features, `${where} [${describeValue(key)}]`)),
      where,
    )
    return typeNode('Map', [typeArg(keys.name === 'Nothing' ? typeNode('String') : keys), typeArg(values)])
  }
  return fail(where, `${describeValue(value)} has no ClickHouse counterpart`)
}

/**
 * The ClickHouse type a JS value is sent as when the query declares none (the client's `sql`
 * template uses this):
 *
 * | JS value | type |
 * |---|---|
 * | number | Int64 for a safe integer, else Float64 (also for -0, NaN, ±Infinity) |
 * | bigint | Int64 when it fits, else UInt64 when it fits, else a UsageError |
 * | string, Uint8Array | String (a Uint8Array is raw bytes) |
 * | boolean | Bool; UInt8 without `features.bool` |
 * | Date | DateTime64(3, 'UTC'); DateTime('UTC') without `features.dateTime64` (whole seconds only) |
 * | null, undefined | Nullable(Nothing) |
 * | array | Array(T) of the elements' common type: Int64 with Float64 gives Float64, Int64 with UInt64 gives UInt64, null makes T Nullable; Array(Nothing) when empty |
 * | Int32Array and other typed arrays | Array of their element type |
 * | Map, plain object | Map(K, V) (K is String for objects and empty Maps); a UsageError without `features.map` |
 *
 * Tuples are never inferred (a JS array is an Array); declare them.
 *
 * @example
 * ```ts
 * typeToString(inferParameterType([1, 2.5, null])) // 'Array(Nullable(Float64))'
 * typeToString(inferParameterType(true, legacyParameterFeatures)) // 'UInt8'
 * ```
 */
export function inferParameterType(
  value: unknown,
  features: ParameterTypeFeatures = modernParameterFeatures,
): TypeNode {
  return infer(value, features, 'the value')
}
