/**
 * The oracle of the modern-types test: the server's own JSONEachRow rendering, fetched over
 * plain HTTP (never through clickwire), and the JS value clickwire's documented mapping
 * (protocol/src/types/type-mapping.ts, default value mapping) gives for each rendered value.
 */
import {
  canonicalTypeName,
  parseType,
  type TypeNode,
  typeArg,
  typeArguments,
  typeNode,
} from '@clickwire/protocol'
import { expect } from 'vitest'
import { type JsonNode, JsonNumber, JsonObject, parseLossless } from './lossless-json.js'
import { server } from './transports.js'

/**
 * How the server renders values for the oracle: numbers unquoted (the lossless parser keeps
 * their digits), inf/nan as strings, named tuples as objects.
 */
export const renderSettings: Record<string, string> = {
  output_format_json_quote_64bit_integers: '0',
  output_format_json_quote_decimals: '0',
  output_format_json_quote_denormals: '1',
  output_format_json_named_tuples_as_objects: '1',
  output_format_json_quote_64bit_floats: '0',
}

/** Runs SQL on the shared server over plain HTTP and returns the body; throws on an error. */
export async function serverRun(sql: string, settings: Record<string, string> = {}): Promise<string> {
  const url = new URL(server.httpUrl)
  for (const [name, value] of Object.entries(settings)) url.searchParams.set(name, value)
  const response = await fetch(url, { method: 'POST', body: sql })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`server: ${text.trim()} (in: ${sql.slice(0, 300)})`)
  return text
}

/** The JSONEachRow lines of a query, as the server printed them. */
export async function serverLines(sql: string): Promise<string[]> {
  const text = await serverRun(`${sql} FORMAT JSONEachRow`, renderSettings)
  return text.split('\n').filter((line) => line !== '')
}

function family(type: TypeNode): string {
  return canonicalTypeName(type.name)
}

const hinted = new Set(['Variant', 'Dynamic', 'JSON', 'Geometry', 'AggregateFunction', 'QBit'])

/** True when values of `type` need the server to say more than their text (a type, the bytes). */
export function needsHint(type: TypeNode): boolean {
  return hinted.has(family(type)) || typeArguments(type).some(needsHint)
}

/**
 * SQL that makes the server say what the text of `expr` cannot: the type of a Variant or
 * Dynamic value, the path types of a JSON object, the bytes of an aggregate state.
 */
export function hintExpr(type: TypeNode, expr: string): string {
  switch (family(type)) {
    case 'Variant':
    case 'Geometry':
      return `variantType(${expr})`
    case 'Dynamic':
      return `dynamicType(${expr})`
    case 'JSON':
      return `JSONAllPathsWithTypes(${expr})`
    case 'AggregateFunction':
      return `hex(${expr})`
    case 'Array':
      return needsHint(type) ? `arrayMap(x -> ${hintExpr(typeArguments(type)[0]!, 'x')}, ${expr})` : 'NULL'
    case 'Tuple': {
      if (!needsHint(type)) return 'NULL'
      const hints = typeArguments(type).map((element, i) =>
        hintExpr(element, `tupleElement(${expr}, ${i + 1})`),
      )
      return `tuple(${hints.join(', ')})`
    }
    default:
      return 'NULL'
  }
}

const intFamilies = new Set(['Int8', 'Int16', 'Int32', 'UInt8', 'UInt16', 'UInt32'])
const bigFamilies = new Set(['Int64', 'UInt64', 'Int128', 'UInt128', 'Int256', 'UInt256'])
const textFamilies = new Set([
  'String',
  'FixedString',
  'Date',
  'Date32',
  'DateTime',
  'DateTime32',
  'DateTime64',
  'Time',
  'Time64',
  'UUID',
  'IPv4',
  'IPv6',
  'Enum8',
  'Enum16',
  'Enum',
])
const pointArrays: Record<string, string> = {
  Ring: 'Array(Point)',
  LineString: 'Array(Point)',
  Polygon: 'Array(Ring)',
  MultiLineString: 'Array(LineString)',
  MultiPolygon: 'Array(Polygon)',
}

