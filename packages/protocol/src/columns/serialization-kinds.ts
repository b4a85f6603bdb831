import { ProtocolError } from '../errors/protocol-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import { canonicalTypeName } from '../types/type-aliases.js'
import type { TypeNode } from '../types/type-node.js'

/** ISerialization::Kind: how one level of a column is laid out. */
export const SerializationKind = { default: 0, sparse: 1, detached: 2, replicated: 3 } as const

export type SerializationKindValue = (typeof SerializationKind)[keyof typeof SerializationKind]

/**
 * The serialization kinds of one column as the server announced them: its own kind stack
 * (innermost first, always starting with DEFAULT) and, for types whose SerializationInfo has
 * parts (Tuple elements, the inner type of Nullable), the kinds of each part.
 */
export interface SerializationKinds {
  readonly stack: readonly SerializationKindValue[]
  readonly parts: readonly SerializationKinds[]
}

/** The one-byte stack codes of SerializationInfo.cpp (KindStackBinarySerializationType). */
const stackCodes: readonly (readonly SerializationKindValue[])[] = [
  [SerializationKind.default],
  [SerializationKind.default, SerializationKind.sparse],
  [SerializationKind.default, SerializationKind.detached],
  [SerializationKind.default, SerializationKind.sparse, SerializationKind.detached],
  [SerializationKind.default, SerializationKind.replicated],
]
const combinationCode = 5

/** The parts of a type's SerializationInfo, in the order the server writes their kinds. */
export function infoParts(type: TypeNode): TypeNode[] {
  const name = canonicalTypeName(type.name)
  // SerializationInfoTuple / SerializationInfoNullable; every other type has a plain info.
  if (name === 'Tuple' || name === 'Nullable')
    return type.args.flatMap((arg) => (arg.kind === 'type' ? [arg.type] : []))
  return []
}

function readStack(reader: ByteReader): SerializationKindValue[] | undefined {
  const code = reader.u8()
  if (reader.short) return undefined
  const known = stackCodes[code]
  if (known) return [...known]
  if (code !== combinationCode) throw new ProtocolError(`unknown serialization kind stack ${code}`)
  const count = reader.varUInt()
  if (reader.short) return undefined
  if (count > 16) throw new ProtocolError(`serialization kind stack of ${count} kinds`)
  const stack: SerializationKindValue[] = []
  for (let i = 0; i < count; i++) {
    const kind = reader.u8()
    if (reader.short) return undefined
    if (kind > SerializationKind.replicated) throw new ProtocolError(`unknown serialization kind ${kind}`)
    stack.push(kind as SerializationKindValue)
  }
  return stack
}

/**
 * Reads the kinds that follow a `has_custom` byte of 1 (NativeReader: `deserializeFromKindsBinary`):
 * the column's own stack, then recursively the kinds of each part. Returns undefined when
 * the input is short.
 */
export function readSerializationKinds(reader: ByteReader, type: TypeNode): SerializationKinds | undefined {
  const stack = readStack(reader)
  if (!stack) return undefined
  const parts: SerializationKinds[] = []
  for (const part of infoParts(type)) {
    const kinds = readSerializationKinds(reader, part)
    if (!kinds) return undefined
    parts.push(kinds)
  }
  return { stack, parts }
}

/** True when neither the column nor any part of it uses anything but the default layout. */
export function isDefaultKinds(kinds: SerializationKinds): boolean {
  return kinds.stack.every((kind) => kind === SerializationKind.default) && kinds.parts.every(isDefaultKinds)
}

/** A short stable text of the kinds, to tell apart codecs made for different layouts. */
export function kindsKey(kinds: SerializationKinds): string {
  const own = kinds.stack.join('')
  return kinds.parts.length === 0 ? own : `${own}(${kinds.parts.map(kindsKey).join(',')})`
}
