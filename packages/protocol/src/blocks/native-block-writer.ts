import { codecFor } from '../columns/codec-registry.js'
import type { CodecContext, ColumnCodec, ColumnInput } from '../columns/column-codec.js'
import { ColumnParts, wholeColumn } from '../columns/column-parts.js'
import { locateBadValue, unevenNestedRow } from '../columns/value-location.js'
import { UsageError } from '../errors/usage-error.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { Revision } from '../packets/protocol-revision.js'
import { type TypeNode, typeToString as typeToText } from '../types/type-node.js'
import { parseTypeCached } from '../types/type-parser.js'
import { type BlockInfo, defaultBlockInfo } from './native-block.js'

/** A column to encode: its name, ClickHouse type and one value per row. */
export interface ColumnToWrite {
  readonly name: string
  readonly type: string | TypeNode
  /** One value per row, or consecutive parts of them. */
  readonly values: ColumnInput | ColumnParts
}

/**
 * Encodes one column's values. Parts go to a concatenable codec one by one (no joined
 * copy); any other codec gets them joined.
 */
function encodeValues(
  codec: ColumnCodec,
  writer: ByteWriter,
  values: ColumnInput | ColumnParts,
  rows: number,
) {
  if (!(values instanceof ColumnParts)) {
    codec.encodePrefix(writer, values)
    codec.encode(writer, values, rows)
    return
  }
  if (!codec.concatenable) {
    encodeValues(codec, writer, values.join(), rows)
    return
  }
  let left = rows
  for (let index = 0; index < values.parts.length && left > 0; index++) {
    const from = values.startOf(index)
    const take = Math.min(values.endOf(index) - from, left)
    if (take <= 0) continue
    // A range from the start of its array needs no slice: encode reads its first rows only.
    if (from === 0) codec.encode(writer, values.parts[index]!, take)
    else if (codec.encodeFrom) codec.encodeFrom(writer, values.parts[index]!, from, take)
    else codec.encode(writer, values.part(index), take)
    left -= take
  }
}

/** The text of an error an encoder raised. */
function messageOf(error: unknown): string {
  return (error as Error)?.message ?? String(error)
}

/**
 * Flattened Nested columns (`n.a Array(T1)`, `n.b Array(T2)`: 18.16, `flatten_nested = 1`)
 * by Nested name, when two or more of them are in the block.
 */
function nestedGroups(columns: readonly ColumnToWrite[], codecs: readonly ColumnCodec[]): number[][] {
  const groups = new Map<string, number[]>()
  columns.forEach((column, index) => {
    const dot = column.name.indexOf('.')
    if (dot <= 0 || codecs[index]!.type.name !== 'Array') return
    const name = column.name.slice(0, dot)
    const group = groups.get(name)
    if (group) group.push(index)
    else groups.set(name, [index])
  })
  return [...groups.values()].filter((group) => group.length > 1)
}

/** Writes BlockInfo (revision >= 51903). */
export function writeBlockInfo(writer: ByteWriter, info: BlockInfo = defaultBlockInfo): void {
  writer.varUInt(1)
  writer.u8(info.isOverflows ? 1 : 0)
  writer.varUInt(2)
  writer.i32(info.bucketNumber)
  writer.varUInt(0)
}

/**
 * Encodes Native blocks, keeping one codec per column across blocks of a stream.
 *
 * @example
 * ```ts
 * const writer = new ByteWriter()
 * new NativeBlockWriter(context).write(writer, [{ name: 'x', type: 'UInt8', values: [1, 2] }], 2)
 * ```
 */
export class NativeBlockWriter {
  private codecs = new Map<string, ColumnCodec>()

  constructor(
    readonly context: CodecContext,
    readonly withBlockInfo = context.revision >= Revision.withBlockInfo,
  ) {}

  /** Rows this writer wrote so far: errors name the row of the whole insert, not of the block. */
  private rowsWritten = 0

