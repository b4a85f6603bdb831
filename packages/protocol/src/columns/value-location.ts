import { ByteWriter } from '../io/byte-writer.js'
import { innerType, type TypeNode, typeArguments } from '../types/type-node.js'
import type { CodecContext, ColumnCodec, ColumnInput } from './column-codec.js'
import { tupleNames } from './tuple-column.js'

/** Where a value an encoder refused lies: its row in the column, and the path inside it. */
export interface BadValueLocation {
  /** 0-based row in the column the locator was given. */
  readonly row: number
  /** The element path inside the row's value, e.g. `[2]`, `.tags[0]`, `["key"]`; '' at the top. */
  readonly path: string
  /** What the encoder said about the innermost bad value, without its own "row N: " prefix. */
  readonly reason: string
}

const rowPrefix = /^row \d+: /

type Resolve = (type: TypeNode) => ColumnCodec

/** The error encoding `values` alone raises, or undefined when they encode. */
function encodeError(resolve: Resolve, type: TypeNode, values: ColumnInput): unknown {
  try {
    const codec = resolve(type)
    const writer = new ByteWriter(256)
    codec.encodePrefix(writer, values)
    codec.encode(writer, values, values.length)
    return undefined
  } catch (error) {
    return error
  }
}

function isList(value: unknown): value is ArrayLike<unknown> {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView)) || false
}

/** The first element of `value` (a `type` value that fails to encode) that fails by itself, with its path. */
function innerBadValue(
  resolve: Resolve,
  type: TypeNode,
  value: unknown,
): { path: string; error: unknown } | undefined {
  const descend = (elementType: TypeNode, element: unknown, step: string) => {
    const error = encodeError(resolve, elementType, [element])
    if (error === undefined) return undefined
    const deeper = innerBadValue(resolve, elementType, element)
    return deeper ? { path: step + deeper.path, error: deeper.error } : { path: step, error }
  }
  switch (type.name) {
    case 'Nullable':
    case 'LowCardinality': {
      if (value === null || value === undefined) return undefined
      const inner = innerType(type)
      const deeper = innerBadValue(resolve, inner, value)
      if (deeper) return deeper
      const error = encodeError(resolve, inner, [value])
      return error === undefined ? undefined : { path: '', error }
    }
    case 'Array': {
      if (!isList(value)) return undefined
      const inner = innerType(type)
      for (let i = 0; i < value.length; i++) {
        const found = descend(inner, value[i], `[${i}]`)
        if (found) return found
      }
      return undefined
    }
    case 'Nested': {
      if (!isList(value)) return undefined
      const tuple: TypeNode = { name: 'Tuple', args: type.args, parenthesized: true }
      for (let i = 0; i < value.length; i++) {
        const found = descend(tuple, value[i], `[${i}]`)
        if (found) return found
      }
      return undefined
    }
    case 'Tuple': {
      if (value === null || typeof value !== 'object') return undefined
      const names = tupleNames(type)
      const elements = typeArguments(type)
      for (let i = 0; i < elements.length; i++) {
        const list = isList(value)
        if (!list && !names) return undefined
        const element = list
          ? (value as ArrayLike<unknown>)[i]
          : (value as Record<string, unknown>)[names![i]!]
        const found = descend(elements[i]!, element, names ? `.${names[i]}` : `[${i}]`)
        if (found) return found
      }
      return undefined
    }
    case 'Map': {
      const [keyType, itemType] = typeArguments(type)
      if (!keyType || !itemType) return undefined
      let entries: Iterable<readonly [unknown, unknown]>
      if (value instanceof Map) entries = value
      else if (Array.isArray(value))
        entries = value.filter((pair) => Array.isArray(pair) && pair.length === 2)
      else if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value))
        entries = Object.entries(value)
      else return undefined
      for (const [key, item] of entries) {
        const step = `[${typeof key === 'string' ? JSON.stringify(key) : String(key)}]`
        const badKey = descend(keyType, key, `${step} (key)`)
        if (badKey) return badKey
        const found = descend(itemType, item, step)
        if (found) return found
      }
      return undefined
    }
    default:
      return undefined
  }
}

function reasonOf(error: unknown): string {
  const message = (error as Error)?.message ?? String(error)
  return message.replace(rowPrefix, '')
}

/**
 * Finds the value of `input` (the first `rows` values of a `type` column) that an encoder
 * refused, by encoding each row alone into scratch memory and then each element of a
 * composite value alone. Only run after encoding failed, so it may be slow. Undefined when
 * no single value fails by itself (an error that needs several rows to happen).
 */
export function locateBadValue(
  type: TypeNode,
  context: CodecContext,
  codecFor: (type: TypeNode, context: CodecContext) => ColumnCodec,
  input: ColumnInput,
  rows: number,
): BadValueLocation | undefined {
  const made = new Map<TypeNode, ColumnCodec>()
  const resolve: Resolve = (node) => {
    let codec = made.get(node)
    if (!codec) made.set(node, (codec = codecFor(node, context)))
    return codec
  }
  for (let row = 0; row < rows; row++) {
    const value = input[row]
    const error = encodeError(resolve, type, [value])
    if (error === undefined) continue
    const inner = innerBadValue(resolve, type, value)
    return inner
      ? { row, path: inner.path, reason: reasonOf(inner.error) }
      : { row, path: '', reason: reasonOf(error) }
  }
  return undefined
}

/**
 * Nested columns a server sends flattened (`n.a Array(T1)`, `n.b Array(T2)`) must have
 * arrays of one length in each row: returns the first row (within the first `rows`) where
 * the columns named `names` (with their values in `inputs`) differ, with their lengths.
 */
export function unevenNestedRow(
  inputs: readonly ColumnInput[],
  rows: number,
): { row: number; lengths: number[] } | undefined {
  for (let row = 0; row < rows; row++) {
    const first = (inputs[0]![row] as ArrayLike<unknown> | null | undefined)?.length
    for (let i = 1; i < inputs.length; i++) {
      const length = (inputs[i]![row] as ArrayLike<unknown> | null | undefined)?.length
      if (length !== first && typeof length === 'number' && typeof first === 'number')
        return { row, lengths: inputs.map((input) => (input[row] as ArrayLike<unknown> | null)?.length ?? 0) }
    }
  }
  return undefined
}
