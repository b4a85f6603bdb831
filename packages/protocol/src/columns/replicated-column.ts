import { ProtocolError } from '../errors/protocol-error.js'
import { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { fixedWidthBytes } from './fixed-width.js'

/** A column of rows that each point at a row of a smaller column (ColumnReplicated). */
export class IndexedColumn<Value = unknown> implements Column<Value> {
  private cache: Value[] | undefined

  constructor(
    readonly type: TypeNode,
    readonly indexes: Uint8Array | Uint16Array | Uint32Array | BigUint64Array,
    readonly nested: Column<Value>,
  ) {}

  get length(): number {
    return this.indexes.length
  }

  get(row: number): Value {
    return this.nested.get(Number(this.indexes[row]!))
  }

  values(): Value[] {
    if (this.cache) return this.cache
    const nested = this.nested.values()
    const out = new Array<Value>(this.indexes.length)
    for (let row = 0; row < out.length; row++) out[row] = nested[Number(this.indexes[row]!)] as Value
    this.cache = out
    return out
  }

  storage(): ColumnStorage {
    return { kind: 'values' }
  }
}

type Indexes = IndexedColumn['indexes']

function readIndexes(reader: ByteReader, rows: number): Indexes | undefined {
  const count = reader.varUInt()
  const width = reader.u8()
  if (reader.short) return undefined
  if (count !== rows) throw new ProtocolError(`replicated column of ${count} rows in a block of ${rows}`)
  if (width !== 1 && width !== 2 && width !== 4 && width !== 8)
    throw new ProtocolError(`replicated column index width ${width}`)
  const bytes = fixedWidthBytes(reader, rows, width)
  if (!bytes) return undefined
  return width === 1
    ? new Uint8Array(bytes[0], bytes[1], rows)
    : width === 2
      ? new Uint16Array(bytes[0], bytes[1], rows)
      : width === 4
        ? new Uint32Array(bytes[0], bytes[1], rows)
        : new BigUint64Array(bytes[0], bytes[1], rows)
}

/**
 * Reads a column in SerializationReplicated's layout (lazy replication of JOIN results,
 * revision 54482): VarUInt rows, the index width in bytes, one index per row, VarUInt
 * size of the nested column, then the nested column in `nested`'s layout. Fixed-width
 * types (`width`) come out as the same Column the dense layout gives; others as an
 * {@link IndexedColumn} over the nested values. Writing is dense.
 */
export function replicatedCodecOf(
  dense: ColumnCodec,
  nested: ColumnCodec,
  width: number | undefined,
): ColumnCodec {
  return {
    type: dense.type,
    layout: dense.layout,
    insertShape: dense.insertShape,
    tsType: (unsupported) => dense.tsType(unsupported),
    decodePrefix(reader: ByteReader): void {
      nested.decodePrefix(reader)
    },
    decode(reader: ByteReader, rows: number): Column {
      if (rows === 0) return dense.decode(new ByteReader(), 0)
      const indexes = reader.short ? undefined : readIndexes(reader, rows)
      const size = indexes ? reader.varUInt() : 0
      if (!indexes || reader.short) return dense.decode(new ByteReader(), 0)
      for (let row = 0; row < rows; row++)
        if (Number(indexes[row]!) >= size)
          throw new ProtocolError(`replicated index ${indexes[row]} in row ${row}; ${size} values`)
      if (width !== undefined && nested === dense) {
        const values = reader.take(size * width)
        if (reader.short) return dense.decode(new ByteReader(), 0)
        const out = new Uint8Array(rows * width)
        for (let row = 0; row < rows; row++) {
          const at = Number(indexes[row]!) * width
          out.set(values.subarray(at, at + width), row * width)
        }
        return dense.decode(new ByteReader(out), rows)
      }
      const column = nested.decode(reader, size)
      return new IndexedColumn(dense.type, indexes, column)
    },
    encodePrefix(writer: ByteWriter, input: ColumnInput): void {
      dense.encodePrefix(writer, input)
    },
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      dense.encode(writer, input, rows)
    },
  }
}
