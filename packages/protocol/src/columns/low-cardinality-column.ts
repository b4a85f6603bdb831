import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { unionOf } from '../types/ts-type-text.js'
import { innerType, type TypeNode } from '../types/type-node.js'
import {
  ArrayColumn,
  type CodecContext,
  type CodecResolver,
  type ColumnCodec,
  type ColumnInput,
} from './column-codec.js'
import type { Column, ColumnStorage, DictionaryGranule } from './column-layout.js'
import { hasElements, PlanCache, zeroValue } from './composite-support.js'
import { fixedWidthBytes } from './fixed-width.js'
import { prefixedStringCodec } from './string-column.js'

/** The only key serialization version: shared dictionaries with additional keys. */
const keysVersion = 1
/** Flag bits of a granule header (the low byte is the index width: 0..3 = UInt8..UInt64). */
const needGlobalDictionary = 0x100
const hasAdditionalKeys = 0x200
const needUpdateDictionary = 0x400
const knownBits = 0xff | needGlobalDictionary | hasAdditionalKeys | needUpdateDictionary

type Indexes = DictionaryGranule['indexes']

/**
 * A decoded LowCardinality(T) column: per-row indexes into a dictionary of T values. For
 * LowCardinality(Nullable(T)) the dictionary holds T and index 0 stands for NULL.
 */
export class LowCardinalityColumn<Value = unknown> implements Column<Value | null> {
  private cache: (Value | null)[] | undefined

  constructor(
    readonly type: TypeNode,
    /** Usually one; more when the server split the rows into granules with their own flags. */
    readonly granules: readonly DictionaryGranule[],
    readonly nullable: boolean,
    private readonly rows: number,
  ) {}

  get length(): number {
    return this.rows
  }

  get(row: number): Value | null {
    if (this.cache) return this.cache[row]!
    let granule = this.granules[0]!
    for (let i = 1; i < this.granules.length && this.granules[i]!.start <= row; i++)
      granule = this.granules[i]!
    const index = granule.indexes[row - granule.start]!
    const global = granule.global
    if (global) {
      if (index < global.length) return this.nullable && index === 0 ? null : (global.get(index) as Value)
      return granule.additional!.get(index - global.length) as Value
    }
    return this.nullable && index === 0 ? null : (granule.additional!.get(index) as Value)
  }

  /** All rows, resolved through the dictionary values (each dictionary decoded once). */
  values(): (Value | null)[] {
    if (this.cache) return this.cache
    const out = new Array<Value | null>(this.rows)
    const nullable = this.nullable
    for (const granule of this.granules) {
      const indexes = granule.indexes
      const start = granule.start
      const global = granule.global?.values() ?? []
      const split = granule.global ? global.length : 0
      const own = granule.additional?.values() ?? []
      const nullIndex = nullable ? 0 : -1
      for (let i = 0; i < indexes.length; i++) {
        const index = indexes[i]!
        out[start + i] =
          index === nullIndex
            ? null
            : index < split
              ? (global[index] as Value)
              : (own[index - split] as Value)
      }
    }
    this.cache = out
    return out
  }

  storage(): ColumnStorage {
    return { kind: 'dictionary', granules: this.granules }
  }
}

interface LowCardinalityPlan {
  dictionary: unknown[]
  indexes: Indexes
  width: number
}

/** The narrowest index type for `size` dictionary entries, as ClickHouse chooses it. */
function indexWidth(size: number): number {
  return size <= 0x100 ? 0 : size <= 0x1_0000 ? 1 : 2
}

/**
 * Reads and writes LowCardinality(T). The state prefix is the key version (1). Each
 * granule has UInt64 flags, a global dictionary when it needs one updated (kept by this
 * codec for later blocks of the stream), additional keys, then the UInt64 row count and
 * the indexes. Writing uses additional keys only, the layout ClickHouse itself sends to
 * clients and accepts from them; the dictionary starts with the default value (and a
 * NULL placeholder before it for Nullable).
 */
