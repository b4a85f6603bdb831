import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ValueMapping } from '../types/value-mapping.js'

/**
 * One decoded column of a block. The storage stays columnar (typed arrays, offsets into
 * the received bytes); JS values are made only when asked for, by row or all at once.
 */
export interface Column<Value = unknown> {
  readonly type: TypeNode
  /** Number of rows. */
  readonly length: number
  /** The JS value of one row, with the value mapping applied. */
  get(row: number): Value
  /**
   * All rows at once: a typed array for fixed-width numbers where the mapping keeps them
   * numeric (a view of the received bytes when aligned), otherwise a JS array.
   */
  values(): ArrayLike<Value>
}

/** What an encoder accepts for one column: one JS value per row, or a typed array. */
export type ColumnInput = ArrayLike<unknown>

/** What a codec needs to know beyond the bytes. */
export interface CodecContext {
  /** The negotiated protocol revision (0 for the Native format over HTTP without `client_protocol_version`). */
  readonly revision: number
  /** The server's time zone, for DateTime columns that name none. */
  readonly timezone: string
  /** How values become JS values. */
  readonly mapping: ValueMapping
}

/**
 * Decoder and encoder of one ClickHouse type in the Native format, made for one column
 * of one stream: it may keep state from block to block (a LowCardinality dictionary).
 *
 * Native serializes a column as a state prefix (LowCardinality version, Variant mode,
 * Dynamic/JSON structure; nested codecs' prefixes come first, before any data) followed by
 * the data. Decoding never throws for missing bytes: it records `reader.missing` and
 * returns whatever it has; the caller checks `reader.missing` and retries with more input.
 * Malformed bytes throw {@link ProtocolError}; values that do not fit the type throw
 * {@link UsageError} on encode.
 */
export interface ColumnCodec<Value = unknown> {
  readonly type: TypeNode
  /**
   * Set by codecs whose column is nothing but `rows` values of this many bytes, read by one
   * fixedWidthBytes call (a block may then move an unaligned last column in place: see
   * ByteReader.movableAt).
   */
  readonly fixedWidth?: number
  /**
   * True when encoding `a` then `b` writes the same bytes as encoding them joined, and the
   * prefix is empty: a column that comes in parts (ColumnParts) is then encoded part by
   * part, with no joined copy.
   */
  readonly concatenable?: boolean
  /** Reads this column's state prefix for one block. */
  decodePrefix(reader: ByteReader): void
  /** Reads `rows` values. The result is meaningless when `reader.missing` was set. */
  decode(reader: ByteReader, rows: number): Column<Value>
  /** Writes the state prefix for `input`. */
  encodePrefix(writer: ByteWriter, input: ColumnInput): void
  /** Writes the first `rows` values of `input`. */
  encode(writer: ByteWriter, input: ColumnInput, rows: number): void
}

/** Makes a codec for a type; composite factories call `codecFor` for their inner types. */
export type CodecFactory = (type: TypeNode, context: CodecContext, codecFor: CodecResolver) => ColumnCodec

export type CodecResolver = (type: TypeNode) => ColumnCodec

/** A column whose values were computed up front (composites build these). */
export class ArrayColumn<Value> implements Column<Value> {
  constructor(
    readonly type: TypeNode,
    private readonly items: readonly Value[],
  ) {}
  get length(): number {
    return this.items.length
  }
  get(row: number): Value {
    return this.items[row] as Value
  }
  values(): ArrayLike<Value> {
    return this.items
  }
}

/** Describes a JS value briefly for error messages (never whole strings or secrets). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  if (typeof value === 'string')
    return value.length > 20 ? `a string of ${value.length} chars` : JSON.stringify(value)
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return `an array of ${value.length}`
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? 'an invalid Date' : `Date ${value.toISOString()}`
  return `a ${(value as object).constructor?.name ?? typeof value}`
}
