import { UsageError } from '../errors/usage-error.js'
import { parseTypeCached } from '../types/type-parser.js'
import { hasCodec } from './codec-registry.js'
import { canonicalTypeText, describeValueKind } from './composite-support.js'
import { TypedValue } from './typed-value.js'

const int64Min = -(2n ** 63n)
const int64Max = 2n ** 63n - 1n

/** Types that cannot be wrapped in Nullable. */
const notNullable = new Set([
  'Array',
  'Map',
  'Tuple',
  'Nullable',
  'LowCardinality',
  'Variant',
  'Dynamic',
  'JSON',
])

/**
 * The ClickHouse type a JS value is written as in a Dynamic column (or a JSON path)
 * when no {@link TypedValue} names one: string -> String, whole number -> Int64, other
 * number -> Float64, bigint -> Int64 (UInt64, Int128 or UInt128 when larger), boolean ->
 * Bool, Date -> DateTime64(3), Uint8Array -> String, array -> Array(element type),
 * Map -> Map(key type, value type), plain object -> JSON. Returns undefined for null.
 */
export function inferDynamicType(value: unknown, row = 0): string | undefined {
  if (value instanceof TypedValue) return canonicalTypeText(parseTypeCached(value.type))
  const kind = describeValueKind(value)
  switch (kind) {
    case 'null':
      return undefined
    case 'string':
    case 'bytes':
      return 'String'
    case 'integer':
      return 'Int64'
    case 'number':
      return 'Float64'
    case 'bigint': {
      const big = value as bigint
      if (big >= int64Min && big <= int64Max) return 'Int64'
      if (big >= 0n && big < 2n ** 64n) return 'UInt64'
      return big >= 0n && big >= 2n ** 127n ? 'UInt128' : 'Int128'
    }
    case 'boolean':
      return hasCodec('Bool') ? 'Bool' : 'UInt8'
    case 'date':
      if (!hasCodec('DateTime64')) throw new UsageError(`row ${row}: no DateTime64 codec to write a Date`)
      return 'DateTime64(3)'
    case 'array':
      return `Array(${commonType(Array.from(value as ArrayLike<unknown>), row)})`
    case 'map': {
      const map = value as Map<unknown, unknown>
      return `Map(${commonType([...map.keys()], row)}, ${commonType([...map.values()], row)})`
    }
    case 'object': {
      // A plain object is what a JSON value decodes to (e.g. the elements of an Array(JSON)
      // path of a JSON column), so it is written back as JSON.
      const prototype = Object.getPrototypeOf(value)
      if (prototype === Object.prototype || prototype === null) return 'JSON'
      break
    }
  }
  throw new UsageError(
    `row ${row}: cannot infer a ClickHouse type for a ${kind} value; wrap it with typedValue()`,
  )
}

/** One type for all elements: Nullable when some are null, Float64 for mixed numbers. */
function commonType(values: readonly unknown[], row: number): string {
  let type: string | undefined
  let nulls = false
  for (const value of values) {
    const element = inferDynamicType(value, row)
    if (element === undefined) nulls = true
    else if (type === undefined || type === element) type = element
    else if ((type === 'Int64' && element === 'Float64') || (type === 'Float64' && element === 'Int64'))
      type = 'Float64'
    else
      throw new UsageError(
        `row ${row}: elements of types ${type} and ${element} in one array; wrap it with typedValue()`,
      )
  }
  if (type === undefined) {
    // ClickHouse types [] as Array(Nothing); until a Nothing codec exists, String stands in.
    const nothing = hasCodec('Nothing') ? 'Nothing' : 'String'
    return nulls ? `Nullable(${nothing})` : nothing
  }
  if (nulls && !notNullable.has(parseTypeCached(type).name)) return `Nullable(${type})`
  return type
}
