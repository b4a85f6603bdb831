import { describeValue } from '../columns/column-codec.js'
import { TypedValue } from '../columns/typed-value.js'
import { UsageError } from '../errors/usage-error.js'
import { modernParameterFeatures, type ParameterTypeFeatures } from './server-type-features.js'
import { canonicalTypeNode } from './type-aliases.js'
import { type TypeNode, typeArg, typeArguments, typeNode, typeToString } from './type-node.js'
import { parseTypeCached } from './type-parser.js'

/**
 * The one table from a JS value to the ClickHouse type it is sent or stored as, when nothing
 * declares one. Two places ask, and the table has a column for each:
 *
 * - a query parameter (`inferParameterType`: the client's `sql` template, the Kysely
 *   compiler): the server reads it as text, and may be old, so the types are the ones
 *   every server since 18.16 knows (or what `features` says it has);
 * - a value written to a Dynamic column or a JSON path (`inferDynamicType`): the server
 *   stores it with its type, so a bigint may be as wide as Int128 and an object is JSON.
 *
 * | JS value | parameter | Dynamic / JSON |
 * |---|---|---|
 * | null, undefined | Nullable(Nothing) | NULL (no type) |
 * | boolean | Bool; UInt8 without `features.bool` | Bool |
 * | number | Int64 for a safe integer, else Float64 (also -0, NaN, ±Infinity) | the same |
 * | bigint | Int64, else UInt64, else a UsageError | Int64, UInt64, Int128 or UInt128 |
 * | string, Uint8Array | String (a Uint8Array is raw bytes) | the same |
 * | Date | DateTime64(3, 'UTC'); DateTime('UTC') without `features.dateTime64` (whole seconds only) | DateTime64(3) |
 * | Int32Array and other typed arrays | Array of their element type | the same |
 * | array | Array(T) of the elements' common type | the same |
 * | Map | Map(K, V); K is String when empty; a UsageError without `features.map` | Map(K, V); Map(Nothing, Nothing) when empty |
 * | plain object | Map(String, V); a UsageError without `features.map` | JSON |
 * | {@link TypedValue} | a UsageError (declare `{name:Type}`) | its type |
 *
 * The common type of elements: Int64, UInt64 and Float64 widen in that order, Arrays and
 * Maps unify element by element, a null makes the type Nullable (Variant and Dynamic hold
 * NULL themselves, LowCardinality(T) becomes LowCardinality(Nullable(T)); Array, Map, Tuple
 * and JSON cannot be Nullable), `[]` is Array(Nothing). Tuples are never inferred.
 */

/** Where an inferred type goes, and where in the value inference is (for messages). */
interface Site {
  readonly target: 'parameter' | 'dynamic'
  readonly features: ParameterTypeFeatures
  /** The part of a parameter value, e.g. `the value [2]`. */
  readonly where: string
  /** The row of a Dynamic value. */
  readonly row: number
}

function fail(site: Site, message: string): never {
  throw new UsageError(
    site.target === 'parameter'
      ? `cannot infer a ClickHouse type for ${site.where}: ${message}; declare it with {name:Type}`
      : `row ${site.row}: ${message}; wrap it with typedValue()`,
  )
}

function at(site: Site, step: string): Site {
  return { ...site, where: `${site.where} ${step}` }
}

type ValueKind =
  | 'null'
  | 'boolean'
  | 'integer'
  | 'number'
  | 'bigint'
  | 'string'
  | 'bytes'
  | 'date'
  | 'typedArray'
  | 'array'
  | 'map'
  | 'object'
  | 'typed'
  | 'other'

function kindOf(value: unknown): ValueKind {
  if (value === null || value === undefined) return 'null'
  switch (typeof value) {
    case 'boolean':
      return 'boolean'
    case 'number':
      // -0 and integers past 2^53 are no exact Int64 text; Float64 keeps them.
      return Number.isSafeInteger(value) && !Object.is(value, -0) ? 'integer' : 'number'
    case 'bigint':
      return 'bigint'
    case 'string':
      return 'string'
    case 'object':
      break
    default:
      return 'other'
  }
  if (value instanceof TypedValue) return 'typed'
  if (value instanceof Uint8Array) return 'bytes'
  if (value instanceof Date) return 'date'
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return 'typedArray'
  if (Array.isArray(value)) return 'array'
  if (value instanceof Map) return 'map'
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null ? 'object' : 'other'
}

