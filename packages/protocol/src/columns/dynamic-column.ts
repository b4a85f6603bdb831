import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { type TypeNode, typeNode } from '../types/type-node.js'
import { parseTypeCached } from '../types/type-parser.js'
import { inferDynamicType } from '../types/value-type-inference.js'
import type { CodecContext, CodecResolver, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { compareUtf8, hasElements, PlanCache } from './composite-support.js'
import { fixedWidthBytes } from './fixed-width.js'
import { RowBinaryReader } from './row-binary-value.js'
import { scanStringsAt } from './string-blob-column.js'
import { TypedValue } from './typed-value.js'
import { sortAlternatives, type VariantAlternative, variantCodecOf } from './variant-column.js'

/** Dynamic structure serialization versions (SerializationDynamic.h). */
const versionV1 = 1
const versionV2 = 2
const versionFlattened = 3
const sharedVariantName = 'SharedVariant'

/**
 * The shared variant of a Dynamic column: types beyond `max_types`, each value stored as
 * a String holding its binary-encoded type and its RowBinary value. Decoded on access.
 */
class SharedVariantColumn implements Column<unknown> {
  constructor(
    readonly type: TypeNode,
    private readonly bytes: Uint8Array,
    private readonly bounds: Int32Array,
    private readonly rowBinary: RowBinaryReader,
  ) {}

  get length(): number {
    return this.bounds.length >> 1
  }

  get(row: number): unknown {
    const end = this.bounds[2 * row + 1]!
    const reader = new ByteReader(this.bytes, this.bounds[2 * row]!, end)
    const value = this.rowBinary.typedValue(reader)
    if (reader.short || reader.offset !== end)
      throw new ProtocolError(`Dynamic shared variant value of row ${row} is malformed`)
    return value
  }

  values(): unknown[] {
    return Array.from({ length: this.length }, (_, row) => this.get(row))
  }

  storage(): ColumnStorage {
    return { kind: 'values' }
  }
}

function sharedVariantCodec(rowBinary: RowBinaryReader, revision: number): ColumnCodec {
  const type = typeNode(sharedVariantName)
  return {
    type,
    layout: { kind: 'values', type },
    insertShape: 'scalar',
    tsType: () => 'unknown',
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): Column {
      return new SharedVariantColumn(type, reader.bytes, scanStringsAt(reader, rows, revision), rowBinary)
    },
    encodePrefix(): void {},
    encode(_writer: ByteWriter, _input: ColumnInput, rows: number): void {
      if (rows > 0)
        throw new UsageError('clickwire writes every Dynamic type as its own variant, never shared')
    },
  }
}

type Kinds = Uint8Array | Uint16Array | Uint32Array

/** A Dynamic column in the FLATTENED layout: per row an index into the type list (the list's length = NULL). */
export class FlattenedDynamicColumn implements Column<unknown> {
  private cache: unknown[] | undefined

  constructor(
    readonly type: TypeNode,
    /** The type names, in the order the server listed them. */
    readonly typeNames: readonly string[],
    readonly kinds: Kinds,
    readonly positions: Int32Array,
    readonly columns: readonly Column[],
  ) {}

  get length(): number {
    return this.kinds.length
  }

  get(row: number): unknown {
    if (this.cache) return this.cache[row]
    const kind = this.kinds[row]!
    return kind === this.columns.length ? null : this.columns[kind]!.get(this.positions[row]!)
  }

  values(): unknown[] {
    if (this.cache) return this.cache
    const columns = this.columns.map((column) => column.values())
    const out = new Array<unknown>(this.kinds.length)
    for (let row = 0; row < out.length; row++) {
      const kind = this.kinds[row]!
      out[row] = kind === columns.length ? null : columns[kind]![this.positions[row]!]
    }
    this.cache = out
    return out
  }

  storage(): ColumnStorage {
    return { kind: 'values' }
  }
}

type Layout =
  | { readonly kind: 'variant'; readonly codec: ColumnCodec }
  | {
      readonly kind: 'flattened'
      readonly names: string[]
      readonly codecs: ColumnCodec[]
      readonly width: number
    }

interface DynamicPlan {
  names: string[]
  variant: ColumnCodec
  values: unknown[]
}

/**
 * Reads and writes Dynamic. The state prefix names the types present in this block:
 * UInt64 version, then for V1 (what servers send below protocol revision 54473 and in the
 * Native format) a VarUInt that used to be max_types, for V1 and V2 the VarUInt count and
 * the type names, followed by the prefix of the inner Variant of those types plus
 * `SharedVariant` (sorted by name); its data is that Variant. The FLATTENED version
 * (setting `output_format_native_use_flattened_dynamic_and_json_serialization`) lists all
 * types, then per row an index into the list (UInt8/16/32/64 by the list size, the size
 * itself = NULL), then each type's rows. Writing uses V1, which every server reads.
 */
