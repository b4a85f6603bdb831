import { aggregateFunctionCodec } from './aggregate-function-column.js'
import { bfloat16Codec } from './bfloat16-column.js'
import { boolCodec } from './bool-column.js'
import type { CodecFactory } from './column-codec.js'
import { dateCodec } from './date-column.js'
import { dateTimeCodec } from './date-time-column.js'
import { dateTime64Codec } from './date-time64-column.js'
import { date32Codec } from './date32-column.js'
import { decimalCodec } from './decimal-column.js'
import { enumCodec } from './enum-column.js'
import { fixedStringCodec } from './fixed-string-column.js'
import { float32Codec } from './float32-column.gen.js'
import { float64Codec } from './float64-column.gen.js'
import { int8Codec } from './int8-column.gen.js'
import { int16Codec } from './int16-column.gen.js'
import { int32Codec } from './int32-column.gen.js'
import { int64Codec } from './int64-column.gen.js'
import { intervalCodec, intervalUnits } from './interval-column.js'
import { ipv4Codec } from './ipv4-column.js'
import { ipv6Codec } from './ipv6-column.js'
import { nothingCodec } from './nothing-column.js'
import { simpleAggregateFunctionCodec } from './simple-aggregate-function-column.js'
import { stringCodec } from './string-column.js'
import { timeCodec } from './time-column.js'
import { time64Codec } from './time64-column.js'
import { uint8Codec } from './uint8-column.gen.js'
import { uint16Codec } from './uint16-column.gen.js'
import { uint32Codec } from './uint32-column.gen.js'
import { uint64Codec } from './uint64-column.gen.js'
import { uuidCodec } from './uuid-column.js'
import { int128Codec, int256Codec, uint128Codec, uint256Codec } from './wide-integer-column.js'

/** Codecs of types without nested types, by canonical family name. */
export const scalarCodecs: ReadonlyArray<readonly [string, CodecFactory]> = [
  ['Int8', int8Codec],
  ['Int16', int16Codec],
  ['Int32', int32Codec],
  ['Int64', int64Codec],
  ['UInt8', uint8Codec],
  ['UInt16', uint16Codec],
  ['UInt32', uint32Codec],
  ['UInt64', uint64Codec],
  ['Float32', float32Codec],
  ['Float64', float64Codec],
  ['BFloat16', bfloat16Codec],
  ['String', stringCodec],
  ['Int128', int128Codec],
  ['UInt128', uint128Codec],
  ['Int256', int256Codec],
  ['UInt256', uint256Codec],
  ['Bool', boolCodec],
  ['FixedString', fixedStringCodec],
  ['Date', dateCodec],
  ['Date32', date32Codec],
  ['DateTime', dateTimeCodec],
  ['DateTime32', dateTimeCodec],
  ['DateTime64', dateTime64Codec],
  ['Time', timeCodec],
  ['Time64', time64Codec],
  ['Decimal', decimalCodec],
  ['Decimal32', decimalCodec],
  ['Decimal64', decimalCodec],
  ['Decimal128', decimalCodec],
  ['Decimal256', decimalCodec],
  ['UUID', uuidCodec],
  ['IPv4', ipv4Codec],
  ['IPv6', ipv6Codec],
  ['Enum8', enumCodec],
  ['Enum16', enumCodec],
  ['Enum', enumCodec],
  ['Nothing', nothingCodec],
  ...intervalUnits.map((unit) => [`Interval${unit}`, intervalCodec] as const),
  ['AggregateFunction', aggregateFunctionCodec],
  ['SimpleAggregateFunction', simpleAggregateFunctionCodec],
]
