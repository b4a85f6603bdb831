import type { ByteReader } from '../io/byte-reader.js'
import type { TypeNode } from '../types/type-node.js'

/** Every typed array a numeric column can come in (and an insert can pass). */
export type TypedArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array

/** The element type of the typed array a fixed-width column is stored in. */
export type TypedArrayKind =
  | 'Int8'
  | 'Uint8'
  | 'Int16'
  | 'Uint16'
  | 'Int32'
  | 'Uint32'
  | 'Float32'
  | 'Float64'
  | 'BigInt64'
  | 'BigUint64'

/**
 * How the columns a codec decodes lie in memory, declared by the codec (`ColumnCodec.layout`)
 * so that consumers (Arrow building, sparse and replicated reading) need not know the column
 * classes. Every node names the type it describes; composites hold their children's layouts.
 * The decoded column hands out the buffers themselves ({@link Column.storage}).
 */
export type ColumnLayout =
  | FixedLayout
  | BooleanLayout
  | FixedBytesLayout
  | BytesLayout
  | NullableLayout
  | ListLayout
  | StructLayout
  | MapLayout
  | DictionaryLayout
  | UnionLayout
  | NullLayout
  | ValuesLayout

/**
 * `width` bytes per row, little-endian, held in one typed array of `array` elements: one per
 * row, or several (two or four BigUint64 words for 128- and 256-bit integers).
 */
export interface FixedLayout {
  readonly kind: 'fixed'
  readonly type: TypeNode
  readonly width: number
  readonly array: TypedArrayKind
}

/** One byte per row, nonzero meaning true. */
export interface BooleanLayout {
  readonly kind: 'boolean'
  readonly type: TypeNode
}

/** `width` opaque bytes per row (FixedString(N), UUID, IPv6). */
export interface FixedBytesLayout {
  readonly kind: 'fixed-bytes'
  readonly type: TypeNode
  readonly width: number
}

/**
 * Bytes of a different length per row, handed out as Arrow's bytes + offsets. `prefixed`:
 * on the wire each value is its VarUInt length then its bytes (String); else only the type
 * knows where a value ends (AggregateFunction states).
 */
export interface BytesLayout {
  readonly kind: 'bytes'
  readonly type: TypeNode
  readonly prefixed: boolean
  /**
   * Set for String's size-stream layout (revision 54492, string-blob-column.ts): how `count`
   * values read from `reader` become the dense bytes of `rows` rows with the values at
   * `positions`, as a sparse column needs (sparse-column.ts); undefined when short. It
   * comes with the codec, so its code loads with it.
   */
  readonly sparseImage?: (reader: ByteReader, positions: Int32Array, rows: number) => Uint8Array | undefined
}

/** A null map (one byte per row, nonzero = NULL) over an inner column with a placeholder at each NULL. */
export interface NullableLayout {
  readonly kind: 'nullable'
  readonly type: TypeNode
  readonly inner: ColumnLayout
}

/** `rows + 1` offsets into one column of all rows' elements (Array, Nested, the geo arrays). */
export interface ListLayout {
  readonly kind: 'list'
  readonly type: TypeNode
  readonly element: ColumnLayout
}

/** One column per element, each of all rows (Tuple, Point). `name` is undefined for unnamed elements. */
export interface StructLayout {
  readonly kind: 'struct'
  readonly type: TypeNode
  readonly fields: readonly { readonly name: string | undefined; readonly layout: ColumnLayout }[]
}

/** `rows + 1` offsets into one key column and one value column (Map). */
export interface MapLayout {
  readonly kind: 'map'
  readonly type: TypeNode
  readonly key: ColumnLayout
  readonly value: ColumnLayout
}

/**
 * Per-row indexes into dictionaries of keys (LowCardinality). With `nullable`, the keys are
 * the Nullable's inner type and index 0 stands for NULL.
 */
export interface DictionaryLayout {
  readonly kind: 'dictionary'
  readonly type: TypeNode
  readonly keys: ColumnLayout
  readonly nullable: boolean
}

/**
 * A discriminator per row (255 = NULL) and, per alternative in discriminator order, a column
 * of only its rows (Variant, Geometry).
 */
export interface UnionLayout {
  readonly kind: 'union'
  readonly type: TypeNode
  readonly alternatives: readonly ColumnLayout[]
}

/** No data: every row is NULL (Nothing). */
export interface NullLayout {
  readonly kind: 'null'
  readonly type: TypeNode
}

/**
 * A layout clickwire keeps to itself (Dynamic, JSON, QBit's bit planes): read the column's
 * values. Its columns may still hand out some other storage.
 */
export interface ValuesLayout {
  readonly kind: 'values'
  readonly type: TypeNode
}

/** One granule of a dictionary column: its rows' indexes into a shared (global) dictionary and/or its own keys. */
export interface DictionaryGranule {
  /** First row of the granule in the column. */
  readonly start: number
  readonly indexes: Uint8Array | Uint16Array | Uint32Array
  /** The global dictionary, when the granule uses one: indexes below its length point into it. */
  readonly global: Column | undefined
  /** The granule's own keys: the whole dictionary without a global one, else the indexes past it. */
  readonly additional: Column | undefined
}

/**
 * The buffers of one decoded column, by the kind of its codec's {@link ColumnLayout}: views
 * of the received bytes where the layout allows, never copies made per call (but `contiguous`).
 */
export type ColumnStorage =
  | { readonly kind: 'fixed'; readonly data: TypedArray }
  | { readonly kind: 'boolean'; readonly data: Uint8Array }
  /** Exactly `rows * width` bytes. */
  | { readonly kind: 'fixed-bytes'; readonly data: Uint8Array }
  /** All values' bytes back to back and `rows + 1` offsets (made on call: the values may lie apart). */
  | { readonly kind: 'bytes'; contiguous(): { data: Uint8Array; offsets: Int32Array } }
  | { readonly kind: 'nullable'; readonly nulls: Uint8Array; readonly inner: Column }
  | { readonly kind: 'list'; readonly offsets: Int32Array; readonly inner: Column }
  | { readonly kind: 'struct'; readonly fields: readonly Column[] }
  | {
      readonly kind: 'map'
      readonly offsets: Int32Array
      readonly keys: Column
      readonly values: Column
    }
  | { readonly kind: 'dictionary'; readonly granules: readonly DictionaryGranule[] }
  | {
      readonly kind: 'union'
      readonly discriminators: Uint8Array
      /** Each row's position in its alternative's column. */
      readonly positions: Int32Array
      readonly alternatives: readonly Column[]
    }
  | { readonly kind: 'null' }
  | { readonly kind: 'values' }

/** The storage kinds, for {@link storageOf}. */
export type StorageKind = ColumnStorage['kind']

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
  /** The column's buffers, as its codec's layout describes them; `values` when it has none to share. */
  storage(): ColumnStorage
}

/** The storage of `column` when it is of `kind`, else undefined. */
export function storageOf<Kind extends StorageKind>(
  column: Column,
  kind: Kind,
): Extract<ColumnStorage, { kind: Kind }> | undefined {
  const storage = column.storage()
  return storage.kind === kind ? (storage as Extract<ColumnStorage, { kind: Kind }>) : undefined
}

/** Bytes per row when every row of the layout takes the same number of bytes (and nothing else is written). */
export function fixedRowWidth(layout: ColumnLayout): number | undefined {
  if (layout.kind === 'fixed' || layout.kind === 'fixed-bytes') return layout.width
  return layout.kind === 'boolean' ? 1 : undefined
}
