import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import { canonicalTypeName } from '../types/type-aliases.js'
import type { TypeNode } from '../types/type-node.js'
import type { CodecContext, CodecFactory, ColumnCodec } from './column-codec.js'
import { compositeCodecs } from './composite-codecs.js'
import { replicatedCodecOf } from './replicated-column.js'
import { scalarCodecs } from './scalar-codecs.js'
import { infoParts, SerializationKind, type SerializationKinds } from './serialization-kinds.js'
import { sparseCodecOf, valueWidth } from './sparse-column.js'

const factories: ReadonlyMap<string, CodecFactory> = new Map([...scalarCodecs, ...compositeCodecs])

/** Binds each node of a type tree to the kinds the server announced for it. */
function assignKinds(
  type: TypeNode,
  kinds: SerializationKinds,
  out: Map<TypeNode, SerializationKinds>,
): void {
  out.set(type, kinds)
  const parts = infoParts(type)
  if (parts.length !== kinds.parts.length)
    throw new ProtocolError(
      `${kinds.parts.length} serialization kinds for the ${parts.length} parts of ${type.name}`,
    )
  for (let i = 0; i < parts.length; i++) assignKinds(parts[i]!, kinds.parts[i]!, out)
}

/** Wraps a type's dense codec in the layouts its kind stack names, innermost first. */
function withStack(dense: ColumnCodec, kinds: SerializationKinds): ColumnCodec {
  let codec = dense
  for (let i = 1; i < kinds.stack.length; i++) {
    const kind = kinds.stack[i]
    if (kind === SerializationKind.sparse) codec = sparseCodecOf(codec)
    else if (kind === SerializationKind.replicated)
      codec = replicatedCodecOf(dense, codec, codec === dense ? valueWidth(dense.type) : undefined)
    else if (kind !== SerializationKind.default)
      throw new ProtocolError(`serialization kind ${kind} of ${dense.type.name} is not supported`)
  }
  return codec
}

/**
 * Makes the codec for a type, resolving aliases (`INT` -> `Int32`, `TEXT` -> `String`)
 * and nested types. `kinds`, read from a Native block (revision >= 54454), selects the
 * sparse or replicated layouts of the column and of its Tuple elements or Nullable inner type.
 *
 * @throws {UsageError} for a type clickwire cannot read or write.
 */
export function codecFor(type: TypeNode, context: CodecContext, kinds?: SerializationKinds): ColumnCodec {
  const assigned = new Map<TypeNode, SerializationKinds>()
  if (kinds) assignKinds(type, kinds, assigned)
  const resolve = (inner: TypeNode): ColumnCodec => {
    const name = canonicalTypeName(inner.name)
    const factory = factories.get(name)
    if (!factory) throw new UsageError(`no codec for ClickHouse type ${inner.name}`)
    const codec = factory(name === inner.name ? inner : { ...inner, name }, context, resolve)
    const own = assigned.get(inner)
    return own ? withStack(codec, own) : codec
  }
  return resolve(type)
}

/** True if clickwire has a codec for this family name (after aliases). */
export function hasCodec(name: string): boolean {
  return factories.has(canonicalTypeName(name))
}
