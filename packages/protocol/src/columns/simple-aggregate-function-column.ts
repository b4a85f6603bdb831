import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { type TypeNode, typeArguments, typeToString } from '../types/type-node.js'
import type { CodecContext, CodecResolver, Column, ColumnCodec, ColumnInput } from './column-codec.js'

/**
 * Reads and writes SimpleAggregateFunction(f, T) columns: they are stored exactly as T,
 * so this is T's codec under the wrapper's name. Decoded columns are T's columns (their
 * `type` is T).
 */
export function simpleAggregateFunctionCodec(
  type: TypeNode,
  _context: CodecContext,
  codecFor: CodecResolver,
): ColumnCodec {
  const inner = typeArguments(type)[0]
  if (!inner) throw new UsageError(`${typeToString(type)}: missing the value type`)
  const codec = codecFor(inner)
  return {
    type,
    // Stored exactly as T: T's layout, shape and values.
    layout: codec.layout,
    insertShape: codec.insertShape,
    tsType: (unsupported) => codec.tsType(unsupported),
    decodePrefix(reader: ByteReader): void {
      codec.decodePrefix(reader)
    },
    decode(reader: ByteReader, rows: number): Column {
      return codec.decode(reader, rows)
    },
    encodePrefix(writer: ByteWriter, input: ColumnInput): void {
      codec.encodePrefix(writer, input)
    },
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      codec.encode(writer, input, rows)
    },
  }
}
