import { codecFor } from '../columns/codec-registry.js'
import type { CodecContext, ColumnCodec } from '../columns/column-codec.js'
import { type ColumnLayout, fixedRowWidth } from '../columns/column-layout.js'
import { codecsPending } from '../columns/rare-codec-loader.js'
import {
  isDefaultKinds,
  kindsKey,
  readSerializationKinds,
  type SerializationKinds,
} from '../columns/serialization-kinds.js'
import { ClickwireError } from '../errors/clickwire-error.js'
import { ProtocolError } from '../errors/protocol-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import { Revision } from '../packets/protocol-revision.js'
import { parseTypeCached } from '../types/type-parser.js'
import { defaultMaxBlockBytes } from './block-size-limit.js'
import { type BlockColumn, type BlockInfo, defaultBlockInfo, type NativeBlock } from './native-block.js'

/** Largest column count / row count accepted in one block before the input is taken as malformed. */
const maxColumns = 1_000_000
const maxRows = 0x7fff_ffff
/** Two-level aggregation has 256 buckets; ClickHouse caps the list at 65536 (MAX_OUT_OF_ORDER_BUCKETS). */
const maxOutOfOrderBuckets = 65_536

/** Reads BlockInfo: numbered fields ending with field 0. */
export function readBlockInfo(reader: ByteReader): BlockInfo {
  let isOverflows = false
  let bucketNumber = -1
  for (;;) {
    const field = reader.varUInt()
    if (reader.short) return defaultBlockInfo
    if (field === 0) return { isOverflows, bucketNumber }
    if (field === 1) isOverflows = reader.u8() !== 0
    else if (field === 2) bucketNumber = reader.i32()
    else if (field === 3) {
      // Revision >= 54480: out_of_order_buckets, a VarUInt count of Int32 bucket ids (servers
      // write it, empty, on every block); only distributed aggregation uses the ids.
      const count = reader.varUInt()
      if (count > maxOutOfOrderBuckets) throw new ProtocolError(`${count} out-of-order buckets in BlockInfo`)
      for (let i = 0; i < count && !reader.short; i++) reader.i32()
    } else throw new ProtocolError(`unknown BlockInfo field ${field}`)
  }
}

/** A block cut short: its header and the columns before `next`, which starts at `offset`. */
interface PartialBlock {
  readonly bytes: Uint8Array
  /** Where the block starts in `bytes`. */
  readonly start: number
  /** How far the input went: a later attempt must see at least as much. */
  readonly limit: number
  readonly offset: number
  readonly next: number
  readonly info: BlockInfo
  readonly rows: number
  readonly columns: BlockColumn[]
}

/**
 * Decodes Native blocks of one stream. It keeps a codec per column from block to block,
 * so state such as a LowCardinality dictionary can carry over.
 *
 * `read` returns undefined when the input is short (see {@link ByteReader.missing}); call
 * it again from the same start with more input. Malformed input throws ProtocolError
 * naming the column.
 */
export class NativeBlockReader {
  /** Per column: the codec of its name, type and serialization kinds (a server may change them between blocks). */
  private codecs: { name: string; typeName: string; layout: string; codec: ColumnCodec }[] = []
  /** What the last short attempt decoded (see {@link resume}). */
  private partial: PartialBlock | undefined

  constructor(
    readonly context: CodecContext,
    /** Whether blocks carry BlockInfo: the native protocol does, the Native format over HTTP does not. */
    readonly withBlockInfo = context.revision >= Revision.withBlockInfo,
    /** The most bytes a block may take (see {@link defaultMaxBlockBytes}). */
    readonly maxBlockBytes = defaultMaxBlockBytes,
  ) {}

  read(reader: ByteReader): NativeBlock | undefined {
    const start = reader.offset
    const resumed = this.resume(reader)
    this.partial = undefined
    try {
      const block = this.readFrom(reader, resumed)
      // A short read says how far its input must reach (a string's length, rows × width),
      // and the caller takes memory for it only on its next attempt: checked once per
      // attempt, not per value, before any of it is taken.
      this.check((block ? reader.offset : reader.missing) - start)
      return block
    } catch (error) {
      this.partial = undefined
      throw error
    }
  }

  /**
   * The columns a short attempt at this same block already decoded, when `reader` starts
   * where that attempt started, in the same bytes, with at least as much input: an input
   * that grows chunk by chunk is then decoded once, not once per attempt (an HTTP body of
   * ontime rows arrives in 64 KiB chunks, and blocks are tens of MiB).
   */
  private resume(reader: ByteReader): PartialBlock | undefined {
    const partial = this.partial
    if (
      partial === undefined ||
      partial.bytes !== reader.bytes ||
      partial.start !== reader.offset ||
      reader.limit < partial.limit
    )
      return undefined
    reader.offset = partial.offset
    return partial
  }

