import { boolCodec } from './bool-column.js'
import type { CodecFactory, CodecFamily } from './column-codec.js'
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
import { rareFamily } from './rare-codec-loader.js'
import { simpleAggregateFunctionCodec } from './simple-aggregate-function-column.js'
import { stringCodec } from './string-column.js'
import { uint8Codec } from './uint8-column.gen.js'
import { uint16Codec } from './uint16-column.gen.js'
import { uint32Codec } from './uint32-column.gen.js'
import { uint64Codec } from './uint64-column.gen.js'
import { uuidCodec } from './uuid-column.js'
import { int128Codec, int256Codec, uint128Codec, uint256Codec } from './wide-integer-column.js'

function family(name: string, create: CodecFactory, runtime: string): CodecFamily {
  return { name, create, runtime }
}

const wide = 'bigint, number or decimal string, per the int64 option'
const dates = "'YYYY-MM-DD', or a Date at UTC midnight with dates: 'date'"
const decimals = "exact text with S fraction digits, or a number with decimal: 'number'"

/**
 * Codecs of types without nested types (and the aggregate function wrappers), by canonical
 * family name, in the order the docs list them.
 */
export const scalarCodecs: readonly CodecFamily[] = [
  family('Int8', int8Codec, 'number'),
  family('Int16', int16Codec, 'number'),
  family('Int32', int32Codec, 'number'),
  family('UInt8', uint8Codec, 'number'),
  family('UInt16', uint16Codec, 'number'),
  family('UInt32', uint32Codec, 'number'),
  family('Float32', float32Codec, 'number'),
  family('Float64', float64Codec, 'number'),
  rareFamily('BFloat16', 'number'),
  family('Int64', int64Codec, wide),
  family('UInt64', uint64Codec, wide),
  family('Int128', int128Codec, wide),
  family('UInt128', uint128Codec, wide),
  family('Int256', int256Codec, wide),
  family('UInt256', uint256Codec, wide),
  ...intervalUnits.map((unit) => family(`Interval${unit}`, intervalCodec, wide)),
  family('Bool', boolCodec, 'boolean'),
  family('String', stringCodec, 'string (UTF-8; invalid bytes become U+FFFD)'),
  family('FixedString', fixedStringCodec, 'string of all N bytes, trailing NULs kept'),
  family('Date', dateCodec, dates),
  family('Date32', date32Codec, dates),
  ...['DateTime', 'DateTime32'].map((name) =>
    family(name, dateTimeCodec, "'YYYY-MM-DD hh:mm:ss' on the column's clock, or a Date with dates: 'date'"),
  ),
  family(
    'DateTime64',
    dateTime64Codec,
    "'YYYY-MM-DD hh:mm:ss.fff' with exactly p digits, or a Date (ms) with dates: 'date'",
  ),
  rareFamily('Time', "'[-]hh:mm:ss' as ClickHouse prints it"),
  rareFamily('Time64', "'[-]hh:mm:ss.fff' as ClickHouse prints it"),
  ...['Decimal', 'Decimal32', 'Decimal64', 'Decimal128', 'Decimal256'].map((name) =>
    family(name, decimalCodec, decimals),
  ),
  family('UUID', uuidCodec, "lowercase 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'"),
  family('IPv4', ipv4Codec, "'1.2.3.4'"),
  family('IPv6', ipv6Codec, "compressed text, IPv4-mapped as '::ffff:1.2.3.4'"),
  ...['Enum8', 'Enum16', 'Enum'].map((name) => family(name, enumCodec, 'the element name')),
  family('Nothing', nothingCodec, 'null'),
  rareFamily('AggregateFunction', 'Uint8Array holding one serialized state (opaque)'),
  family('SimpleAggregateFunction', simpleAggregateFunctionCodec, 'as its value type'),
]