  /**
   * Appends one block. `afterColumn`, when given, runs after each column's values (a
   * FrameWriter compresses the frames filled so far there).
   */
  write(
    writer: ByteWriter,
    columns: readonly ColumnToWrite[],
    rows: number,
    info?: BlockInfo,
    afterColumn?: () => void,
  ): void {
    const firstRow = this.rowsWritten
    const codecs = columns.map((column) => this.codec(column))
    if (rows > 0) this.checkNested(columns, codecs, rows, firstRow)
    if (this.withBlockInfo) writeBlockInfo(writer, info)
    writer.varUInt(columns.length)
    writer.varUInt(rows)
    for (const [index, column] of columns.entries()) {
      const typeName = typeof column.type === 'string' ? column.type : undefined
      const codec = codecs[index]!
      writer.string(column.name)
      writer.string(typeName ?? typeToText(codec.type))
      if (this.context.revision >= Revision.withCustomSerialization) writer.u8(0)
      if (rows === 0) continue
      if (column.values.length < rows) {
        throw new UsageError(
          `column ${JSON.stringify(column.name)} has ${column.values.length} values, expected ${rows}`,
        )
      }
      try {
        encodeValues(codec, writer, column.values, rows)
      } catch (caught) {
        const where = `column [${index}] ${JSON.stringify(column.name)} ${typeName ?? typeToText(codec.type)}`
        throw new UsageError(
          `${where}: ${this.describeFailure(codec, column.values, rows, firstRow, caught)}`,
          {
            cause: caught,
          },
        )
      }
      afterColumn?.()
    }
    this.rowsWritten += rows
  }

  /**
   * What was wrong, at the row of the whole insert (0-based) and the element path inside a
   * composite value: the codec itself counts rows of its input, which are the block's rows,
   * the part's, or the flattened elements of an Array.
   */
  private describeFailure(
    codec: ColumnCodec,
    values: ColumnInput | ColumnParts,
    rows: number,
    firstRow: number,
    caught: unknown,
  ): string {
    let found: ReturnType<typeof locateBadValue>
    try {
      found = locateBadValue(codec.type, this.context, codecFor, wholeColumn(values), rows)
    } catch {
      found = undefined
    }
    if (found) {
      const path = found.path === '' ? '' : `, element ${found.path}`
      return `row ${firstRow + found.row}${path}: ${found.reason}`
    }
    // No value fails alone (an error about several rows): say which rows the block held.
    const message = messageOf(caught)
    return rows === 1
      ? `row ${firstRow}: ${message}`
      : `in rows ${firstRow}..${firstRow + rows - 1}: ${message}`
  }

  /** Refuses a row whose flattened Nested arrays differ in length (the server would refuse the insert). */
  private checkNested(
    columns: readonly ColumnToWrite[],
    codecs: ColumnCodec[],
    rows: number,
    firstRow: number,
  ) {
    for (const group of nestedGroups(columns, codecs)) {
      const inputs = group.map((index) => wholeColumn(columns[index]!.values))
      const uneven = unevenNestedRow(inputs, rows)
      if (!uneven) continue
      const name = columns[group[0]!]!.name.split('.')[0]!
      const lengths = group.map((index, i) => `${columns[index]!.name} ${uneven.lengths[i]}`).join(', ')
      throw new UsageError(
        `row ${firstRow + uneven.row}: the arrays of Nested ${JSON.stringify(name)} differ in length (${lengths}); each row needs arrays of one length`,
      )
    }
  }

  private codec(column: ColumnToWrite): ColumnCodec {
    const key = `${column.name}\u0000${typeof column.type === 'string' ? column.type : typeToText(column.type)}`
    let codec = this.codecs.get(key)
    if (!codec) {
      const type = typeof column.type === 'string' ? parseTypeCached(column.type) : column.type
      codec = codecFor(type, this.context)
      this.codecs.set(key, codec)
    }
    return codec
  }
}
