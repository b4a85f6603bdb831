import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ValueMapping } from '../types/value-mapping.js'
import type { Column, ColumnLayout, ColumnStorage } from './column-layout.js'

export type { Column } from './column-layout.js'

/** What an encoder accepts for one column: one JS value per row, or a typed array. */
export type ColumnInput = ArrayLike<unknown>

/**
 * What one row's value of a column may be, as far as an insert needs to tell one row from a
 * chunk of columns (an item whose values are all arrays could be either): `array` when a JS
 * array is one value (Array, Tuple, Nested, the geo types, QBit), `bytes` when a Uint8Array
 * is one value (String, FixedString, IPv6, AggregateFunction), `scalar` for anything else.
 */
export type InsertShape = 'array' | 'bytes' | 'scalar'

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
  /** How the columns `decode` returns lie in memory (what Arrow building reads). */
  readonly layout: ColumnLayout
  /** What one value may be on insert, beyond what `encode` converts (see {@link InsertShape}). */
  readonly insertShape: InsertShape
  /**
   * The TypeScript type of the values `decode` returns under the codec's value mapping, e.g.
   * `string | null`, `Map<string, bigint[]>` (codegen prints it). A part clickwire cannot
   * read is `unknown`, and says why in `unsupported`.
   */
  tsType(unsupported?: string[]): string
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
  /**
   * Writes `rows` values of `input` from index `from` on, as `encode` of that slice would:
   * given by concatenable codecs of plain-array values (strings), so a block cut from the
   * middle of a caller's array is encoded from it in place, not from a copy of its slice.
   */
  encodeFrom?(writer: ByteWriter, input: ColumnInput, from: number, rows: number): void
}

/** Makes a codec for a type; composite factories call `codecFor` for their inner types. */
export type CodecFactory = (type: TypeNode, context: CodecContext, codecFor: CodecResolver) => ColumnCodec

export type CodecResolver = (type: TypeNode) => ColumnCodec

/** A family of the codec registry: its canonical name, its factory, and what its values are in JS. */
export interface CodecFamily {
  readonly name: string
  readonly create: CodecFactory
  /** What a value of the family becomes in JS, in words (the README's mapping table). */
  readonly runtime: string
}

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
  storage(): ColumnStorage {
    return { kind: 'values' }
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
