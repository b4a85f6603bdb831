import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { type TypeNode, typeArguments } from '../types/type-node.js'
import { writeOffsets } from './array-column.js'
import type { CodecContext, CodecResolver, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { hasElements, PlanCache, readOffsets, shapeError } from './composite-support.js'

/**
 * A decoded Map(K, V) column: row bounds over one key column and one value column (the
 * wire layout of Array(Tuple(K, V))). Rows are JS Maps with entries in wire order.
 */
export class MapColumn<Key = unknown, Value = unknown> implements Column<Map<Key, Value>> {
  private cache: Map<Key, Value>[] | undefined

  constructor(
    readonly type: TypeNode,
    /** `rows + 1` bounds into the key and value columns. */
    readonly bounds: Int32Array,
    readonly keys: Column<Key>,
    readonly items: Column<Value>,
  ) {}

  get length(): number {
    return this.bounds.length - 1
  }

  get(row: number): Map<Key, Value> {
    if (this.cache) return this.cache[row]!
    const map = new Map<Key, Value>()
    for (let i = this.bounds[row]!; i < this.bounds[row + 1]!; i++)
      map.set(this.keys.get(i), this.items.get(i))
    return map
  }

  /** One Map per row, from the key and value columns' `values()` (computed once). */
  values(): Map<Key, Value>[] {
    if (this.cache) return this.cache
    const keys = this.keys.values()
    const items = this.items.values()
    const bounds = this.bounds
    const rows = bounds.length - 1
    const out = new Array<Map<Key, Value>>(rows)
    for (let row = 0; row < rows; row++) {
      const map = new Map<Key, Value>()
      for (let i = bounds[row]!; i < bounds[row + 1]!; i++) map.set(keys[i] as Key, items[i] as Value)
      out[row] = map
    }
    this.cache = out
    return out
  }

  storage(): ColumnStorage {
    return { kind: 'map', offsets: this.bounds, keys: this.keys, values: this.items }
  }
}

interface MapPlan {
  bounds: Float64Array
  keys: unknown[]
  items: unknown[]
}

/** Accepts per row a Map, an array of `[key, value]` pairs, or a plain object. */
function flattenMaps(typeName: string, input: ColumnInput): MapPlan {
  const rows = input.length
  const bounds = new Float64Array(rows + 1)
  const keys: unknown[] = []
  const items: unknown[] = []
  for (let row = 0; row < rows; row++) {
    const value = input[row]
    if (value instanceof Map) {
      for (const [key, item] of value) {
        keys.push(key)
        items.push(item)
      }
    } else if (Array.isArray(value)) {
      for (const pair of value) {
        if (!Array.isArray(pair) || pair.length !== 2)
          throw new UsageError(`row ${row}: ${typeName} entries must be [key, value] pairs`)
        keys.push(pair[0])
        items.push(pair[1])
      }
    } else if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      for (const key of Object.keys(value)) {
        keys.push(key)
        items.push((value as Record<string, unknown>)[key])
      }
    } else throw shapeError(typeName, row, 'a Map, object or array of pairs', value)
    bounds[row + 1] = keys.length
  }
  return { bounds, keys, items }
}

/** Reads and writes Map(K, V): UInt64 offsets per row, then all keys, then all values. */
export function mapCodec(type: TypeNode, _context: CodecContext, codecFor: CodecResolver): ColumnCodec {
  const [keyType, valueType] = typeArguments(type)
  if (!keyType || !valueType) throw new UsageError(`Map needs a key and a value type: ${type.name}`)
  const keys = codecFor(keyType)
  const items = codecFor(valueType)
  const plans = new PlanCache((input) => flattenMaps('Map', input))
  return {
    type,
    layout: { kind: 'map', type, key: keys.layout, value: items.layout },
    // The value is a JS Map (or an object, or pairs), never taken for a column of values.
    insertShape: 'scalar',
    tsType: (unsupported) => `Map<${keys.tsType(unsupported)}, ${items.tsType(unsupported)}>`,
    decodePrefix(reader: ByteReader): void {
      keys.decodePrefix(reader)
      items.decodePrefix(reader)
    },
    decode(reader: ByteReader, rows: number): MapColumn {
      const bounds = readOffsets(reader, rows, 'Map offsets')
      const count = bounds ? bounds[rows]! : 0
      if (!bounds || !hasElements(reader, count * 2, 'Map entries'))
        return new MapColumn(type, new Int32Array(1), keys.decode(reader, 0), items.decode(reader, 0))
      const keyColumn = keys.decode(reader, count)
      return new MapColumn(type, bounds, keyColumn, items.decode(reader, count))
    },
    encodePrefix(writer: ByteWriter, input: ColumnInput): void {
      const plan = plans.get(input)
      keys.encodePrefix(writer, plan.keys)
      items.encodePrefix(writer, plan.items)
    },
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      const plan = plans.take(input)
      const count = plan.bounds[rows]!
      writeOffsets(writer, plan.bounds, rows)
      keys.encode(writer, plan.keys, count)
      items.encode(writer, plan.items, count)
    },
  }
}
