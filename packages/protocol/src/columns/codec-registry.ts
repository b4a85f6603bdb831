import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import { canonicalTypeName } from '../types/type-aliases.js'
import { type TypeNode, typeToString } from '../types/type-node.js'
import { defaultValueMapping, type ValueMapping } from '../types/value-mapping.js'
import type { CodecContext, CodecFamily, ColumnCodec } from './column-codec.js'
import { fixedRowWidth } from './column-layout.js'
import { compositeCodecs } from './composite-codecs.js'
import { codecsPending, isRareFamily, loadCodecs, rareCodecs, rareCodecsLoaded } from './rare-codec-loader.js'
import { scalarCodecs } from './scalar-codecs.js'
import { infoParts, SerializationKind, type SerializationKinds } from './serialization-kinds.js'

/** Every family clickwire has a codec for, by canonical name, in the order the docs list them. */
export const codecFamilies: readonly CodecFamily[] = [...scalarCodecs, ...compositeCodecs]

const families: ReadonlyMap<string, CodecFamily> = new Map(
  codecFamilies.map((family) => [family.name, family]),
)

/** The registry entry of a family name (aliases resolved), or undefined. */
export function codecFamily(name: string): CodecFamily | undefined {
  return families.get(canonicalTypeName(name))
}

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
  if (kinds.stack.length <= 1) return codec
  const { sparseCodecOf, replicatedCodecOf } = rareCodecs(`sparse or replicated ${dense.type.name}`)
  for (let i = 1; i < kinds.stack.length; i++) {
    const kind = kinds.stack[i]
    if (kind === SerializationKind.sparse) codec = sparseCodecOf(codec)
    else if (kind === SerializationKind.replicated)
      codec = replicatedCodecOf(dense, codec, codec === dense ? fixedRowWidth(dense.layout) : undefined)
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
    const family = families.get(name)
    if (!family) throw new UsageError(`no codec for ClickHouse type ${inner.name}`)
    const codec = family.create(name === inner.name ? inner : { ...inner, name }, context, resolve)
    const own = assigned.get(inner)
    return own ? withStack(codec, own) : codec
  }
  return resolve(type)
}

/**
 * The load to await before making codecs for `types`, or undefined when every family in
 * them is loaded already (see {@link loadCodecs}): for paths that know their column types
 * before they encode or describe them (inserts, Arrow tables).
 */
export function codecsReady(types: Iterable<TypeNode>): Promise<void> | undefined {
  if (rareCodecsLoaded()) return undefined
  const needs = (type: TypeNode): boolean => {
    const family = families.get(canonicalTypeName(type.name))
    return (
      (family !== undefined && isRareFamily(family)) ||
      type.args.some((arg) => arg.kind === 'type' && needs(arg.type))
    )
  }
  for (const type of types) if (needs(type)) return loadCodecs()
  return undefined
}

/** True if clickwire has a codec for this family name (after aliases). */
export function hasCodec(name: string): boolean {
  return families.has(canonicalTypeName(name))
}

/**
 * The codec of `type` made to read what it declares (TypeScript type, layout, insert shape)
 * rather than to decode, under `mapping`. A part clickwire has no codec for, or whose
 * arguments its codec refuses, becomes a stand-in: `values` layout, TypeScript type
 * `unknown`, and the reason added to `tsType`'s `unsupported`; the rest of the type is
 * still described.
 */
export function describeCodec(type: TypeNode, mapping: ValueMapping = defaultValueMapping): ColumnCodec {
  // Declarations depend on the mapping only; a zone is needed to make DateTime codecs.
  const context: CodecContext = { revision: 0, timezone: 'UTC', mapping }
  const resolve = (inner: TypeNode): ColumnCodec => {
    const name = canonicalTypeName(inner.name)
    const family = families.get(name)
    const unsupported = `ClickHouse type ${typeToString(inner)} is not supported by clickwire`
    if (!family) return standIn(inner, unsupported)
    try {
      return family.create(name === inner.name ? inner : { ...inner, name }, context, resolve)
    } catch (error) {
      // Not a refusal: the family's codec loads on demand (the caller awaits loadCodecs).
      if (codecsPending(error)) throw error
      return standIn(inner, `${unsupported}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return resolve(type)
}

/** A codec that only describes: for a type clickwire cannot read, saying why. */
function standIn(type: TypeNode, reason: string): ColumnCodec {
  const refuse = (): never => {
    throw new UsageError(reason)
  }
  return {
    type,
    layout: { kind: 'values', type },
    insertShape: 'scalar',
    tsType(unsupported?: string[]): string {
      unsupported?.push(reason)
      return 'unknown'
    },
    decodePrefix: refuse,
    decode: refuse,
    encodePrefix: refuse,
    encode: refuse,
  }
}