function numberOf(node: JsonNode): number {
  if (node instanceof JsonNumber)
    return /^-?(inf|nan)$/.test(node.text) ? numberOf(node.text) : Number(node.text)
  if (node === 'inf' || node === '+inf') return Number.POSITIVE_INFINITY
  if (node === '-inf') return Number.NEGATIVE_INFINITY
  if (node === 'nan' || node === '-nan') return Number.NaN
  throw new Error(`not a number: ${JSON.stringify(node)}`)
}

/** The bfloat16 nearest to x (round half to even), as clickwire's BFloat16 decodes it. */
function bfloat16Of(x: number): number {
  const view = new DataView(new ArrayBuffer(4))
  view.setFloat32(0, x)
  if (Number.isNaN(x)) return Number.NaN
  const bits = view.getUint32(0)
  const rounded = (bits + 0x7fff + ((bits >>> 16) & 1)) & 0xffff0000
  view.setUint32(0, rounded >>> 0)
  return view.getFloat32(0)
}

/** Decimal text with exactly `scale` fraction digits, from the server's shortest text. */
function decimalText(text: string, scale: number): string {
  const [whole, fraction = ''] = text.split('.')
  return scale === 0 ? whole! : `${whole}.${fraction.padEnd(scale, '0')}`
}

function decimalScale(type: TypeNode): number {
  const numbers = type.args.flatMap((arg) => (arg.kind === 'number' ? [arg.value] : []))
  return family(type) === 'Decimal' ? (numbers[1] ?? 0) : numbers[0]!
}

/** A Map key as the JSON object printed it, typed like the key type's values. */
function keyNode(type: TypeNode, key: string): JsonNode {
  const name = family(type)
  const inner = name === 'LowCardinality' || name === 'Nullable' ? family(typeArguments(type)[0]!) : name
  return intFamilies.has(inner) ||
    bigFamilies.has(inner) ||
    inner.startsWith('Float') ||
    inner.startsWith('Decimal')
    ? new JsonNumber(key)
    : key
}

/** The typed paths a JSON type declares, by path. */
function typedPaths(type: TypeNode | undefined): Map<string, TypeNode> {
  const out = new Map<string, TypeNode>()
  for (const arg of type?.args ?? [])
    if (arg.kind === 'type' && arg.name !== undefined) out.set(arg.name, arg.type)
  return out
}

/** A value of a JSON column or path with no type said: what a JSON object's inference gives. */
function untyped(node: JsonNode): unknown {
  if (node instanceof JsonNumber) return /^-?\d+$/.test(node.text) ? BigInt(node.text) : Number(node.text)
  if (node instanceof JsonObject) return jsonObject(node, undefined)
  if (Array.isArray(node)) return node.map(untyped)
  return node
}

/** Puts `value` at a dotted path of nested plain objects. */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.')
  let node = target
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {}
    node = node[key] as Record<string, unknown>
  }
  node[keys[keys.length - 1]!] = value
}

/** The node at a dotted path of the server's nested object, or undefined. */
function getPath(object: JsonObject, path: string): JsonNode | undefined {
  let node: JsonNode | undefined = object
  for (const key of path.split('.')) {
    if (!(node instanceof JsonObject)) return undefined
    node = node.get(key)
  }
  return node
}

/** A JSON object: each path at its type when the server said it (JSONAllPathsWithTypes). */
function jsonObject(node: JsonNode, hint: JsonNode | undefined, type?: TypeNode): Record<string, unknown> {
  if (!(node instanceof JsonObject)) throw new Error(`JSON value is not an object: ${JSON.stringify(node)}`)
  if (!(hint instanceof JsonObject)) {
    // No path types said (a JSON inside an array): typed paths at their type, the rest inferred.
    const out: Record<string, unknown> = {}
    const typed = typedPaths(type)
    for (const [path, pathType] of typed) {
      const value = getPath(node, path)
      if (value !== undefined) setPath(out, path, expectedValue(pathType, value))
    }
    const walk = (object: JsonObject, prefix: string) => {
      for (const [key, value] of object.entries) {
        const path = prefix + key
        if (typed.has(path)) continue
        if (value instanceof JsonObject && [...typed.keys()].some((p) => p.startsWith(`${path}.`)))
          walk(value, `${path}.`)
        else setPath(out, path, untyped(value))
      }
    }
    walk(node, '')
    return out
  }
  const out: Record<string, unknown> = {}
  for (const [path, typeName] of hint.entries) {
    const value = getPath(node, path)
    if (value === undefined) throw new Error(`path ${path} missing in the rendering`)
    setPath(out, path, expectedValue(parseType(typeName as string), value))
  }
  return out
}

