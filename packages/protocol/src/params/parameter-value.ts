import { describeValue } from '../columns/column-codec.js'
import { type TypeNode, typeArguments } from '../types/type-node.js'
import { numericParameterHandlers } from './numeric-parameters.js'
import {
  type CompositeParameter,
  nullParameter,
  type ParameterPath,
  type ParameterValue,
  parameterError,
  type ScalarHandler,
} from './parameter-model.js'
import { textParameterHandlers } from './text-parameters.js'
import { timeParameterHandlers } from './time-parameters.js'

const scalarHandlers: ReadonlyMap<string, ScalarHandler> = new Map(
  Object.entries({ ...numericParameterHandlers, ...textParameterHandlers, ...timeParameterHandlers }),
)

function isArrayLike(value: unknown): value is ArrayLike<unknown> {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView))
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

function child(at: ParameterPath, step: string): ParameterPath {
  return { placeholder: at.placeholder, path: `${at.path}${step}` }
}

function arrayValue(
  type: TypeNode,
  element: TypeNode,
  value: unknown,
  at: ParameterPath,
): CompositeParameter {
  if (!isArrayLike(value)) throw parameterError(at, type, value, 'expected an array')
  const items = new Array<ParameterValue>(value.length)
  for (let i = 0; i < value.length; i++) items[i] = toParameterValue(element, value[i], child(at, ` [${i}]`))
  return { kind: 'array', items }
}

function tupleValue(type: TypeNode, value: unknown, at: ParameterPath): CompositeParameter {
  const elements = type.args.filter((arg) => arg.kind === 'type')
  if (isArrayLike(value)) {
    if (value.length !== elements.length)
      throw parameterError(at, type, value, `expected ${elements.length} elements`)
    return {
      kind: 'tuple',
      items: elements.map((arg, i) => toParameterValue(arg.type, value[i], child(at, ` [${i}]`))),
    }
  }
  const named = elements.length > 0 && elements.every((arg) => arg.name !== undefined)
  if (named && isPlainObject(value)) {
    const names = new Set(elements.map((arg) => arg.name!))
    for (const key of Object.keys(value)) {
      if (!names.has(key)) throw parameterError(at, type, value, `no element named "${key}"`)
    }
    return {
      kind: 'tuple',
      items: elements.map((arg) => {
        if (!Object.hasOwn(value, arg.name!))
          throw parameterError(at, type, value, `element "${arg.name}" is missing`)
        return toParameterValue(arg.type, value[arg.name!], child(at, `.${arg.name}`))
      }),
    }
  }
  throw parameterError(at, type, value, named ? 'expected an array or an object' : 'expected an array')
}

function mapValue(type: TypeNode, value: unknown, at: ParameterPath): CompositeParameter {
  const [keyType, valueType] = typeArguments(type)
  if (!keyType || !valueType) throw parameterError(at, type, value, 'Map needs a key and a value type')
  let entries: Iterable<readonly [unknown, unknown]>
  if (value instanceof Map) entries = value.entries()
  else if (isPlainObject(value)) entries = Object.entries(value)
  else throw parameterError(at, type, value, 'expected a Map or an object')
  const items: ParameterValue[] = []
  for (const [key, entry] of entries) {
    const where = child(at, ` [${describeValue(key)}]`)
    items.push(toParameterValue(keyType, key, where), toParameterValue(valueType, entry, where))
  }
  return { kind: 'map', items }
}

/** `Nested(a T, b U)` as a parameter is an array of `Tuple(a T, b U)`. */
export function nestedElementType(type: TypeNode): TypeNode {
  return { name: 'Tuple', args: type.args, parenthesized: true }
}

const unsupported = new Set(['Variant', 'Dynamic', 'JSON', 'Object', 'AggregateFunction', 'BFloat16'])

/**
 * Checks `value` against `type` (canonical, see canonicalParameterType) and reduces it to a
 * {@link ParameterValue}. `undefined` counts as null. Throws a UsageError naming the
 * parameter and the position inside composites when the value does not fit.
 */
export function toParameterValue(type: TypeNode, value: unknown, at: ParameterPath): ParameterValue {
  switch (type.name) {
    case 'Nullable': {
      if (value === null || value === undefined) return nullParameter
      const inner = typeArguments(type)[0]
      if (!inner) throw parameterError(at, type, value, 'Nullable needs a type')
      return toParameterValue(inner, value, at)
    }
    case 'LowCardinality': {
      const inner = typeArguments(type)[0]
      if (!inner) throw parameterError(at, type, value, 'LowCardinality needs a type')
      return toParameterValue(inner, value, at)
    }
    case 'Array': {
      const element = typeArguments(type)[0]
      if (!element) throw parameterError(at, type, value, 'Array needs an element type')
      return arrayValue(type, element, value, at)
    }
    case 'Nested':
      return arrayValue(type, nestedElementType(type), value, at)
    case 'Tuple':
      return tupleValue(type, value, at)
    case 'Map':
      return mapValue(type, value, at)
  }
  if (value === null || value === undefined) {
    throw parameterError(at, type, value, 'only Nullable types take null')
  }
  const handler = scalarHandlers.get(type.name)
  if (handler) return handler(type, value, at)
  if (type.name === 'Nothing')
    throw parameterError(at, type, value, 'Nothing has no values except in Nullable')
  const why = unsupported.has(type.name)
    ? `${type.name} parameters are not supported; pass the value as a String and convert it in SQL`
    : 'unknown type'
  throw parameterError(at, type, value, why)
}
