import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { toTimeOfDay, writeTicks } from './date-time-parsing.js'
import { fractionText, powersOfTen, splitTicks } from './date-time-text.js'
import { fixedWidthBytes, valueError, writeTypedArray } from './fixed-width.js'
import { maxTimeSeconds, timeText } from './time-column.js'
import { integerArgument } from './type-arguments.js'

/**
 * A decoded Time64(p) column: Int64 ticks of 10^-p seconds as received. Text as ClickHouse
 * prints it: sign, the magnitude's `hh:mm:ss` (saturating at 999:59:59) and exactly p
 * fraction digits, e.g. `-00:00:00.500`. Both date modes give this text.
 */
export class Time64Column implements Column<string> {
  private readonly halves: Int32Array
  private readonly split = new Float64Array(2)
  private readonly scale: number

  constructor(
    readonly type: TypeNode,
    /** Signed ticks of 10^-precision seconds. */
    readonly data: BigInt64Array,
    readonly precision: number,
  ) {
    this.halves = new Int32Array(data.buffer, data.byteOffset, data.length * 2)
    this.scale = powersOfTen[precision]!
  }

  get length(): number {
    return this.data.length
  }

  get(row: number): string {
    let high = this.halves[2 * row + 1]!
    let low = this.halves[2 * row]! >>> 0
    const negative = high < 0
    if (negative) {
      // The magnitude of a two's complement Int64, as two non-negative halves.
      high = ~high + (low === 0 ? 1 : 0)
      low = low === 0 ? 0 : 4294967296 - low
    }
    splitTicks(high, low, this.scale, this.split)
    const text = timeText(negative, this.split[0]!)
    return this.precision === 0 ? text : `${text}.${fractionText(this.split[1]!, this.precision)}`
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
 * Reads and writes Time64(p) columns: Int64 ticks, within ±999:59:59.999999999. Writes
 * `[-]h:mm:ss[.fff]` text (digits past p dropped), a number of seconds, a bigint of ticks,
 * or a BigInt64Array of ticks.
 */
export function time64Codec(type: TypeNode): ColumnCodec<string> {
  const precision = integerArgument(type, 0, 0, 9, 'precision')
  const scale = powersOfTen[precision]!
  const limit = BigInt(maxTimeSeconds + 1) * BigInt(scale)
  const typeName = `Time64(${precision})`
  const range = 'out of range -999:59:59 to 999:59:59'
  return {
    type,
    layout: { kind: 'fixed', type, width: 8, array: 'BigInt64' },
    insertShape: 'scalar',
    tsType: () => 'string',
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): Time64Column {
      const bytes = fixedWidthBytes(reader, rows, 8)
      const data = bytes ? new BigInt64Array(bytes[0], bytes[1], rows) : new BigInt64Array(0)
      return new Time64Column(type, data, precision)
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      if (input instanceof BigInt64Array) {
        for (let row = 0; row < rows; row++) {
          const ticks = input[row]!
          if (ticks <= -limit || ticks >= limit) throw valueError(typeName, row, ticks, range)
        }
        writeTypedArray(writer, input, rows, 8)
        return
      }
      writer.ensure(rows * 8)
      const view = writer.view
      let offset = writer.offset
      for (let row = 0; row < rows; row++) {
        const value = input[row]
        const { seconds, ticks } = toTimeOfDay(typeName, row, value, precision, true)
        const tooLow = seconds < -maxTimeSeconds - 1 || (seconds === -maxTimeSeconds - 1 && ticks === 0)
        if (tooLow || !(seconds <= maxTimeSeconds)) throw valueError(typeName, row, value, range)
        writeTicks(view, offset, seconds, scale, ticks)
        offset += 8
      }
      writer.offset = offset
    },
  }
}
