import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { toTimeOfDay } from './date-time-parsing.js'
import { twoDigits } from './date-time-text.js'
import { fixedWidthBytes, valueError, writeTypedArray } from './fixed-width.js'

/** 999:59:59, the largest magnitude ClickHouse prints (it prints larger ones as this). */
export const maxTimeSeconds = 3599999

/**
 * Time text as ClickHouse prints it: `-` for negative values, hours with at least two
 * digits, minutes, seconds; `wholeSeconds` is the magnitude and saturates at 999:59:59.
 */
export function timeText(negative: boolean, wholeSeconds: number): string {
  const seconds = Math.min(wholeSeconds, maxTimeSeconds)
  const hours = Math.floor(seconds / 3600)
  const rest = seconds - hours * 3600
  const minutes = Math.floor(rest / 60)
  const text = `${hours < 100 ? twoDigits[hours] : String(hours)}:${twoDigits[minutes]}:${twoDigits[rest - minutes * 60]}`
  return negative ? `-${text}` : text
}

/** A decoded Time column: Int32 seconds as received; text like `12:34:56` or `-100:00:00` (both date modes). */
export class TimeColumn implements Column<string> {
  constructor(
    readonly type: TypeNode,
    /** Signed seconds. */
    readonly data: Int32Array,
  ) {}

  get length(): number {
    return this.data.length
  }

  get(row: number): string {
    const seconds = this.data[row]!
    return seconds < 0 ? timeText(true, -seconds) : timeText(false, seconds)
  }

  values(): string[] {
    const rows = this.data.length
    const texts = new Array<string>(rows)
    for (let row = 0; row < rows; row++) texts[row] = this.get(row)
    return texts
  }

  storage(): ColumnStorage {
    return { kind: 'fixed', data: this.data }
  }
}

/**
 * Reads and writes Time columns: Int32 seconds, -999:59:59 to 999:59:59. Writes
 * `[-]h:mm:ss` text, a number (or bigint) of seconds, or an Int32Array as is.
 */
export function timeCodec(type: TypeNode): ColumnCodec<string> {
  return {
    type,
    layout: { kind: 'fixed', type, width: 4, array: 'Int32' },
    insertShape: 'scalar',
    tsType: () => 'string',
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): TimeColumn {
      const bytes = fixedWidthBytes(reader, rows, 4)
      return new TimeColumn(type, bytes ? new Int32Array(bytes[0], bytes[1], rows) : new Int32Array(0))
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      if (input instanceof Int32Array) {
        writeTypedArray(writer, input, rows, 4)
        return
      }
      writer.ensure(rows * 4)
      const view = writer.view
      let offset = writer.offset
      for (let row = 0; row < rows; row++) {
        const value = input[row]
        const seconds = toTimeOfDay('Time', row, value, 0, false).seconds
        if (!(seconds >= -maxTimeSeconds && seconds <= maxTimeSeconds))
          throw valueError('Time', row, value, 'out of range -999:59:59 to 999:59:59')
        view.setInt32(offset, seconds, true)
        offset += 4
      }
      writer.offset = offset
    },
  }
}