  private readFrom(reader: ByteReader, resumed: PartialBlock | undefined): NativeBlock | undefined {
    const start = reader.offset
    let info: BlockInfo
    let rows: number
    let columns: BlockColumn[]
    let first = 0
    if (resumed) {
      ;({ info, rows, columns } = resumed)
      first = resumed.next
    } else {
      info = this.withBlockInfo ? readBlockInfo(reader) : defaultBlockInfo
      const columnCount = reader.varUInt()
      rows = reader.varUInt()
      if (reader.short) return undefined
      if (columnCount > maxColumns) throw new ProtocolError(`block with ${columnCount} columns`)
      if (rows > maxRows) throw new ProtocolError(`block with ${rows} rows`)
      // A server's block without columns has no rows (ClickHouse's Block::rows() is 0 then).
      // Rows no column holds would cost no bytes to announce, yet every consumer that builds
      // one object per row (rowObjects) would run out of memory, which kills the process.
      if (columnCount === 0 && rows > 0) throw new ProtocolError(`block with ${rows} rows and no columns`)
      // Every column takes at least a byte per row once decoded, even one whose rows cost
      // nothing on the wire (sparse defaults).
      this.check(rows * columnCount)
      columns = new Array(columnCount)
    }
    const columnCount = columns.length
    for (let index = first; index < columnCount; index++) {
      const columnStart = reader.offset
      const name = reader.string()
      const typeName = reader.string()
      let kinds: SerializationKinds | undefined
      if (this.context.revision >= Revision.withCustomSerialization) {
        // has_custom, then (NativeReader: deserializeFromKindsBinary) the kinds of the column and its parts.
        const custom = reader.u8()
        if (custom !== 0 && !reader.short) {
          try {
            kinds = readSerializationKinds(reader, parseTypeCached(typeName))
          } catch (error) {
            throw columnError(error, index, name, typeName)
          }
          if (kinds && isDefaultKinds(kinds)) kinds = undefined
        }
      }
      if (reader.short)
        return this.stopAt(reader, resumed?.start ?? start, columnStart, index, info, rows, columns)
      const codec = this.codecAt(index, name, typeName, kinds)
      // A sparse column is rebuilt dense: rows × width bytes that the wire never carried.
      if (kinds) this.check(reader.offset - (resumed?.start ?? start) + rows * denseWidth(codec.layout))
      try {
        if (rows > 0) {
          codec.decodePrefix(reader)
          if (reader.short)
            return this.stopAt(reader, resumed?.start ?? start, columnStart, index, info, rows, columns)
        }
        if (index === columnCount - 1 && codec.fixedWidth !== undefined && reader.ownsInput) {
          reader.movableFrom = columnStart
          reader.movableAt = reader.offset
        }
        const column = codec.decode(reader, rows)
        reader.movableAt = -1
        if (reader.short)
          return this.stopAt(reader, resumed?.start ?? start, columnStart, index, info, rows, columns)
        if (column.length !== rows) {
          throw new ProtocolError(`decoded ${column.length} values, expected ${rows}`)
        }
        columns[index] = { name, typeName, type: codec.type, column }
      } catch (error) {
        throw columnError(error, index, name, typeName)
      }
    }
    return { info, rows, columns }
  }

  private check(size: number): void {
    if (size > this.maxBlockBytes)
      throw new ProtocolError(
        `a block of at least ${size} bytes is over maxBlockBytes (${this.maxBlockBytes})`,
      )
  }

  /** Remembers what a short attempt decoded (see {@link resume}); returns undefined for it. */
  private stopAt(
    reader: ByteReader,
    start: number,
    offset: number,
    next: number,
    info: BlockInfo,
    rows: number,
    columns: BlockColumn[],
  ): undefined {
    this.partial = { bytes: reader.bytes, start, limit: reader.limit, offset, next, info, rows, columns }
    return undefined
  }

  private codecAt(
    index: number,
    name: string,
    typeName: string,
    kinds: SerializationKinds | undefined,
  ): ColumnCodec {
    const layout = kinds ? kindsKey(kinds) : ''
    const known = this.codecs[index]
    if (known && known.name === name && known.typeName === typeName && known.layout === layout)
      return known.codec
    let codec: ColumnCodec
    try {
      codec = codecFor(parseTypeCached(typeName), this.context, kinds)
    } catch (error) {
      // The caller awaits the load and reads this block again from its start.
      if (codecsPending(error)) throw error
      throw columnError(error, index, name, typeName)
    }
    this.codecs[index] = { name, typeName, layout, codec }
    return codec
  }
}

/** Bytes per row of a column's dense form, at least 1 (what a sparse column is rebuilt into). */
function denseWidth(layout: ColumnLayout): number {
  return layout.kind === 'nullable' ? 1 + denseWidth(layout.inner) : (fixedRowWidth(layout) ?? 1)
}

function columnError(error: unknown, index: number, name: string, typeName: string): Error {
  const where = `column [${index}] ${JSON.stringify(name)} ${typeName}`
  if (ProtocolError.isInstance(error)) return new ProtocolError(error.message, { cause: error, path: where })
  if (ClickwireError.isInstance(error))
    return new ProtocolError(`${where}: ${error.message}`, { cause: error })
  // A RangeError or TypeError from a codec means it met input it did not expect.
  return new ProtocolError(`cannot decode: ${(error as Error)?.message ?? String(error)}`, {
    cause: error,
    path: where,
  })
}
