import {
  type Column,
  type ColumnLayout,
  storageOf,
  type TypedArray,
  type TypeNode,
} from '@clickwire/protocol'
import {
  Binary,
  Bool,
  type DataType,
  DateDay,
  Decimal,
  DurationMicrosecond,
  DurationMillisecond,
  DurationNanosecond,
  DurationSecond,
  FixedSizeBinary,
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  makeData,
  Null,
  TimestampMicrosecond,
  TimestampMillisecond,
  TimestampNanosecond,
  TimestampSecond,
  Uint8,
  Uint16,
  Uint32,
  Uint64,
  Utf8,
} from 'apache-arrow'
import {
  binaryParts,
  packBits,
  scaleTicks,
  signExtendWords,
  toInt32,
  utf8Data,
  widenSigned32,
  widenUnsigned32,
} from './arrow-buffers.js'
import { type ArrowPlan, jsonText, mismatch, numberArgument, stringArgument } from './arrow-plan-support.js'

/** The typed array a fixed-width column is stored in (its `fixed` storage). */
function typedData(column: Column, family: string): TypedArray {
  const storage = storageOf(column, 'fixed')
  if (!storage) throw mismatch(family, column)
  return storage.data
}

/** {@link typedData}, checked to be of the class `kind` the plan was made for. */
function typedDataOf<T extends TypedArray>(
  column: Column,
  family: string,
  kind: abstract new (...args: never[]) => T,
): T {
  const data = typedData(column, family)
  if (!(data instanceof kind)) throw mismatch(family, column)
  return data
}

/** A type whose Arrow buffer is the column's typed array itself: no copy, no per-row work. */
function sharedBuffer(type: DataType, family: string): ArrowPlan {
  return {
    type,
    nullable: false,
    data: (column) => makeData({ type, length: column.length, data: typedData(column, family) } as never),
  }
}

const numericTypes: Readonly<Record<string, () => DataType>> = {
  Int8: () => new Int8(),
  Int16: () => new Int16(),
  Int32: () => new Int32(),
  Int64: () => new Int64(),
  UInt8: () => new Uint8(),
  UInt16: () => new Uint16(),
  UInt32: () => new Uint32(),
  UInt64: () => new Uint64(),
  Float32: () => new Float32(),
  Float64: () => new Float64(),
}

/** Arrow's timestamp/duration unit for a precision of 0, 3, 6 or 9 digits, and the factor to reach it. */
function unitFor(precision: number): { digits: 0 | 3 | 6 | 9; factor: bigint } {
  const digits = precision <= 0 ? 0 : precision <= 3 ? 3 : precision <= 6 ? 6 : 9
  return { digits, factor: 10n ** BigInt(digits - Math.max(0, precision)) }
}

function timestampType(digits: 0 | 3 | 6 | 9, zone: string | null): DataType {
  if (digits === 0) return new TimestampSecond(zone)
  if (digits === 3) return new TimestampMillisecond(zone)
  if (digits === 6) return new TimestampMicrosecond(zone)
  return new TimestampNanosecond(zone)
}

function durationType(digits: 0 | 3 | 6 | 9): DataType {
  if (digits === 0) return new DurationSecond()
  if (digits === 3) return new DurationMillisecond()
  if (digits === 6) return new DurationMicrosecond()
  return new DurationNanosecond()
}

/** Decimal(P, S) and its width aliases: precision and scale as ClickHouse defines them. */
function decimalShape(type: TypeNode): { precision: number; scale: number } {
  const first = numberArgument(type, 0) ?? 0
  switch (type.name) {
    case 'Decimal32':
      return { precision: 9, scale: first }
    case 'Decimal64':
      return { precision: 18, scale: first }
    case 'Decimal128':
      return { precision: 38, scale: first }
    case 'Decimal256':
      return { precision: 76, scale: first }
    default:
      return { precision: first, scale: numberArgument(type, 1) ?? 0 }
  }
}

