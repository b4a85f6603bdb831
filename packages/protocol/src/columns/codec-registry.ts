import { UsageError } from '../errors/usage-error.js'
import { canonicalTypeName } from '../types/type-aliases.js'
import type { TypeNode } from '../types/type-node.js'
import type { CodecContext, CodecFactory, ColumnCodec } from './column-codec.js'
import { compositeCodecs } from './composite-codecs.js'
import { scalarCodecs } from './scalar-codecs.js'

const factories: ReadonlyMap<string, CodecFactory> = new Map([...scalarCodecs, ...compositeCodecs])

/**
 * Makes the codec for a type, resolving aliases (`INT` -> `Int32`, `TEXT` -> `String`)
 * and nested types.
 *
 * @throws {UsageError} for a type clickwire cannot read or write.
 */
export function codecFor(type: TypeNode, context: CodecContext): ColumnCodec {
  const resolve = (inner: TypeNode): ColumnCodec => {
    const name = canonicalTypeName(inner.name)
    const factory = factories.get(name)
    if (!factory) throw new UsageError(`no codec for ClickHouse type ${inner.name}`)
    return factory(name === inner.name ? inner : { ...inner, name }, context, resolve)
  }
  return resolve(type)
}

/** True if clickwire has a codec for this family name (after aliases). */
export function hasCodec(name: string): boolean {
  return factories.has(canonicalTypeName(name))
}
