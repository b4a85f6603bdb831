import {
  ArrayTypeColumn,
  type Column,
  EnumColumn,
  LowCardinalityColumn,
  MapColumn,
  NullableColumn,
  TupleColumn,
  type TypeNode,
  typeArguments,
  typeNode,
  typeToString,
  VariantColumn,
} from '@clickwire/protocol'
import {
  type Data,
  DenseUnion,
  Dictionary,
  Field,
  Int32,
  List,
  Map_,
  makeData,
  makeVector,
  Null,
  Struct,
  Utf8,
  type Vector,
} from 'apache-arrow'
import { toInt32, utf8Data, validityFromNullMap, validityOf } from './arrow-buffers.js'
import { type ArrowPlan, mismatch, type PlanResolver } from './arrow-plan-support.js'

/** Data with a validity bitmap laid over it (Nullable: the inner data is already complete). */
function withValidity(data: Data, bitmap: Uint8Array, nullCount: number): Data {
  return data.clone(data.type, data.offset, data.length, nullCount, [
    data.valueOffsets,
    data.values,
    bitmap,
    data.typeIds,
  ] as never)
}

function nullablePlan(inner: ArrowPlan): ArrowPlan {
  if (inner.type instanceof Null) return { ...inner, nullable: true }
  return {
    type: inner.type,
    nullable: true,
    data(column) {
      if (!(column instanceof NullableColumn)) throw mismatch('Nullable', column)
      const { bitmap, nullCount } = validityFromNullMap(column.nulls)
      return withValidity(inner.data(column.inner), bitmap, nullCount)
    },
  }
}

function listPlan(inner: ArrowPlan, family: string): ArrowPlan {
  const type = new List(new Field('item', inner.type, inner.nullable))
  return {
    type,
    nullable: false,
    data(column) {
      if (!(column instanceof ArrayTypeColumn)) throw mismatch(family, column)
      return makeData({
        type,
        length: column.length,
        valueOffsets: column.bounds,
        child: inner.data(column.inner),
      })
    },
  }
}

function structPlan(names: readonly string[], elements: readonly ArrowPlan[], family: string): ArrowPlan {
  const fields = elements.map((plan, index) => new Field(names[index]!, plan.type, plan.nullable))
  const type = new Struct(fields)
  return {
    type,
    nullable: false,
    data(column) {
      if (!(column instanceof TupleColumn)) throw mismatch(family, column)
      const children = column.elements.map((element, index) => elements[index]!.data(element))
      return makeData({ type, length: column.length, nullCount: 0, children })
    },
  }
}

function mapPlan(key: ArrowPlan, value: ArrowPlan): ArrowPlan {
  const entries = new Struct([
    new Field('key', key.type, false),
    new Field('value', value.type, value.nullable),
  ])
  const type = new Map_(new Field('entries', entries, false), false)
  return {
    type,
    nullable: false,
    data(column) {
      if (!(column instanceof MapColumn)) throw mismatch('Map', column)
      const child = makeData({
        type: entries,
        length: column.keys.length,
        nullCount: 0,
        children: [key.data(column.keys), value.data(column.items)],
      })
      return makeData({ type, length: column.length, valueOffsets: column.bounds, child })
    },
  }
}

/**
 * Enum -> Dictionary<Utf8, Int32>: the dictionary is the element names in declaration
 * order (shared by every batch), the indexes come from the stored values through a
 * lookup table.
 */
function enumPlan(type: TypeNode): ArrowPlan {
  const names: string[] = []
  const values: number[] = []
  for (const arg of type.args) {
    if (arg.kind === 'enum') {
      names.push(arg.name)
      values.push(arg.value)
    }
  }
  const arrowType = new Dictionary(new Utf8(), new Int32())
  const dictionary = makeVector(utf8Data(names))
  // Values are Int8 or Int16: a table over the whole range maps them to positions.
  const lookup = new Int32Array(65_536)
  values.forEach((value, position) => {
    lookup[value + 32_768] = position
  })
  return {
    type: arrowType,
    nullable: false,
    data(column) {
      if (!(column instanceof EnumColumn)) throw mismatch(type.name, column)
      const stored = column.data
      const indexes = new Int32Array(stored.length)
      for (let row = 0; row < stored.length; row++) indexes[row] = lookup[stored[row]! + 32_768]!
      return makeData({ type: arrowType, length: stored.length, data: indexes, dictionary })
    },
  }
}

/**
 * LowCardinality(T) -> Dictionary<T, Int32>. A block's keys become the batch's dictionary
 * as they are (T's own conversion) and its indexes are widened to Int32; with
 * Nullable(T), index 0 (ClickHouse's NULL slot) becomes null. Granules with a shared
 * dictionary or keys of their own (rare on the wire) get their key columns concatenated
 * and their indexes shifted accordingly.
 */
function lowCardinalityPlan(keys: ArrowPlan, nullable: boolean): ArrowPlan {
  const type = new Dictionary(keys.type, new Int32())
  return {
    type,
    nullable,
    data(column) {
      if (!(column instanceof LowCardinalityColumn)) throw mismatch('LowCardinality', column)
      const length = column.length
      const only = column.granules[0]
      let indexes: Int32Array
      let dictionary: Vector
      if (column.granules.length === 1 && only && !only.global && only.additional) {
        indexes = toInt32(only.indexes)
        dictionary = makeVector(keys.data(only.additional))
      } else ({ indexes, dictionary } = mergedDictionary(column, keys))
      if (!nullable) return makeData({ type, length, data: indexes, dictionary })
      const { bitmap, nullCount } = validityOf(length, (row) => rawIndex(column, row) === 0)
      return makeData({ type, length, data: indexes, dictionary, nullBitmap: bitmap, nullCount })
    },
  }
}