/** Decimal text of integers of `words` little-endian 64-bit words each (Int128 ... UInt256). */
function wideIntegerTexts(data: BigUint64Array, words: number, signed: boolean): string[] {
  const rows = data.length / words
  const texts = new Array<string>(rows)
  for (let row = 0; row < rows; row++) {
    let value = 0n
    for (let word = words - 1; word >= 0; word--) value = (value << 64n) | data[row * words + word]!
    texts[row] = String(signed ? BigInt.asIntN(words * 64, value) : value)
  }
  return texts
}

/**
 * Plans of the types that hold one value per row (no nested columns), or undefined. The
 * family says what a value means (a Date32 and a Time are both Int32s); the layout its
 * codec declares says where the bytes are.
 */
export function scalarPlan(layout: ColumnLayout, family: string, timezone: string): ArrowPlan | undefined {
  const type = layout.type
  const numeric = numericTypes[family]
  if (numeric) return sharedBuffer(numeric(), family)
  // Interval*: the Int64 count of the unit, as ClickHouse stores it.
  if (family.startsWith('Interval')) return sharedBuffer(new Int64(), family)
  switch (family) {
    case 'BFloat16': {
      // Arrow has no BFloat16; every BFloat16 is exactly a Float32 (its upper half), so the
      // widened bits are the values, nothing rounded.
      const arrowType = new Float32()
      return {
        type: arrowType,
        nullable: false,
        data(column) {
          const bits = typedDataOf(column, family, Uint16Array)
          const wide = new Uint32Array(bits.length)
          for (let row = 0; row < wide.length; row++) wide[row] = bits[row]! << 16
          return makeData({ type: arrowType, length: column.length, data: new Float32Array(wide.buffer) })
        },
      }
    }
    case 'Bool': {
      const arrowType = new Bool()
      return {
        type: arrowType,
        nullable: false,
        data(column) {
          const storage = storageOf(column, 'boolean')
          if (!storage) throw mismatch(family, column)
          return makeData({ type: arrowType, length: column.length, data: packBits(storage.data) })
        },
      }
    }
    case 'String': {
      const arrowType = new Utf8()
      return {
        type: arrowType,
        nullable: false,
        data(column) {
          const storage = storageOf(column, 'bytes')
          if (!storage) throw mismatch(family, column)
          const { data, offsets } = storage.contiguous()
          return makeData({ type: arrowType, length: column.length, data, valueOffsets: offsets })
        },
      }
    }
    case 'FixedString': {
      if (layout.kind !== 'fixed-bytes') return undefined
      const arrowType = new FixedSizeBinary(layout.width)
      return {
        type: arrowType,
        nullable: false,
        data(column) {
          const storage = storageOf(column, 'fixed-bytes')
          if (!storage) throw mismatch(family, column)
          return makeData({ type: arrowType, length: column.length, data: storage.data })
        },
      }
    }
    case 'Date':
    case 'Date32': {
      const arrowType = new DateDay()
      return {
        type: arrowType,
        nullable: false,
        data(column) {
          const days = typedData(column, family) as Uint16Array | Int32Array
          return makeData({ type: arrowType, length: column.length, data: toInt32(days) })
        },
      }
    }
    case 'DateTime':
    case 'DateTime32': {
      const arrowType = timestampType(0, stringArgument(type, 0) ?? timezone)
      return {
        type: arrowType,
        nullable: false,
        data(column) {
          return makeData({
            type: arrowType,
            length: column.length,
            data: widenUnsigned32(typedDataOf(column, family, Uint32Array)),
          } as never)
        },
      }
    }
    case 'DateTime64': {
      const precision = numberArgument(type, 0) ?? 3
      const { digits, factor } = unitFor(precision)
      const arrowType = timestampType(digits, stringArgument(type, 1) ?? timezone)
      return {
        type: arrowType,
        nullable: false,
        data(column) {
          const data = typedDataOf(column, family, BigInt64Array)
          const ticks = factor === 1n ? data : scaleTicks(data, factor)
          return makeData({ type: arrowType, length: column.length, data: ticks } as never)
        },
      }
    }
    case 'Time': {
      const arrowType = durationType(0)
      return {
        type: arrowType,
        nullable: false,
        data(column) {
          return makeData({
            type: arrowType,
            length: column.length,
            data: widenSigned32(typedDataOf(column, family, Int32Array)),
          } as never)
        },
      }
    }
    case 'Time64': {
      const { digits, factor } = unitFor(numberArgument(type, 0) ?? 3)
      const arrowType = durationType(digits)
      return {
        type: arrowType,
        nullable: false,
        data(column) {
          const data = typedDataOf(column, family, BigInt64Array)
          const ticks = factor === 1n ? data : scaleTicks(data, factor)
          return makeData({ type: arrowType, length: column.length, data: ticks } as never)
        },
      }
    }
    case 'Decimal':
    case 'Decimal32':
    case 'Decimal64':
    case 'Decimal128':
    case 'Decimal256': {
      if (layout.kind !== 'fixed') return undefined
      const { precision, scale } = decimalShape(type)
      const bitWidth = precision <= 38 ? 128 : 256
      const arrowType = new Decimal(scale, precision, bitWidth)
      const width = layout.width
      return {
        type: arrowType,
        nullable: false,
        data(column) {
          const data = typedData(column, family)
          const halves = new Int32Array(data.buffer, data.byteOffset, data.byteLength / 4)
          // 16 and 32 bytes are Arrow's own layout; 4 and 8 bytes are sign-extended once.
          const words = width * 8 === bitWidth ? halves : signExtendWords(halves, width / 4, bitWidth / 32)
          return makeData({ type: arrowType, length: column.length, data: words } as never)
        },
      }
    }
    case 'Int128':
    case 'UInt128':
    case 'Int256':
    case 'UInt256': {
      // Arrow has no integer wider than 64 bits: exact decimal text.
      if (layout.kind !== 'fixed') return undefined
      const arrowType = new Utf8()
      const words = layout.width / 8
      const signed = family.startsWith('Int')
      return {
        type: arrowType,
        nullable: false,
        data(column) {
          const data = typedDataOf(column, family, BigUint64Array)
          return utf8Data(wideIntegerTexts(data, words, signed), arrowType)
        },
      }
    }
    case 'UUID':
    case 'IPv4':
    case 'IPv6': {
      // The text rows() gives: Arrow has no UUID or address type of its own.
      const arrowType = new Utf8()
      return {
        type: arrowType,
        nullable: false,
        data: (column) => utf8Data(column.values() as ArrayLike<string>, arrowType),
      }
    }
    case 'AggregateFunction': {
      const arrowType = new Binary()
      return {
        type: arrowType,
        nullable: false,
        data(column) {
          const { offsets, bytes } = binaryParts(column.values() as ArrayLike<Uint8Array>)
          return makeData({ type: arrowType, length: column.length, valueOffsets: offsets, data: bytes })
        },
      }
    }
    case 'Nothing': {
      const arrowType = new Null()
      return {
        type: arrowType,
        nullable: true,
        data: (column) => makeData({ type: arrowType, length: column.length }),
      }
    }
    case 'Dynamic':
    case 'JSON':
    case 'Object': {
      // Values of changing types: JSON text of what rows() gives.
      const arrowType = new Utf8()
      return {
        type: arrowType,
        nullable: true,
        data(column) {
          const values = column.values()
          const texts = new Array<string | null>(column.length)
          for (let row = 0; row < texts.length; row++)
            texts[row] = values[row] == null ? null : jsonText(values[row])
          return utf8Data(texts, arrowType)
        },
      }
    }
    default:
      return undefined
  }
}
