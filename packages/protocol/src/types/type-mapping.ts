import { aggregateStateReader } from '../columns/aggregate-state-extent.js'
import { hasCodec } from '../columns/codec-registry.js'
import { canonicalTypeName } from './type-aliases.js'
import { type TypeNode, typeArguments, typeToString } from './type-node.js'
import type { ValueMapping } from './value-mapping.js'

/**
 * The one table from ClickHouse type to JS runtime value and TypeScript type text. The
 * decoders produce exactly these values (see runtime-values in the docs), and codegen
 * prints exactly these types, so generated types cannot disagree with what a query returns.
 */

/** The TypeScript type of a ClickHouse type under a value mapping. */
export interface MappedType {
  /** TypeScript type text, e.g. `string | null`, `Map<string, bigint[]>`. Unsupported parts are `unknown`. */
  readonly tsType: string
  /** One message per part clickwire cannot read or write; empty when the whole type is supported. */
  readonly unsupported: readonly string[]
}

/** Passed to a family's `tsType`: the mapping options and the mapper of nested types. */
export interface TypeMapper {
  readonly mapping: ValueMapping
  readonly unsupported: string[]
  /** TS text of a nested type. */
  map(type: TypeNode): string
}

/** One family of the table. */
export interface TypeFamily {
  /** Canonical family name, as ClickHouse prints it. */
  readonly name: string
  /** What a value of the family becomes in JS, for documentation. */
  readonly runtime: string
  /** TS type text of a value of `type` (a node of this family). */
  tsType(type: TypeNode, mapper: TypeMapper): string
}

const int64Type = (_: TypeNode, m: TypeMapper) => m.mapping.int64
const dateType = (_: TypeNode, m: TypeMapper) => (m.mapping.dates === 'date' ? 'Date' : 'string')
const decimalType = (_: TypeNode, m: TypeMapper) => m.mapping.decimal
const point = '[number, number]'

/** `T[]`, parenthesized when T is a union. */
function arrayOf(element: string): string {
  return isUnion(element) ? `(${element})[]` : `${element}[]`
}

/** True when `text` has a `|` outside brackets, braces and string literals. */
function isUnion(text: string): boolean {
  let depth = 0
  let quote = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quote) {
      if (char === '\\') i++
      else if (char === '"') quote = false
    } else if (char === '"') quote = true
    else if (char === '(' || char === '[' || char === '{' || char === '<') depth++
    else if (char === ')' || char === ']' || char === '}' || char === '>') depth--
    else if (char === '|' && depth === 0) return true
  }
  return false
}

/** A union of members, each once, `null` last. */
function unionOf(members: readonly string[]): string {
  const seen = new Set<string>()
  let hasNull = false
  for (const member of members) {
    for (const part of splitUnion(member)) {
      if (part === 'null') hasNull = true
      else seen.add(part)
    }
  }
  const parts = [...seen]
  if (hasNull) parts.push('null')
  return parts.length === 0 ? 'never' : parts.join(' | ')
}

function splitUnion(text: string): string[] {
  if (!isUnion(text)) return [text]
  const parts: string[] = []
  let depth = 0
  let quote = false
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quote) {
      if (char === '\\') i++
      else if (char === '"') quote = false
    } else if (char === '"') quote = true
    else if (char === '(' || char === '[' || char === '{' || char === '<') depth++
    else if (char === ')' || char === ']' || char === '}' || char === '>') depth--
    else if (char === '|' && depth === 0) {
      parts.push(text.slice(start, i).trim())
      start = i + 1
    }
  }
  parts.push(text.slice(start).trim())
  return parts
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** An object key as TypeScript accepts it: bare when an identifier, else a string literal. */
export function tsPropertyKey(name: string): string {
  return identifier.test(name) ? name : JSON.stringify(name)
}

/** `{ a: A; 'b c': B }` of named elements. */
function objectOf(type: TypeNode, mapper: TypeMapper): string {
  const fields: string[] = []
  for (const arg of type.args) {
    if (arg.kind === 'type') fields.push(`${tsPropertyKey(arg.name ?? '')}: ${mapper.map(arg.type)}`)
  }
  return fields.length === 0 ? '{}' : `{ ${fields.join('; ')} }`
}