export function lowCardinalityCodec(
  type: TypeNode,
  _context: CodecContext,
  codecFor: CodecResolver,
): ColumnCodec {
  let dictionaryType = innerType(type)
  const nullable = dictionaryType.name === 'Nullable'
  if (nullable) dictionaryType = innerType(dictionaryType)
  // The dictionary is written as one plain column (serializeBinaryBulk), so a String one
  // keeps the prefixed layout at every revision (checked on 26.9 at 54492).
  const keys =
    dictionaryType.name === 'String' ? prefixedStringCodec(dictionaryType) : codecFor(dictionaryType)
  let shared: Column | undefined

  const readKeys = (reader: ByteReader, what: string): Column | undefined => {
    const count = reader.u64Number(`LowCardinality ${what} size`)
    if (reader.short || !hasElements(reader, count, `LowCardinality ${what}`)) return undefined
    const column = keys.decode(reader, count)
    return reader.short ? undefined : column
  }

  const plans = new PlanCache<LowCardinalityPlan>((input) => {
    const rows = input.length
    const dictionary: unknown[] = []
    const positions = new Map<unknown, number>()
    const dates = new Map<number, number>()
    const base = zeroValue(keys)
    if (nullable) dictionary.push(base)
    if (base !== undefined) {
      positions.set(base, dictionary.length)
      dictionary.push(base)
    }
    const indexes = new Uint32Array(rows)
    for (let row = 0; row < rows; row++) {
      const value = input[row]
      if (value === null || value === undefined) {
        if (!nullable)
          throw new UsageError(
            `row ${row}: ${value} in ${type.name}(${dictionaryType.name}) without Nullable`,
          )
        indexes[row] = 0
        continue
      }
      // Equal values share an entry; values of other kinds (Date objects, byte arrays) are
      // compared by time or by identity, and a duplicate entry is harmless.
      const time = value instanceof Date ? value.getTime() : undefined
      let position = time === undefined ? positions.get(value) : dates.get(time)
      if (position === undefined) {
        position = dictionary.length
        dictionary.push(value)
        if (time === undefined) positions.set(value, position)
        else dates.set(time, position)
      }
      indexes[row] = position
    }
    const width = indexWidth(dictionary.length)
    const narrow = width === 0 ? Uint8Array.from(indexes) : width === 1 ? Uint16Array.from(indexes) : indexes
    return { dictionary, indexes: narrow, width }
  })

  return {
    type,
    layout: { kind: 'dictionary', type, keys: keys.layout, nullable },
    insertShape: keys.insertShape,
    tsType(unsupported?: string[]): string {
      const values = keys.tsType(unsupported)
      return nullable ? unionOf([values, 'null']) : values
    },
    decodePrefix(reader: ByteReader): void {
      const version = reader.u64Number('LowCardinality key version')
      if (!reader.short && version !== keysVersion)
        throw new ProtocolError(`unknown LowCardinality key serialization version ${version}`)
    },
    decode(reader: ByteReader, rows: number): LowCardinalityColumn {
      const granules: DictionaryGranule[] = []
      let global = shared
      let read = 0
      const empty = () => new LowCardinalityColumn(type, [], nullable, 0)
      while (read < rows) {
        if (!reader.has(8)) {
          reader.offset = reader.limit
          return empty()
        }
        const flags = reader.view.getUint32(reader.offset, true)
        const high = reader.view.getUint32(reader.offset + 4, true)
        reader.offset += 8
        if (high !== 0 || (flags & ~knownBits) !== 0 || (flags & 0xff) > 3)
          throw new ProtocolError(
            `LowCardinality granule flags 0x${(high * 2 ** 32 + flags).toString(16)} are invalid`,
          )
        const width = flags & 0xff
        if (flags & needGlobalDictionary) {
          if (flags & needUpdateDictionary || !global) {
            global = readKeys(reader, 'dictionary')
            if (!global) return empty()
            // Later blocks may point into this dictionary: keep decoded values, not views of
            // this block's bytes, which the stream may reuse.
            global = new ArrayColumn(global.type, Array.from(global.values()))
          }
        }
        let additional: Column | undefined
        if (flags & hasAdditionalKeys) {
          additional = readKeys(reader, 'additional keys')
          if (!additional) return empty()
        }
        const count = reader.u64Number('LowCardinality row count')
        if (reader.short) return empty()
        if (count > rows - read)
          throw new ProtocolError(`LowCardinality granule of ${count} rows where ${rows - read} remain`)
        const useGlobal = (flags & needGlobalDictionary) !== 0 ? global : undefined
        if (!useGlobal && !additional)
          throw new ProtocolError('LowCardinality granule has neither a dictionary nor keys')
        const indexes = readIndexes(reader, count, width)
        if (!indexes) return empty()
        const size = (useGlobal?.length ?? 0) + (additional?.length ?? 0)
        let max = 0
        for (let i = 0; i < indexes.length; i++) if (indexes[i]! > max) max = indexes[i]!
        if (count > 0 && max >= size)
          throw new ProtocolError(`LowCardinality index ${max} is past the dictionary of ${size} keys`)
        granules.push({ start: read, indexes, global: useGlobal, additional })
        read += count
      }
      shared = global
      return new LowCardinalityColumn(type, granules, nullable, rows)
    },
    encodePrefix(writer: ByteWriter, input: ColumnInput): void {
      plans.get(input)
      writer.u64Number(keysVersion)
    },
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      const plan = plans.take(input)
      if (rows === 0) return
      writer.u64Number(plan.width | hasAdditionalKeys | needUpdateDictionary)
      writer.u64Number(plan.dictionary.length)
      keys.encode(writer, plan.dictionary, plan.dictionary.length)
      writer.u64Number(rows)
      const indexes = plan.indexes.subarray(0, rows)
      writer.raw(new Uint8Array(indexes.buffer, indexes.byteOffset, indexes.byteLength))
    },
  }
}

function readIndexes(reader: ByteReader, count: number, width: number): Indexes | undefined {
  if (width === 3) {
    if (!reader.has(count * 8)) {
      reader.offset = reader.limit
      return undefined
    }
    const out = new Uint32Array(count)
    for (let i = 0; i < count; i++) {
      const at = reader.offset + i * 8
      if (reader.view.getUint32(at + 4, true) !== 0)
        throw new ProtocolError(`LowCardinality UInt64 index of row ${i} is too large`)
      out[i] = reader.view.getUint32(at, true)
    }
    reader.offset += count * 8
    return out
  }
  const size = 1 << width
  const bytes = fixedWidthBytes(reader, count, size)
  if (!bytes) return undefined
  return width === 0
    ? new Uint8Array(bytes[0], bytes[1], count)
    : width === 1
      ? new Uint16Array(bytes[0], bytes[1], count)
      : new Uint32Array(bytes[0], bytes[1], count)
}
