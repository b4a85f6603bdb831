import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ValueMapping } from '../types/value-mapping.js'
import type { CodecContext, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { dateTsType } from './date-column.js'
import { toInstant, writeTicks } from './date-time-parsing.js'
import {
  dateTimeFractionText,
  dateTimeText,
  daysFromCivil,
  fractionText,
  powersOfTen,
  splitTicks,
} from './date-time-text.js'
import { fixedWidthBytes, valueError, writeTypedArray } from './fixed-width.js'
import { type TimeZone, timeZone } from './time-zones.js'
import { integerArgument, stringArgument } from './type-arguments.js'

/** 0000-01-01 00:00:00 and 9999-12-31 23:59:59 as wall-clock seconds: ClickHouse prints times beyond them as these. */
const minPrintable = -62167219200
const maxPrintable = 253402300799

/**
 * A decoded DateTime64(p) column: the Int64 tick counts (10^-p seconds since the epoch) as
 * received. Text is `YYYY-MM-DD hh:mm:ss` on the column's clock plus `.` and exactly p
 * digits; `dates: 'date'` gives a `Date`, truncated to the millisecond.
 */
export class DateTime64Column implements Column<string | Date> {
  private readonly halves: Int32Array
  private readonly split = new Float64Array(2)
  private readonly scale: number

  constructor(
    readonly type: TypeNode,
    /** Ticks of 10^-precision seconds since 1970-01-01 00:00:00 UTC. */
    readonly data: BigInt64Array,
    readonly precision: number,
    readonly timeZone: TimeZone,
    readonly dates: ValueMapping['dates'] = 'string',
  ) {
    // Reading the two 32-bit halves avoids a BigInt per row.
    this.halves = new Int32Array(data.buffer, data.byteOffset, data.length * 2)
    this.scale = powersOfTen[precision]!
  }

  get length(): number {
    return this.data.length
  }

  get(row: number): string | Date {
    const split = this.split
    splitTicks(this.halves[2 * row + 1]!, this.halves[2 * row]! >>> 0, this.scale, split)
    const seconds = split[0]!
    const ticks = split[1]!
    if (this.dates === 'date') {
      const precision = this.precision
      const millis =
        precision >= 3 ? Math.floor(ticks / powersOfTen[precision - 3]!) : ticks * powersOfTen[3 - precision]!
      return new Date(seconds * 1000 + millis)
    }
    let local = seconds + this.timeZone.offsetAt(seconds)
    if (local < minPrintable) local = minPrintable
    else if (local > maxPrintable) local = maxPrintable
    return this.precision === 0
      ? dateTimeText(local)
      : dateTimeFractionText(local, fractionText(ticks, this.precision))
  }

  /** Strings for `dates: 'string'`, `Date` objects for `dates: 'date'`. */
  values(): string[] | Date[] {
    const rows = this.data.length
    const out = new Array<string | Date>(rows)
    for (let row = 0; row < rows; row++) out[row] = this.get(row)
    return out as string[] | Date[]
  }

  storage(): ColumnStorage {
    return { kind: 'fixed', data: this.data }
  }
}

/**
 * Reads and writes DateTime64(p[, 'zone']) columns: Int64 ticks of 10^-p seconds since the
 * epoch. Writes a `Date`, text on the column's clock or ISO 8601 with an offset, a number
 * of seconds (`1577836800.25`; digits past p are dropped, as ClickHouse drops them from
 * text), a bigint of ticks, or a BigInt64Array of ticks. The range is ClickHouse's:
 * 1900-01-01 00:00:00 to 2299-12-31 23:59:59.999999999 on the column's clock (and the
 * Int64 limit, 2262-04-11 23:47:16.854775807 UTC, for p = 9).
 */
export function dateTime64Codec(type: TypeNode, context: CodecContext): ColumnCodec<string | Date> {
  const precision = integerArgument(type, 0, 0, 9, 'precision')
  const zone = timeZone(stringArgument(type) ?? context.timezone)
  const dates = context.mapping.dates
  const scale = powersOfTen[precision]!
  const bigScale = BigInt(scale)
  const minSeconds = zone.utcOf(daysFromCivil(1900, 1, 1) * 86400)
  let maxSeconds = zone.utcOf(daysFromCivil(2299, 12, 31) * 86400 + 86399)
  let maxTicks = scale - 1
  if (precision === 9 && maxSeconds >= 9223372036) {
    maxSeconds = 9223372036
    maxTicks = 854775807
  }
  const minBig = BigInt(minSeconds) * bigScale
  const maxBig = BigInt(maxSeconds) * bigScale + BigInt(maxTicks)
  const typeName = `DateTime64(${precision})`
  const range = 'out of range 1900-01-01 00:00:00 to 2299-12-31 23:59:59'
  return {
    type,
    layout: { kind: 'fixed', type, width: 8, array: 'BigInt64' },
    insertShape: 'scalar',
    tsType: () => dateTsType(dates),
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): DateTime64Column {
      const bytes = fixedWidthBytes(reader, rows, 8)
      const data = bytes ? new BigInt64Array(bytes[0], bytes[1], rows) : new BigInt64Array(0)
      return new DateTime64Column(type, data, precision, zone, dates)
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      if (input instanceof BigInt64Array) {
        for (let row = 0; row < rows; row++) {
          const ticks = input[row]!
          if (ticks < minBig || ticks > maxBig) throw valueError(typeName, row, ticks, range)
        }
        writeTypedArray(writer, input, rows, 8)
        return
      }
      writer.ensure(rows * 8)
      const view = writer.view
      let offset = writer.offset
      for (let row = 0; row < rows; row++) {
        const value = input[row]
        const { seconds, ticks } = toInstant(typeName, row, value, zone, precision, true)
        if (!(seconds >= minSeconds && seconds <= maxSeconds) || (seconds === maxSeconds && ticks > maxTicks))
          throw valueError(typeName, row, value, range)
        writeTicks(view, offset, seconds, scale, ticks)
        offset += 8
      }
      writer.offset = offset
    },
  }
}