const nothing = typeNode('Nothing')
const string = typeNode('String')
const nullNothing = typeNode('Nullable', [typeArg(nothing)])
const utc = { kind: 'string', value: 'UTC' } as const
const millis = { kind: 'number', value: 3, text: '3' } as const
const int64Min = -(2n ** 63n)
const int64Max = 2n ** 63n - 1n

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

function bigintType(value: bigint, site: Site): TypeNode {
  if (value >= int64Min && value <= int64Max) return typeNode('Int64')
  if (value >= 0n && value < 2n ** 64n) return typeNode('UInt64')
  // A parameter's type must exist on old servers too; a stored value may be as wide as it needs.
  if (site.target === 'parameter') fail(site, `${value}n is outside Int64 and UInt64`)
  return typeNode(value >= 2n ** 127n ? 'UInt128' : 'Int128')
}

function dateType(value: Date, site: Site): TypeNode {
  if (site.target === 'dynamic') return typeNode('DateTime64', [millis])
  // A parameter is text read in the zone its type names: UTC says which instant it is.
  if (Number.isNaN(value.getTime())) fail(site, 'an invalid Date')
  if (site.features.dateTime64) return typeNode('DateTime64', [millis, utc])
  if (value.getTime() % 1000 !== 0)
    fail(site, "a Date with milliseconds, and this server has no DateTime64; DateTime('UTC') would drop them")
  return typeNode('DateTime', [utc])
}

function mapType(entries: readonly (readonly [unknown, unknown])[], keyed: boolean, site: Site): TypeNode {
  const keys = keyed
    ? unifyAll(
        entries.map(([key]) => infer(key, at(site, 'key'))),
        site,
      )
    : string
  if (keys.name === 'Nullable') fail(site, 'a Map with a null key')
  const values = unifyAll(
    entries.map(([key, item]) => infer(item, at(site, `[${describeValue(key)}]`))),
    site,
  )
  // ClickHouse types map() as Map(Nothing, Nothing); a parameter's key type must be real.
  const key = keys.name === 'Nothing' && site.target === 'parameter' ? string : keys
  return typeNode('Map', [typeArg(key), typeArg(values)])
}

/** The type of a value of each kind, for each target (see the table above). */
const rules: Readonly<Record<ValueKind, (value: never, site: Site) => TypeNode>> = {
  null: () => nullNothing,
  boolean: (_, site) => typeNode(site.target === 'dynamic' || site.features.bool ? 'Bool' : 'UInt8'),
  integer: () => typeNode('Int64'),
  number: () => typeNode('Float64'),
  bigint: bigintType,
  string: () => string,
  bytes: () => string,
  date: dateType,
  typedArray: (value: ArrayBufferView) => {
    const [, element] = typedArrayElements.find(([arrayClass]) => value instanceof arrayClass)!
    return typeNode('Array', [typeArg(typeNode(element))])
  },
  array: (value: readonly unknown[], site) => {
    const elements = value.map((item, i) => infer(item, at(site, `[${i}]`)))
    return typeNode('Array', [typeArg(unifyAll(elements, site))])
  },
  map: (value: Map<unknown, unknown>, site) => {
    if (site.target === 'parameter' && !site.features.map)
      fail(site, 'an object, and this server has no Map type')
    return mapType([...value.entries()], true, site)
  },
  object: (value: object, site) => {
    // A plain object is what a JSON value decodes to, so a stored one is written back as JSON.
    if (site.target === 'dynamic') return typeNode('JSON')
    if (!site.features.map) fail(site, 'an object, and this server has no Map type')
    return mapType(Object.entries(value), false, site)
  },
  typed: (value: TypedValue, site) => {
    // A parameter's declared type goes in its placeholder, `{name:Type}`.
    if (site.target === 'parameter') fail(site, `${describeValue(value)} has no ClickHouse counterpart`)
    return canonicalTypeNode(parseTypeCached(value.type))
  },
  other: (value: unknown, site) => fail(site, `${describeValue(value)} has no ClickHouse counterpart`),
}

