import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { CodecContext, ColumnCodec, ColumnInput } from './column-codec.js'
import { DateColumn, dateTsType } from './date-column.js'
import { toDays } from './date-time-parsing.js'
import { fixedWidthBytes, valueError, writeTypedArray } from './fixed-width.js'

/** 1900-01-01 and 2299-12-31, the range ClickHouse documents (and clamps `toDate32` to). */
const min = -25567
const max = 120529

/**
 * Reads and writes Date32 columns: Int32 days since 1970-01-01. Decodes to a
 * {@link DateColumn}; writes what Date accepts, within 1900-01-01..2299-12-31.
 */
export function date32Codec(type: TypeNode, context: CodecContext): ColumnCodec<string | Date> {
  const dates = context.mapping.dates
  return {
    type,
    layout: { kind: 'fixed', type, width: 4, array: 'Int32' },
    insertShape: 'scalar',
    tsType: () => dateTsType(dates),
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): DateColumn {
      const bytes = fixedWidthBytes(reader, rows, 4)
      return new DateColumn(type, bytes ? new Int32Array(bytes[0], bytes[1], rows) : new Int32Array(0), dates)
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      if (input instanceof Int32Array) {
        for (let row = 0; row < rows; row++) {
          const days = input[row]!
          if (days < min || days > max)
            throw valueError('Date32', row, days, 'out of range 1900-01-01 to 2299-12-31')
        }
        writeTypedArray(writer, input, rows, 4)
        return
      }
      writer.ensure(rows * 4)
      const view = writer.view
      let offset = writer.offset
      for (let row = 0; row < rows; row++) {
        const days = toDays('Date32', row, input[row])
        if (days < min || days > max)
          throw valueError('Date32', row, input[row], 'out of range 1900-01-01 to 2299-12-31')
        view.setInt32(offset, days, true)
        offset += 4
      }
      writer.offset = offset
    },
  }
}