/**
 * The JS value clickwire must give for a value of `type` the server rendered as `node`,
 * under the default value mapping. `hint` is the row's {@link hintExpr} result.
 */
export function expectedValue(type: TypeNode, node: JsonNode, hint?: JsonNode): unknown {
  const name = family(type)
  const args = typeArguments(type)
  if (name === 'Nullable') return node === null ? null : expectedValue(args[0]!, node, hint)
  if (name === 'LowCardinality' || name === 'SimpleAggregateFunction')
    return expectedValue(args[args.length - 1]!, node, hint)
  if (name === 'Nothing') return null
  if (intFamilies.has(name) || name === 'Float64') return numberOf(node)
  if (name === 'Float32') return Math.fround(numberOf(node))
  if (name === 'BFloat16') return bfloat16Of(numberOf(node))
  if (bigFamilies.has(name) || name.startsWith('Interval'))
    return BigInt(node instanceof JsonNumber ? node.text : (node as string))
  if (name.startsWith('Decimal')) return decimalText((node as JsonNumber).text, decimalScale(type))
  if (name === 'Bool') return node as boolean
  if (textFamilies.has(name)) return node as string
  if (name === 'Point') return (node as JsonNode[]).map(numberOf)
  if (pointArrays[name]) return expectedValue(parseType(pointArrays[name]), node)
  if (name === 'QBit') {
    const element = args[0]!
    return (node as JsonNode[]).map((item) => expectedValue(element, item))
  }
  if (name === 'Array') {
    const hints = Array.isArray(hint) ? hint : []
    return (node as JsonNode[]).map((item, i) => expectedValue(args[0]!, item, hints[i]))
  }
  if (name === 'Nested') return expectedValue(typeNode('Array', [typeArg({ ...type, name: 'Tuple' })]), node)
  if (name === 'Tuple') {
    const named = type.args.filter((arg) => arg.kind === 'type')
    const hints = Array.isArray(hint) ? hint : []
    if (named.every((arg) => arg.kind === 'type' && arg.name !== undefined) && named.length > 0) {
      let index = 0
      const out: Record<string, unknown> = {}
      for (const arg of named) {
        if (arg.kind !== 'type') continue
        out[arg.name!] = expectedValue(arg.type, (node as JsonObject).get(arg.name!)!, hints[index++])
      }
      return out
    }
    return (node as JsonNode[]).map((item, i) => expectedValue(args[i]!, item, hints[i]))
  }
  if (name === 'Map') {
    const [key, value] = args as [TypeNode, TypeNode]
    return new Map(
      (node as JsonObject).entries.map(([k, v]) => [
        expectedValue(key, keyNode(key, k)),
        expectedValue(value, v),
      ]),
    )
  }
  if (name === 'Variant' || name === 'Dynamic' || name === 'Geometry') {
    if (hint === null || hint === 'None') return null
    if (typeof hint !== 'string') throw new Error(`no type for a ${name} value`)
    return expectedValue(parseType(hint), node)
  }
  if (name === 'JSON') return jsonObject(node, hint, type)
  if (name === 'AggregateFunction') {
    expect(typeof hint).toBe('string')
    return Uint8Array.from(Buffer.from(hint as string, 'hex'))
  }
  throw new Error(`the oracle does not know ${name}`)
}

/** Parses each rendered line of `{"v": ..., "h": ...}`. */
export function parseRow(line: string): { v: JsonNode; h: JsonNode | undefined } {
  const object = parseLossless(line)
  if (!(object instanceof JsonObject)) throw new Error(`not an object: ${line}`)
  return { v: object.get('v')!, h: object.get('h') }
}