export function dynamicCodec(type: TypeNode, context: CodecContext, codecFor: CodecResolver): ColumnCodec {
  const rowBinary = new RowBinaryReader(codecFor)
  const shared = sharedVariantCodec(rowBinary, context.revision)
  const codecs = new Map<string, ColumnCodec>()
  const variants = new Map<string, ColumnCodec>()
  let layout: Layout | undefined

  const codecOf = (name: string): ColumnCodec => {
    if (name === sharedVariantName) return shared
    let codec = codecs.get(name)
    if (!codec) {
      codec = codecFor(parseTypeCached(name))
      codecs.set(name, codec)
    }
    return codec
  }

  const variantOf = (names: readonly string[]): ColumnCodec => {
    const key = names.join('\u0000')
    let codec = variants.get(key)
    if (!codec) {
      const alternatives: VariantAlternative[] = names.map((name) => ({ name, codec: codecOf(name) }))
      alternatives.push({ name: sharedVariantName, codec: shared })
      codec = variantCodecOf(type, sortAlternatives(alternatives))
      if (variants.size > 256) variants.clear()
      variants.set(key, codec)
    }
    return codec
  }

  const readNames = (reader: ByteReader): string[] | undefined => {
    const count = reader.varUInt()
    if (reader.short || !hasElements(reader, count, 'Dynamic types')) return undefined
    const names: string[] = []
    for (let i = 0; i < count; i++) names.push(reader.string())
    return reader.short ? undefined : names
  }

  const plans = new PlanCache<DynamicPlan>((input) => {
    const rows = input.length
    const values = new Array<unknown>(rows)
    const seen = new Set<string>()
    for (let row = 0; row < rows; row++) {
      const value = input[row]
      const name = inferDynamicType(value, row)
      if (name === undefined) {
        values[row] = null
        continue
      }
      seen.add(name)
      values[row] = new TypedValue(name, value instanceof TypedValue ? value.value : value)
    }
    // ClickHouse lists the types in their sorted (discriminator) order.
    const names = [...seen].sort(compareUtf8)
    return { names, variant: variantOf(names), values }
  })

  return {
    type,
    // Each block names its own types: the values are what a Dynamic column holds.
    layout: { kind: 'values', type },
    insertShape: 'scalar',
    tsType: () => 'unknown',
    decodePrefix(reader: ByteReader): void {
      const version = reader.u64Number('Dynamic serialization version')
      if (reader.short) return
      if (version === versionV1 || version === versionV2) {
        if (version === versionV1) reader.varUInt()
        const names = readNames(reader)
        if (!names) return
        const codec = variantOf(names)
        layout = { kind: 'variant', codec }
        codec.decodePrefix(reader)
      } else if (version === versionFlattened) {
        const names = readNames(reader)
        if (!names) return
        const size = names.length + 1
        const width = size <= 0x100 ? 1 : size <= 0x1_0000 ? 2 : 4
        const list = names.map(codecOf)
        layout = { kind: 'flattened', names, codecs: list, width }
        for (const codec of list) codec.decodePrefix(reader)
      } else throw new ProtocolError(`Dynamic serialization version ${version} is not supported`)
    },
    decode(reader: ByteReader, rows: number): Column {
      // The block reader decodes even after a short prefix; the result is then discarded.
      // A block of no rows (the header block of the native protocol) has no prefix and no data.
      if (reader.short || rows === 0)
        return new FlattenedDynamicColumn(type, [], new Uint8Array(0), new Int32Array(0), [])
      if (!layout) throw new ProtocolError('Dynamic data before its state prefix')
      if (layout.kind === 'variant') return layout.codec.decode(reader, rows)
      const { names, codecs: list, width } = layout
      const bytes = fixedWidthBytes(reader, rows, width)
      if (!bytes) return new FlattenedDynamicColumn(type, names, new Uint8Array(0), new Int32Array(0), [])
      const kinds: Kinds =
        width === 1
          ? new Uint8Array(bytes[0], bytes[1], rows)
          : width === 2
            ? new Uint16Array(bytes[0], bytes[1], rows)
            : new Uint32Array(bytes[0], bytes[1], rows)
      const sizes = new Int32Array(list.length + 1)
      const positions = new Int32Array(rows)
      for (let row = 0; row < rows; row++) {
        const kind = kinds[row]!
        if (kind > list.length)
          throw new ProtocolError(`Dynamic type index ${kind} in row ${row}; ${list.length} types`)
        positions[row] = sizes[kind]!++
      }
      const columns = list.map((codec, index) => codec.decode(reader, sizes[index]!))
      return new FlattenedDynamicColumn(type, names, kinds, positions, columns)
    },
    encodePrefix(writer: ByteWriter, input: ColumnInput): void {
      const plan = plans.get(input)
      writer.u64Number(versionV1)
      writer.varUInt(plan.names.length)
      writer.varUInt(plan.names.length)
      for (const name of plan.names) writer.string(name)
      plan.variant.encodePrefix(writer, plan.values)
    },
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      const plan = plans.take(input)
      plan.variant.encode(writer, plan.values, rows)
    },
  }
}
