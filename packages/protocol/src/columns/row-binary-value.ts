import { ProtocolError } from '../errors/protocol-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import { canonicalTypeText } from '../types/type-aliases.js'
import { type TypeNode, typeArguments, typeToString } from '../types/type-node.js'
import { parseTypeCached } from '../types/type-parser.js'
import { readBinaryType } from './binary-type-decoding.js'
import type { CodecResolver, ColumnCodec } from './column-codec.js'
import { compareUtf8 } from './composite-support.js'
import { setPath } from './json-paths.js'
import { tupleNames } from './tuple-column.js'

const maxDepth = 64

/**
 * Reads single values in ClickHouse's RowBinary layout, which is how Dynamic's shared
 * variant and JSON's shared data store each value (after its binary-encoded type).
 * Composites differ from Native (an Array is a VarUInt size then its elements, a Nullable
 * a flag byte then the value); other types are one row of their Native column.
 */
export class RowBinaryReader {
  private readonly codecs = new Map<string, ColumnCodec>()

  constructor(private readonly resolve: CodecResolver) {}

  /** A binary-encoded type, then a value of it (`Nothing` is NULL). */
  typedValue(reader: ByteReader): unknown {
    const type = readBinaryType(reader)
    if (reader.short) return undefined
    if (type === 'Nothing') return null
    return this.value(reader, parseTypeCached(type))
  }

  /** One value of `type`. The result is meaningless when `reader.missing` was set. */
  value(reader: ByteReader, type: TypeNode, depth = 0): unknown {
    if (depth > maxDepth) throw new ProtocolError('RowBinary value nested too deeply')
    const next = depth + 1
    switch (type.name) {
      case 'String':
        return reader.string()
      case 'Nullable':
        return reader.u8() !== 0 ? null : this.value(reader, typeArguments(type)[0]!, next)
      case 'LowCardinality':
      case 'SimpleAggregateFunction':
        return this.value(reader, typeArguments(type)[0]!, next)
      case 'Array': {
        const size = this.size(reader)
        const element = typeArguments(type)[0]!
        const out: unknown[] = []
        for (let i = 0; i < size && !reader.short; i++) out.push(this.value(reader, element, next))
        return out
      }
      case 'Map': {
        const [key, item] = typeArguments(type)
        const size = this.size(reader)
        const out = new Map<unknown, unknown>()
        for (let i = 0; i < size && !reader.short; i++)
          out.set(this.value(reader, key!, next), this.value(reader, item!, next))
        return out
      }
      case 'Tuple': {
        const elements = typeArguments(type)
        const values = elements.map((element) => this.value(reader, element, next))
        const names = tupleNames(type)
        if (!names) return values
        const out: Record<string, unknown> = {}
        for (let i = 0; i < names.length; i++)
          Object.defineProperty(out, names[i]!, {
            value: values[i],
            enumerable: true,
            writable: true,
            configurable: true,
          })
        return out
      }
      case 'Nested': {
        const size = this.size(reader)
        const tuple = { ...type, name: 'Tuple' }
        const out: unknown[] = []
        for (let i = 0; i < size && !reader.short; i++) out.push(this.value(reader, tuple, next))
        return out
      }
      case 'Variant': {
        const discriminator = reader.u8()
        if (discriminator === 255 || reader.short) return null
        const sorted = typeArguments(type)
          .map((node) => ({ node, name: canonicalTypeText(node) }))
          .sort((a, b) => compareUtf8(a.name, b.name))
        const chosen = sorted[discriminator]
        if (!chosen) throw new ProtocolError(`RowBinary Variant discriminator ${discriminator} out of range`)
        return this.value(reader, chosen.node, next)
      }
      case 'Dynamic':
        return this.typedValue(reader)
      case 'QBit': {
        // RowBinary writes a QBit as its vector: a VarUInt size, then the elements.
        const size = this.size(reader)
        const element = typeArguments(type)[0]!
        const out: unknown[] = []
        for (let i = 0; i < size && !reader.short; i++) out.push(this.value(reader, element, next))
        return out
      }
      case 'JSON':
        return this.json(reader, type, next)
      case 'Object':
        throw new ProtocolError("Object('json') values inside Dynamic or JSON shared data are not supported")
    }
    const codec = this.codec(type)
    const column = codec.decode(reader, 1)
    return reader.short ? undefined : column.get(0)
  }

  /**
   * A JSON value: a VarUInt count of paths, then each path and its value, in the typed
   * path's own layout when the type declares the path, else as a Dynamic value.
   */
  private json(reader: ByteReader, type: TypeNode, depth: number): Record<string, unknown> {
    const typed = new Map<string, TypeNode>()
    for (const arg of type.args)
      if (arg.kind === 'type' && arg.name !== undefined) typed.set(arg.name, arg.type)
    const size = this.size(reader)
    const out: Record<string, unknown> = {}
    for (let i = 0; i < size && !reader.short; i++) {
      const path = reader.string()
      const pathType = typed.get(path)
      const value = pathType ? this.value(reader, pathType, depth) : this.typedValue(reader)
      // Like the JSON column: a typed path is always shown, an absent dynamic one never.
      if (pathType || value !== null) setPath(out, path, value)
    }
    return out
  }

  private size(reader: ByteReader): number {
    const size = reader.varUInt()
    // Every element takes a byte at least: a larger count cannot be in the input.
    if (size > reader.limit - reader.offset && !reader.short) reader.need(reader.offset + size)
    return reader.short ? 0 : size
  }

  private codec(type: TypeNode): ColumnCodec {
    const key = typeToString(type)
    let codec = this.codecs.get(key)
    if (!codec) {
      codec = this.resolve(type)
      this.codecs.set(key, codec)
    }
    return codec
  }
}
