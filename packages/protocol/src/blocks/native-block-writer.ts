import { codecFor } from '../columns/codec-registry.js'
import type { CodecContext, ColumnCodec, ColumnInput } from '../columns/column-codec.js'
import { ColumnParts } from '../columns/column-parts.js'
import { ClickwireError } from '../errors/clickwire-error.js'
import { UsageError } from '../errors/usage-error.js'
import { ByteWriter } from '../io/byte-writer.js'
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
  for (const part of values.parts) {
    if (left === 0) break
    const take = Math.min(part.length, left)
    if (take > 0) codec.encode(writer, part, take)
    left -= take
  }
}

/**
 * The error encoding `parts` raised counts rows from the start of a part: encoding the
 * joined column again (into scratch memory) names the row of the whole column.
 */
function wholeColumnError(codec: ColumnCodec, parts: ColumnParts, rows: number, caught: unknown): unknown {
  try {
    codec.encode(new ByteWriter(1024), parts.join(), rows)
  } catch (exact) {
    return exact
  }
  return caught
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

  write(writer: ByteWriter, columns: readonly ColumnToWrite[], rows: number, info?: BlockInfo): void {
    if (this.withBlockInfo) writeBlockInfo(writer, info)
    writer.varUInt(columns.length)
    writer.varUInt(rows)
    for (const [index, column] of columns.entries()) {
      const typeName = typeof column.type === 'string' ? column.type : undefined
      const codec = this.codec(column)
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
        const error =
          column.values instanceof ColumnParts ? wholeColumnError(codec, column.values, rows, caught) : caught
        const where = `column [${index}] ${JSON.stringify(column.name)} ${typeName ?? typeToText(codec.type)}`
        if (ClickwireError.isInstance(error))
          throw new UsageError(`${where}: ${error.message}`, { cause: error })
        throw new UsageError(`${where}: ${(error as Error)?.message ?? String(error)}`, { cause: error })
      }
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