function isNamedTuple(type: TypeNode): boolean {
  const elements = type.args.filter((arg) => arg.kind === 'type')
  return elements.length > 0 && elements.every((arg) => arg.kind === 'type' && arg.name !== undefined)
}

function family(name: string, runtime: string, tsType: TypeFamily['tsType']): TypeFamily {
  return { name, runtime, tsType }
}

const numberFamilies = [
  'Int8',
  'Int16',
  'Int32',
  'UInt8',
  'UInt16',
  'UInt32',
  'Float32',
  'Float64',
  'BFloat16',
]
const wideFamilies = ['Int64', 'UInt64', 'Int128', 'UInt128', 'Int256', 'UInt256']
const intervalFamilies = [
  'IntervalNanosecond',
  'IntervalMicrosecond',
  'IntervalMillisecond',
  'IntervalSecond',
  'IntervalMinute',
  'IntervalHour',
  'IntervalDay',
  'IntervalWeek',
  'IntervalMonth',
  'IntervalQuarter',
  'IntervalYear',
]

/** Every family clickwire knows, by canonical name. */
const table: readonly TypeFamily[] = [
  ...numberFamilies.map((name) => family(name, 'number', () => 'number')),
  ...[...wideFamilies, ...intervalFamilies].map((name) =>
    family(name, 'bigint, number or decimal string, per the int64 option', int64Type),
  ),
  family('Bool', 'boolean', () => 'boolean'),
  family('String', 'string (UTF-8; invalid bytes become U+FFFD)', () => 'string'),
  family('FixedString', 'string of all N bytes, trailing NULs kept', () => 'string'),
  ...['Date', 'Date32'].map((name) =>
    family(name, "'YYYY-MM-DD', or a Date at UTC midnight with dates: 'date'", dateType),
  ),
  ...['DateTime', 'DateTime32'].map((name) =>
    family(name, "'YYYY-MM-DD hh:mm:ss' on the column's clock, or a Date with dates: 'date'", dateType),
  ),
  family(
    'DateTime64',
    "'YYYY-MM-DD hh:mm:ss.fff' with exactly p digits, or a Date (ms) with dates: 'date'",
    dateType,
  ),
  family('Time', "'[-]hh:mm:ss' as ClickHouse prints it", () => 'string'),
  family('Time64', "'[-]hh:mm:ss.fff' as ClickHouse prints it", () => 'string'),
  ...['Decimal', 'Decimal32', 'Decimal64', 'Decimal128', 'Decimal256'].map((name) =>
    family(name, "exact text with S fraction digits, or a number with decimal: 'number'", decimalType),
  ),
  family('UUID', "lowercase 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'", () => 'string'),
  family('IPv4', "'1.2.3.4'", () => 'string'),
  family('IPv6', "compressed text, IPv4-mapped as '::ffff:1.2.3.4'", () => 'string'),
  ...['Enum8', 'Enum16', 'Enum'].map((name) =>
    family(name, 'the element name', (type) => {
      const names = type.args.flatMap((arg) => (arg.kind === 'enum' ? [JSON.stringify(arg.name)] : []))
      return names.length === 0 ? 'string' : unionOf(names)
    }),
  ),
  family('Nothing', 'null', () => 'null'),
  family('AggregateFunction', 'Uint8Array holding one serialized state (opaque)', (type, mapper) => {
    const reader = aggregateStateReader(type)
    if (typeof reader === 'string') {
      mapper.unsupported.push(reader)
      return 'unknown'
    }
    return 'Uint8Array'
  }),
  family('SimpleAggregateFunction', 'as its value type', (type, mapper) =>
    mapper.map(typeArguments(type)[0] ?? type),
  ),
  family('Nullable', 'the inner value or null', (type, mapper) =>
    unionOf([mapper.map(typeArguments(type)[0] ?? type), 'null']),
  ),
  family('LowCardinality', 'as its inner type', (type, mapper) => mapper.map(typeArguments(type)[0] ?? type)),
  family('Array', 'a JS array', (type, mapper) => arrayOf(mapper.map(typeArguments(type)[0] ?? type))),
  family('Map', 'a JS Map, entries in wire order', (type, mapper) => {
    const [key, value] = typeArguments(type)
    return `Map<${key ? mapper.map(key) : 'unknown'}, ${value ? mapper.map(value) : 'unknown'}>`
  }),
  family('Tuple', 'an array [a, b], or a plain object when the elements are named', (type, mapper) =>
    isNamedTuple(type)
      ? objectOf(type, mapper)
      : `[${typeArguments(type)
          .map((t) => mapper.map(t))
          .join(', ')}]`,
  ),
  family('Nested', 'an array of plain objects', (type, mapper) => arrayOf(objectOf(type, mapper))),
  family('Variant', 'the value of the present alternative, or null', (type, mapper) =>
    unionOf([...typeArguments(type).map((t) => mapper.map(t)), 'null']),
  ),
  family('Dynamic', 'the value decoded by its actual type, or null', () => 'unknown'),
  family('JSON', 'a plain object; dotted paths nest', () => 'Record<string, unknown>'),
  family('Object', "a plain object (Object('json'))", () => 'Record<string, unknown>'),
  family('Point', '[x, y]', () => point),
  family('Ring', 'an array of points', () => arrayOf(point)),
  family('LineString', 'an array of points', () => arrayOf(point)),
  family('Polygon', 'an array of rings', () => arrayOf(arrayOf(point))),
  family('MultiLineString', 'an array of line strings', () => arrayOf(arrayOf(point))),
  family('MultiPolygon', 'an array of polygons', () => arrayOf(arrayOf(arrayOf(point)))),
  family('Geometry', 'the present shape (a point or arrays of points), or null', () =>
    unionOf([point, arrayOf(point), arrayOf(arrayOf(point)), arrayOf(arrayOf(arrayOf(point))), 'null']),
  ),
  family('QBit', 'an array of numbers (the vector)', () => 'number[]'),
]

