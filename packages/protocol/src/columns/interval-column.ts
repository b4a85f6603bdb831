import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { CodecContext, ColumnCodec, ColumnInput } from './column-codec.js'
import { fixedWidthBytes, toBigInteger, writeTypedArray } from './fixed-width.js'
import { Int64Column } from './int64-column.gen.js'

/** Every Interval family ClickHouse has (18.16 has Second to Year, without Quarter). */
export const intervalUnits = [
  'Nanosecond',
  'Microsecond',
  'Millisecond',
  'Second',
  'Minute',
  'Hour',
  'Day',
  'Week',
  'Month',
  'Quarter',
  'Year',
] as const

const min = -(2n ** 63n)
const max = 2n ** 63n - 1n

/**
 * Reads and writes Interval* columns: an Int64 count of the unit. Decodes to an
 * {@link Int64Column} (values per the `int64` mapping); writes what Int64 accepts.
 */
export function intervalCodec(type: TypeNode, context: CodecContext): ColumnCodec<bigint | number | string> {
  const int64 = context.mapping.int64
  return {
    type,
    layout: { kind: 'fixed', type, width: 8, array: 'BigInt64' },
    insertShape: 'scalar',
    tsType: () => int64,
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): Int64Column {
      const bytes = fixedWidthBytes(reader, rows, 8)
      return new Int64Column(
        type,
        bytes ? new BigInt64Array(bytes[0], bytes[1], rows) : new BigInt64Array(0),
        int64,
      )
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      if (input instanceof BigInt64Array) {
        writeTypedArray(writer, input, rows, 8)
        return
      }
      writer.ensure(rows * 8)
      for (let row = 0; row < rows; row++) writer.i64(toBigInteger(type.name, row, input[row], min, max))
    },
  }
}
