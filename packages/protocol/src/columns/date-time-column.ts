import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ValueMapping } from '../types/value-mapping.js'
import type { CodecContext, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { dateTsType } from './date-column.js'
import { toInstant } from './date-time-parsing.js'
import { dateTimeText } from './date-time-text.js'
import { fixedWidthBytes, valueError, writeTypedArray } from './fixed-width.js'
import { type TimeZone, timeZone } from './time-zones.js'
import { stringArgument } from './type-arguments.js'

/**
 * A decoded DateTime column: the UInt32 seconds since the epoch as received. Text is
 * `YYYY-MM-DD hh:mm:ss` on the column's clock (its own zone, else the server's), built per
 * row on demand from cached day and second texts; `dates: 'date'` gives the instant as a
 * `Date`.
 */
export class DateTimeColumn implements Column<string | Date> {
  constructor(
    readonly type: TypeNode,
    /** Seconds since 1970-01-01 00:00:00 UTC. */
    readonly data: Uint32Array,
    readonly timeZone: TimeZone,
    readonly dates: ValueMapping['dates'] = 'string',
  ) {}

  get length(): number {
    return this.data.length
  }

  get(row: number): string | Date {
    const seconds = this.data[row]!
    if (this.dates === 'date') return new Date(seconds * 1000)
    return dateTimeText(seconds + this.timeZone.offsetAt(seconds))
  }

  /** Strings for `dates: 'string'`, `Date` objects for `dates: 'date'`. */
  values(): string[] | Date[] {
    const data = this.data
    const rows = data.length
    if (this.dates === 'date') {
      const instants = new Array<Date>(rows)
      for (let row = 0; row < rows; row++) instants[row] = new Date(data[row]! * 1000)
      return instants
    }
    const texts = new Array<string>(rows)
    const zone = this.timeZone
    const fixed = zone.fixedOffset
    if (fixed !== undefined) {
      for (let row = 0; row < rows; row++) texts[row] = dateTimeText(data[row]! + fixed)
    } else {
      for (let row = 0; row < rows; row++) {
        const seconds = data[row]!
        texts[row] = dateTimeText(seconds + zone.offsetAt(seconds))
      }
    }
    return texts
  }

  storage(): ColumnStorage {
    return { kind: 'fixed', data: this.data }
  }
}

const max = 4294967295

/**
 * Reads and writes DateTime and DateTime('zone') columns: UInt32 seconds since the epoch.
 * Writes a `Date` (floored to the second), text on the column's clock or ISO 8601 with an
 * offset, a number or bigint of seconds, or a Uint32Array as is; 1970-01-01 00:00:00 UTC
 * to 2106-02-07 06:28:15 UTC.
 */
export function dateTimeCodec(type: TypeNode, context: CodecContext): ColumnCodec<string | Date> {
  const zone = timeZone(stringArgument(type) ?? context.timezone)
  const dates = context.mapping.dates
  return {
    type,
    layout: { kind: 'fixed', type, width: 4, array: 'Uint32' },
    insertShape: 'scalar',
    tsType: () => dateTsType(dates),
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): DateTimeColumn {
      const bytes = fixedWidthBytes(reader, rows, 4)
      const data = bytes ? new Uint32Array(bytes[0], bytes[1], rows) : new Uint32Array(0)
      return new DateTimeColumn(type, data, zone, dates)
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      if (input instanceof Uint32Array) {
        writeTypedArray(writer, input, rows, 4)
        return
      }
      writer.ensure(rows * 4)
      const view = writer.view
      let offset = writer.offset
      for (let row = 0; row < rows; row++) {
        const value = input[row]
        const seconds =
          typeof value === 'number' && Number.isInteger(value)
            ? value
            : toInstant('DateTime', row, value, zone, 0, false).seconds
        if (!(seconds >= 0 && seconds <= max))
          throw valueError(
            'DateTime',
            row,
            value,
            'out of range 1970-01-01 00:00:00 to 2106-02-07 06:28:15 UTC',
          )
        view.setUint32(offset, seconds, true)
        offset += 4
      }
      writer.offset = offset
    },
  }
}