const byName: ReadonlyMap<string, TypeFamily> = new Map(table.map((entry) => [entry.name, entry]))

/**
 * Canonical names of the ClickHouse type families clickwire knows: the table's families
 * that have a codec (the table also lists `Object`, for `Object('json')`, which counts
 * once its codec exists).
 */
export const typeFamilies: readonly string[] = table
  .map((entry) => entry.name)
  .filter((name) => hasCodec(name))

/** The table entry of a family name (aliases resolved), or undefined. */
export function typeFamily(name: string): TypeFamily | undefined {
  return byName.get(canonicalTypeName(name))
}

/**
 * The TypeScript type of the JS values a query returns for `type`, and what of it
 * clickwire cannot read. A family without a codec, or an AggregateFunction whose states
 * clickwire cannot delimit, becomes `unknown` and adds a message to `unsupported`, so
 * codegen can warn instead of promising values the client would fail to read.
 *
 * @example
 * ```ts
 * mapType(parseType('Array(Nullable(Decimal(9, 2)))'), defaultValueMapping).tsType // '(string | null)[]'
 * ```
 */
export function mapType(type: TypeNode, mapping: ValueMapping): MappedType {
  const unsupported: string[] = []
  const mapper: TypeMapper = {
    mapping,
    unsupported,
    map(node: TypeNode): string {
      const name = canonicalTypeName(node.name)
      const entry = byName.get(name)
      if (!entry || !hasCodec(name)) {
        unsupported.push(`ClickHouse type ${typeToString(node)} is not supported by clickwire`)
        return 'unknown'
      }
      return entry.tsType(name === node.name ? node : { ...node, name }, mapper)
    },
  }
  const tsType = mapper.map(type)
  return { tsType, unsupported }
}

/** TypeScript type text of the values of `type` (see {@link mapType}); unsupported parts are `unknown`. */
export function tsTypeOf(type: TypeNode, mapping: ValueMapping): string {
  return mapType(type, mapping).tsType
}

/** True when clickwire can read and write every part of `type`. */
export function isSupportedType(type: TypeNode): boolean {
  return mapType(type, { int64: 'bigint', dates: 'string', decimal: 'string' }).unsupported.length === 0
}