/** The index a row has in its own granule (0 is the NULL slot of LowCardinality(Nullable)). */
function rawIndex(column: LowCardinalityColumn, row: number): number {
  let granule = column.granules[0]!
  for (const candidate of column.granules) if (candidate.start <= row) granule = candidate
  return Number(granule.indexes[row - granule.start]!)
}

function mergedDictionary(
  column: LowCardinalityColumn,
  keys: ArrowPlan,
): { indexes: Int32Array; dictionary: Vector } {
  const parts: Data[] = []
  const bases = new Map<Column, number>()
  let size = 0
  const baseOf = (keyColumn: Column): number => {
    let base = bases.get(keyColumn)
    if (base === undefined) {
      base = size
      bases.set(keyColumn, base)
      parts.push(keys.data(keyColumn))
      size += keyColumn.length
    }
    return base
  }
  const indexes = new Int32Array(column.length)
  for (const granule of column.granules) {
    const global = granule.global
    const split = global ? global.length : 0
    const globalBase = global ? baseOf(global) : 0
    const ownBase = granule.additional ? baseOf(granule.additional) : 0
    for (let i = 0; i < granule.indexes.length; i++) {
      const index = Number(granule.indexes[i]!)
      indexes[granule.start + i] = index < split ? globalBase + index : ownBase + index - split
    }
  }
  return { indexes, dictionary: makeVector(parts) }
}

/**
 * Variant(T1, ..., Tn) -> DenseUnion: ClickHouse's discriminators and per-row positions are
 * Arrow's type ids and value offsets. NULL rows point into an extra Null child (unions
 * have no validity bitmap).
 */
function variantPlan(alternatives: readonly TypeNode[], resolve: PlanResolver): ArrowPlan {
  const plans = alternatives.map(resolve)
  const fields = plans.map(
    (plan, index) => new Field(typeToString(alternatives[index]!), plan.type, plan.nullable),
  )
  fields.push(new Field('NULL', new Null(), true))
  const nullId = plans.length
  const type = new DenseUnion(
    fields.map((_, index) => index),
    fields,
  )
  return {
    type,
    nullable: true,
    data(column) {
      if (!(column instanceof VariantColumn)) throw mismatch('Variant', column)
      const length = column.length
      const typeIds = new Int8Array(length)
      const offsets = new Int32Array(length)
      let nulls = 0
      for (let row = 0; row < length; row++) {
        const discriminator = column.discriminators[row]!
        if (discriminator === 255) {
          typeIds[row] = nullId
          offsets[row] = nulls++
        } else {
          typeIds[row] = discriminator
          offsets[row] = column.positions[row]!
        }
      }
      const children = column.alternatives.map((alternative, index) => plans[index]!.data(alternative))
      children.push(makeData({ type: new Null(), length: nulls }))
      return makeData({ type, length, typeIds, valueOffsets: offsets, children } as never)
    },
  }
}

/** Point is Tuple(Float64, Float64) on the wire; the others are arrays of it. */
const geoElements: Readonly<Record<string, string>> = {
  Ring: 'Point',
  LineString: 'Point',
  Polygon: 'Ring',
  MultiLineString: 'LineString',
  MultiPolygon: 'Polygon',
}

/** Plans of types made of other types, or undefined. */
export function compositePlan(type: TypeNode, family: string, resolve: PlanResolver): ArrowPlan | undefined {
  const inner = typeArguments(type)
  switch (family) {
    case 'Nullable':
      return nullablePlan(resolve(inner[0]!))
    case 'Array':
      return listPlan(resolve(inner[0]!), family)
    case 'Tuple': {
      const names = type.args.flatMap((arg) => (arg.kind === 'type' ? [arg.name] : []))
      const named = names.length > 0 && names.every((name) => name !== undefined)
      // Unnamed elements are named by position from 1, as ClickHouse's tupleElement counts.
      const fieldNames = named ? (names as string[]) : inner.map((_, index) => String(index + 1))
      return structPlan(fieldNames, inner.map(resolve), family)
    }
    case 'Nested': {
      const names = type.args.flatMap((arg) => (arg.kind === 'type' ? [arg.name ?? ''] : []))
      return listPlan(structPlan(names, inner.map(resolve), family), family)
    }
    case 'Map':
      return mapPlan(resolve(inner[0]!), resolve(inner[1]!))
    case 'LowCardinality': {
      const dictionary = inner[0]!
      const nullable = dictionary.name === 'Nullable'
      return lowCardinalityPlan(resolve(nullable ? typeArguments(dictionary)[0]! : dictionary), nullable)
    }
    case 'Enum8':
    case 'Enum16':
    case 'Enum':
      return enumPlan(type)
    case 'Variant':
      return variantPlan(inner, resolve)
    case 'SimpleAggregateFunction':
      return resolve(inner[0]!)
    case 'Point': {
      const float64 = resolve(typeNode('Float64'))
      return structPlan(['x', 'y'], [float64, float64], family)
    }
    default: {
      const element = geoElements[family]
      return element ? listPlan(resolve(typeNode(element)), family) : undefined
    }
  }
}