function infer(value: unknown, site: Site): TypeNode {
  return rules[kindOf(value)](value as never, site)
}

/** Types that hold NULL themselves. */
const holdsNull = new Set(['Nullable', 'Variant', 'Dynamic'])
/** Types ClickHouse does not allow inside Nullable (and that hold no NULL). */
const neverNullable = new Set(['Array', 'Map', 'Tuple', 'JSON'])

function nullable(type: TypeNode, site: Site): TypeNode {
  if (holdsNull.has(type.name)) return type
  if (type.name === 'LowCardinality')
    return typeNode('LowCardinality', [typeArg(nullable(typeArguments(type)[0]!, site))])
  if (neverNullable.has(type.name))
    fail(site, `null next to a value of type ${typeToString(type)}, which cannot be Nullable`)
  return typeNode('Nullable', [typeArg(type)])
}

function stripNullable(type: TypeNode): TypeNode {
  return type.name === 'Nullable' ? typeArguments(type)[0]! : type
}

function isNullNothing(type: TypeNode): boolean {
  return type.name === 'Nullable' && typeArguments(type)[0]?.name === 'Nothing'
}

/** Int64 values are safe integers or bigints, which UInt64 and Float64 check exactly. */
const numericOrder = ['Int64', 'UInt64', 'Float64']

/** The one type that holds values of both `a` and `b`. */
function unify(a: TypeNode, b: TypeNode, site: Site): TypeNode {
  const aText = typeToString(a)
  const bText = typeToString(b)
  if (aText === bText) return a
  if (a.name === 'Nothing') return b
  if (b.name === 'Nothing') return a
  if (isNullNothing(a)) return nullable(b, site)
  if (isNullNothing(b)) return nullable(a, site)
  if (a.name === 'Nullable' || b.name === 'Nullable')
    return nullable(unify(stripNullable(a), stripNullable(b), site), site)
  if (a.name === 'Array' && b.name === 'Array')
    return typeNode('Array', [typeArg(unify(typeArguments(a)[0]!, typeArguments(b)[0]!, site))])
  if (a.name === 'Map' && b.name === 'Map') {
    const [aKey, aValue] = typeArguments(a)
    const [bKey, bValue] = typeArguments(b)
    return typeNode('Map', [typeArg(unify(aKey!, bKey!, site)), typeArg(unify(aValue!, bValue!, site))])
  }
  const aRank = numericOrder.indexOf(aText)
  const bRank = numericOrder.indexOf(bText)
  if (aRank >= 0 && bRank >= 0) return aRank > bRank ? a : b
  return fail(
    site,
    site.target === 'parameter'
      ? `it mixes ${aText} and ${bText}`
      : `elements of types ${aText} and ${bText} in one array`,
  )
}

function unifyAll(types: Iterable<TypeNode>, site: Site): TypeNode {
  let result = nothing
  for (const type of types) result = unify(result, type, site)
  return result
}

/**
 * The ClickHouse type a JS value is sent as when the query declares none (see the table
 * above: the client's `sql` template and the Kysely compiler use this).
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
  return infer(value, { target: 'parameter', features, where: 'the value', row: 0 })
}

/**
 * The one parameter type all of `values` fit (Int64 with Float64 gives Float64, a null makes
 * it Nullable), e.g. for a column of values in an INSERT: the element type of the array.
 */
export function commonParameterType(
  values: readonly unknown[],
  features: ParameterTypeFeatures = modernParameterFeatures,
): TypeNode {
  return typeArguments(inferParameterType(values, features))[0]!
}

/**
 * The ClickHouse type (canonical text) a JS value is written as in a Dynamic column or a
 * JSON path of row `row`, when no {@link TypedValue} names one (see the table above).
 * Undefined for null: a NULL has no type.
 */
export function inferDynamicType(value: unknown, row = 0): string | undefined {
  if (value === null || value === undefined) return undefined
  return typeToString(
    infer(value, { target: 'dynamic', features: modernParameterFeatures, where: 'the value', row }),
  )
}
