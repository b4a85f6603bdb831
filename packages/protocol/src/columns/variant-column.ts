import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import { ByteWriter } from '../io/byte-writer.js'
import { unionOf } from '../types/ts-type-text.js'
import { canonicalTypeText } from '../types/type-aliases.js'
import { type TypeNode, typeArguments } from '../types/type-node.js'
import { parseTypeCached } from '../types/type-parser.js'
import type { CodecContext, CodecResolver, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { compareUtf8, describeValueKind, PlanCache } from './composite-support.js'
import { TypedValue } from './typed-value.js'

/** The discriminator of a NULL row. */
export const nullDiscriminator = 255
const basicMode = 0
const compactMode = 1
const compactGranule = 1

/**
 * A decoded Variant column: a discriminator per row (255 = NULL) and one column per
 * alternative holding only its own rows, in row order.
 */
export class VariantColumn implements Column<unknown> {
  private cache: unknown[] | undefined

  constructor(
    readonly type: TypeNode,
    /** Index of each row's alternative in {@link alternatives}, or 255 for NULL. */
    readonly discriminators: Uint8Array,
    /** Each row's position inside its alternative's column. */
    readonly positions: Int32Array,
    readonly alternatives: readonly Column[],
  ) {}

  get length(): number {
    return this.discriminators.length
  }

  get(row: number): unknown {
    if (this.cache) return this.cache[row]
    const discriminator = this.discriminators[row]!
    if (discriminator === nullDiscriminator) return null
    return this.alternatives[discriminator]!.get(this.positions[row]!)
  }

  /** All rows, from each alternative's `values()` (computed once). */
  values(): unknown[] {
    if (this.cache) return this.cache
    const alternatives = this.alternatives.map((column) => column.values())
    const discriminators = this.discriminators
    const positions = this.positions
    const out = new Array<unknown>(discriminators.length)
    for (let row = 0; row < out.length; row++) {
      const discriminator = discriminators[row]!
      out[row] = discriminator === nullDiscriminator ? null : alternatives[discriminator]![positions[row]!]
    }
    this.cache = out
    return out
  }

  storage(): ColumnStorage {
    return {
      kind: 'union',
      discriminators: this.discriminators,
      positions: this.positions,
      alternatives: this.alternatives,
    }
  }
}

/** One alternative of a Variant: its type name as ClickHouse sorts it, and its codec. */
export interface VariantAlternative {
  readonly name: string
  readonly codec: ColumnCodec
}

/** Sorts alternatives as ClickHouse does: by type name, bytewise. Discriminators index this order. */
export function sortAlternatives<T extends { readonly name: string }>(alternatives: T[]): T[] {
  return alternatives.sort((a, b) => compareUtf8(a.name, b.name))
}

/** Reads per-row discriminators in the basic or compact mode. Undefined when short. */
function readDiscriminators(reader: ByteReader, rows: number, mode: number): Uint8Array | undefined {
  if (mode === basicMode) {
    const view = reader.take(rows)
    return reader.short ? undefined : view
  }
  // Compact: granules of <rows VarUInt><format byte><one discriminator, or one per row>.
  const out = new Uint8Array(rows)
  let filled = 0
  while (filled < rows) {
    const count = reader.varUInt()
    const format = reader.u8()
    if (reader.short) return undefined
    if (count === 0 || count > rows - filled)
      throw new ProtocolError(`Variant compact granule of ${count} rows where ${rows - filled} remain`)
    if (format === compactGranule) {
      const discriminator = reader.u8()
      if (reader.short) return undefined
      out.fill(discriminator, filled, filled + count)
    } else if (format === 0) {
      const plain = reader.take(count)
      if (reader.short) return undefined
      out.set(plain, filled)
    } else throw new ProtocolError(`unknown Variant discriminators granule format ${format}`)
    filled += count
  }
  return out
}

/** Order in which alternatives of each family are tried for a JS value of a kind. */
const preferences: Readonly<Record<string, readonly string[]>> = {
  string: [
    'String',
    'FixedString',
    'LowCardinality',
    'Enum8',
    'Enum16',
    'UUID',
    'IPv4',
    'IPv6',
    'Date',
    'Date32',
    'DateTime',
    'DateTime64',
    'Time',
    'Time64',
    'Decimal',
    'Decimal32',
    'Decimal64',
    'Decimal128',
    'Decimal256',
    'Int64',
    'UInt64',
    'Int128',
    'UInt128',
    'Int256',
    'UInt256',
    'Float64',
    'JSON',
  ],
  integer: [
    'UInt8',
    'UInt16',
    'UInt32',
    'UInt64',
    'Int8',
    'Int16',
    'Int32',
    'Int64',
    'UInt128',
    'Int128',
    'UInt256',
    'Int256',
    'Float64',
    'Float32',
    'Decimal',
    'Decimal32',
    'Decimal64',
    'Decimal128',
    'Decimal256',
    'LowCardinality',
  ],
  number: [
    'Float64',
    'Float32',
    'BFloat16',
    'Decimal',
    'Decimal32',
    'Decimal64',
    'Decimal128',
    'Decimal256',
    'LowCardinality',
  ],
  bigint: [
    'Int64',
    'UInt64',
    'Int128',
    'UInt128',
    'Int256',
    'UInt256',
    'Int32',
    'UInt32',
    'Int16',
    'UInt16',
    'Int8',
    'UInt8',
    'Decimal',
    'Decimal32',
    'Decimal64',
    'Decimal128',
    'Decimal256',
  ],
  boolean: ['Bool', 'UInt8', 'Int8'],
  date: ['DateTime64', 'DateTime', 'Date32', 'Date'],
  bytes: ['String', 'FixedString', 'Array'],
  array: [
    'Array',
    'Tuple',
    'Nested',
    'Ring',
    'LineString',
    'Polygon',
    'MultiLineString',
    'MultiPolygon',
    'Point',
    'Map',
  ],
  map: ['Map'],
  object: ['Tuple', 'Map', 'JSON'],
}

/**
 * Picks the alternative for each JS value: the one a {@link TypedValue} names, else the
 * first, in the order of {@link preferences} for the value's kind, whose encoder accepts it.
 */
export class AlternativeChooser {
  private readonly scratch = new ByteWriter(256)
  private readonly byName = new Map<string, number>()
  private readonly orders = new Map<string, number[]>()

  constructor(
    private readonly typeName: string,
    private readonly alternatives: readonly VariantAlternative[],
  ) {
    for (let index = 0; index < alternatives.length; index++)
      this.byName.set(alternatives[index]!.name, index)
  }

  /** The alternative index for `value` (already unwrapped from a TypedValue by the caller), or throws. */
  choose(value: unknown, row: number): number {
    if (value instanceof TypedValue) {
      const index =
        this.byName.get(value.type) ?? this.byName.get(canonicalTypeText(parseTypeCached(value.type)))
      if (index === undefined)
        throw new UsageError(`row ${row}: ${value.type} is not an alternative of ${this.typeName}`)
      return index
    }
    const kind = describeValueKind(value)
    for (const index of this.order(kind)) {
      if (this.accepts(index, value)) return index
    }
    throw new UsageError(`row ${row}: no alternative of ${this.typeName} accepts a ${kind} value`)
  }

  private order(kind: string): number[] {
    let order = this.orders.get(kind)
    if (!order) {
      const families = preferences[kind] ?? []
      order = []
      for (const family of families)
        this.alternatives.forEach((alternative, index) => {
          if (parseTypeCached(alternative.name).name === family) order!.push(index)
        })
      this.orders.set(kind, order)
    }
    return order
  }

  private accepts(index: number, value: unknown): boolean {
    const codec = this.alternatives[index]!.codec
    const scratch = this.scratch.reset()
    try {
      const one = [value]
      codec.encodePrefix(scratch, one)
      codec.encode(scratch, one, 1)
      return true
    } catch {
      return false
    }
  }
}

interface VariantPlan {
  discriminators: Uint8Array
  inputs: unknown[][]
}

/**
 * Variant over already made alternatives (sorted); Dynamic reuses it for its inner Variant.
 * `described` lists the alternatives in the order the TypeScript union names them (the
 * declared order; sorted by default).
 */
export function variantCodecOf(
  type: TypeNode,
  alternatives: readonly VariantAlternative[],
  described: readonly VariantAlternative[] = alternatives,
): ColumnCodec {
  if (alternatives.length >= nullDiscriminator)
    throw new UsageError(`${type.name} has ${alternatives.length} alternatives; at most 254 fit`)
  const chooser = new AlternativeChooser(type.name, alternatives)
  let mode = basicMode
  const plans = new PlanCache<VariantPlan>((input) => {
    const rows = input.length
    const discriminators = new Uint8Array(rows)
    const inputs = alternatives.map(() => [] as unknown[])
    for (let row = 0; row < rows; row++) {
      const value = input[row]
      if (value === null || value === undefined) {
        discriminators[row] = nullDiscriminator
        continue
      }
      const index = chooser.choose(value, row)
      discriminators[row] = index
      inputs[index]!.push(value instanceof TypedValue ? value.value : value)
    }
    return { discriminators, inputs }
  })
  return {
    type,
    layout: {
      kind: 'union',
      type,
      alternatives: alternatives.map((alternative) => alternative.codec.layout),
    },
    insertShape: 'scalar',
    tsType: (unsupported) =>
      unionOf([...described.map((alternative) => alternative.codec.tsType(unsupported)), 'null']),
    decodePrefix(reader: ByteReader): void {
      const value = reader.u64Number('Variant discriminators mode')
      if (reader.short) return
      if (value !== basicMode && value !== compactMode)
        throw new ProtocolError(`unknown Variant discriminators mode ${value}`)
      mode = value
      for (const alternative of alternatives) alternative.codec.decodePrefix(reader)
    },
    decode(reader: ByteReader, rows: number): VariantColumn {
      const count = alternatives.length
      const discriminators = readDiscriminators(reader, rows, mode)
      if (!discriminators) return new VariantColumn(type, new Uint8Array(0), new Int32Array(0), [])
      const positions = new Int32Array(rows)
      const sizes = new Int32Array(count)
      for (let row = 0; row < rows; row++) {
        const discriminator = discriminators[row]!
        if (discriminator === nullDiscriminator) continue
        if (discriminator >= count)
          throw new ProtocolError(
            `Variant discriminator ${discriminator} in row ${row}; the type has ${count} alternatives`,
          )
        positions[row] = sizes[discriminator]!++
      }
      const columns = alternatives.map((alternative, index) =>
        alternative.codec.decode(reader, sizes[index]!),
      )
      return new VariantColumn(type, discriminators, positions, columns)
    },
    encodePrefix(writer, input: ColumnInput): void {
      const plan = plans.get(input)
      writer.u64Number(basicMode)
      for (let index = 0; index < alternatives.length; index++)
        alternatives[index]!.codec.encodePrefix(writer, plan.inputs[index]!)
    },
    encode(writer, input: ColumnInput, rows: number): void {
      const plan = plans.take(input)
      const discriminators = plan.discriminators.subarray(0, rows)
      writer.raw(discriminators)
      const sizes = new Int32Array(alternatives.length)
      for (const discriminator of discriminators)
        if (discriminator !== nullDiscriminator) sizes[discriminator]!++
      for (let index = 0; index < alternatives.length; index++)
        alternatives[index]!.codec.encode(writer, plan.inputs[index]!, sizes[index]!)
    },
  }
}

/**
 * Reads and writes Variant(T1, ..., Tn). ClickHouse orders the alternatives by type name
 * (not as declared); a discriminator is the index in that order. State prefix: the UInt64
 * discriminators mode (0 basic, 1 compact; only MergeTree writes compact), then each
 * alternative's prefix. Data: discriminators, then each alternative's rows.
 */
export function variantCodec(type: TypeNode, _context: CodecContext, codecFor: CodecResolver): ColumnCodec {
  const declared = typeArguments(type).map((node) => ({
    name: canonicalTypeText(node),
    codec: codecFor(node),
  }))
  return variantCodecOf(type, sortAlternatives([...declared]), declared)
}
