import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ValueMapping } from '../types/value-mapping.js'
import type { CodecContext, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { toDays } from './date-time-parsing.js'
import { dateText, maxPrintableDay, minPrintableDay } from './date-time-text.js'
import { fixedWidthBytes, valueError, writeTypedArray } from './fixed-width.js'

/**
 * A decoded Date or Date32 column: the day numbers (days since 1970-01-01) as received,
 * `YYYY-MM-DD` text or a `Date` at UTC midnight made per row on demand. Days outside
 * 0001-01-01..9999-12-31 (only a Date32 can hold them) read as those bounds, the way
 * ClickHouse prints them.
 */
export class DateColumn implements Column<string | Date> {
  constructor(
    readonly type: TypeNode,
    /** Days since 1970-01-01: Uint16Array for Date, Int32Array for Date32. */
    readonly data: Uint16Array | Int32Array,
    readonly dates: ValueMapping['dates'] = 'string',
  ) {}

  get length(): number {
    return this.data.length
  }

  get(row: number): string | Date {
    let days = this.data[row]!
    if (days < minPrintableDay) days = minPrintableDay
    else if (days > maxPrintableDay) days = maxPrintableDay
    return this.dates === 'string' ? dateText(days) : new Date(days * 86400000)
  }

  /** Strings for `dates: 'string'`, `Date` objects for `dates: 'date'`. */
  values(): string[] | Date[] {
    const data = this.data
    const rows = data.length
    if (this.dates === 'string') {
      const texts = new Array<string>(rows)
      for (let row = 0; row < rows; row++) {
        const days = data[row]!
        texts[row] =
          days >= minPrintableDay && days <= maxPrintableDay ? dateText(days) : (this.get(row) as string)
      }
      return texts
    }
    const dates = new Array<Date>(rows)
    for (let row = 0; row < rows; row++) dates[row] = this.get(row) as Date
    return dates
  }

  storage(): ColumnStorage {
    return { kind: 'fixed', data: this.data }
  }
}

/** The TypeScript type of Date, Date32, DateTime and DateTime64 values under the `dates` mapping. */
export function dateTsType(dates: ValueMapping['dates']): string {
  return dates === 'date' ? 'Date' : 'string'
}

/** 1970-01-01 to 2149-06-06. */
const min = 0
const max = 65535

/**
 * Reads and writes Date columns: UInt16 days since 1970-01-01. Writes a `Date` (its UTC
 * day), `YYYY-MM-DD`, a number of days, or a Uint16Array as is.
 */
export function dateCodec(type: TypeNode, context: CodecContext): ColumnCodec<string | Date> {
  const dates = context.mapping.dates
  return {
    type,
    layout: { kind: 'fixed', type, width: 2, array: 'Uint16' },
    insertShape: 'scalar',
    tsType: () => dateTsType(dates),
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): DateColumn {
      const bytes = fixedWidthBytes(reader, rows, 2)
      return new DateColumn(
        type,
        bytes ? new Uint16Array(bytes[0], bytes[1], rows) : new Uint16Array(0),
        dates,
      )
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      if (input instanceof Uint16Array) {
        writeTypedArray(writer, input, rows, 2)
        return
      }
      writer.ensure(rows * 2)
      const view = writer.view
      let offset = writer.offset
      for (let row = 0; row < rows; row++) {
        const days = toDays('Date', row, input[row])
        if (days < min || days > max)
          throw valueError('Date', row, input[row], 'out of range 1970-01-01 to 2149-06-06')
        view.setUint16(offset, days, true)
        offset += 2
      }
      writer.offset = offset
    },
  }
}
