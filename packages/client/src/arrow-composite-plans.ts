import {
  type Column,
  type ColumnLayout,
  type DictionaryGranule,
  type StructLayout,
  storageOf,
  type TypeNode,
  typeToString,
  type UnionLayout,
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
      const storage = storageOf(column, 'nullable')
      if (!storage) throw mismatch('Nullable', column)
      const { bitmap, nullCount } = validityFromNullMap(storage.nulls)
      return withValidity(inner.data(storage.inner), bitmap, nullCount)
    },
  }
}

function listPlan(inner: ArrowPlan, family: string): ArrowPlan {
  const type = new List(new Field('item', inner.type, inner.nullable))
  return {
    type,
    nullable: false,
    data(column) {
      const storage = storageOf(column, 'list')
      if (!storage) throw mismatch(family, column)
      return makeData({
        type,
        length: column.length,
        valueOffsets: storage.offsets,
        child: inner.data(storage.inner),
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
      const storage = storageOf(column, 'struct')
      if (!storage) throw mismatch(family, column)
      const children = storage.fields.map((element, index) => elements[index]!.data(element))
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
      const storage = storageOf(column, 'map')
      if (!storage) throw mismatch('Map', column)
      const child = makeData({
        type: entries,
        length: storage.keys.length,
        nullCount: 0,
        children: [key.data(storage.keys), value.data(storage.values)],
      })
      return makeData({ type, length: column.length, valueOffsets: storage.offsets, child })
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
      const stored = storageOf(column, 'fixed')?.data
      if (!(stored instanceof Int8Array || stored instanceof Int16Array)) throw mismatch(type.name, column)
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
      const granules = storageOf(column, 'dictionary')?.granules
      if (!granules) throw mismatch('LowCardinality', column)
      const length = column.length
      const only = granules[0]
      let indexes: Int32Array
      let dictionary: Vector
      if (granules.length === 1 && only && !only.global && only.additional) {
        indexes = toInt32(only.indexes)
        dictionary = makeVector(keys.data(only.additional))
      } else ({ indexes, dictionary } = mergedDictionary(granules, length, keys))
      if (!nullable) return makeData({ type, length, data: indexes, dictionary })
      const { bitmap, nullCount } = validityOf(length, (row) => rawIndex(granules, row) === 0)
      return makeData({ type, length, data: indexes, dictionary, nullBitmap: bitmap, nullCount })
    },
  }
}

/** The index a row has in its own granule (0 is the NULL slot of LowCardinality(Nullable)). */
function rawIndex(granules: readonly DictionaryGranule[], row: number): number {
  let granule = granules[0]!
  for (const candidate of granules) if (candidate.start <= row) granule = candidate
  return Number(granule.indexes[row - granule.start]!)
}

function mergedDictionary(
  granules: readonly DictionaryGranule[],
  length: number,
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
  const indexes = new Int32Array(length)
  for (const granule of granules) {
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
 * Arrow's type ids and value offsets (the alternatives in discriminator order, as the layout
 * lists them). NULL rows point into an extra Null child (unions have no validity bitmap).
 */
function variantPlan(layout: UnionLayout, resolve: PlanResolver): ArrowPlan {
  const plans = layout.alternatives.map(resolve)
  const fields = plans.map(
    (plan, index) => new Field(typeToString(layout.alternatives[index]!.type), plan.type, plan.nullable),
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
      const storage = storageOf(column, 'union')
      if (!storage) throw mismatch('Variant', column)
      const length = column.length
      const typeIds = new Int8Array(length)
      const offsets = new Int32Array(length)
      let nulls = 0
      for (let row = 0; row < length; row++) {
        const discriminator = storage.discriminators[row]!
        if (discriminator === 255) {
          typeIds[row] = nullId
          offsets[row] = nulls++
        } else {
          typeIds[row] = discriminator
          offsets[row] = storage.positions[row]!
        }
      }
      const children = storage.alternatives.map((alternative, index) => plans[index]!.data(alternative))
      children.push(makeData({ type: new Null(), length: nulls }))
      return makeData({ type, length, typeIds, valueOffsets: offsets, children } as never)
    },
  }
}

/**
 * Arrow field names of a struct: the element names of a named Tuple (Nested's elements are
 * always named), Point's x and y, else positions from 1, as ClickHouse's tupleElement counts.
 */
function fieldNames(layout: StructLayout): string[] {
  if (layout.type.name === 'Point') return ['x', 'y']
  const names = layout.fields.map((field) => field.name)
  return names.length > 0 && names.every((name) => name !== undefined)
    ? (names as string[])
    : names.map((_, index) => String(index + 1))
}

/**
 * Plans of types made of other types, from the layout their codec declares: Nullable,
 * Array (and Nested and the geo arrays, all lists), Tuple (and Point), Map, LowCardinality
 * and Variant; Enum, whose values are a dictionary. Undefined for the rest.
 */
export function compositePlan(
  layout: ColumnLayout,
  family: string,
  resolve: PlanResolver,
): ArrowPlan | undefined {
  if (family === 'Enum8' || family === 'Enum16' || family === 'Enum') return enumPlan(layout.type)
  switch (layout.kind) {
    case 'nullable':
      return nullablePlan(resolve(layout.inner))
    case 'list':
      return listPlan(resolve(layout.element), family)
    case 'struct':
      return structPlan(
        fieldNames(layout),
        layout.fields.map((field) => resolve(field.layout)),
        family,
      )
    case 'map':
      return mapPlan(resolve(layout.key), resolve(layout.value))
    case 'dictionary':
      return lowCardinalityPlan(resolve(layout.keys), layout.nullable)
    case 'union':
      // Geometry's shapes overlap (a Ring is a LineString): it stays JSON text.
      return family === 'Geometry' ? undefined : variantPlan(layout, resolve)
    default:
      return undefined
  }
}
