import type { CodecFactory } from './column-codec.js'
import { float32Codec } from './float32-column.gen.js'
import { float64Codec } from './float64-column.gen.js'
import { int8Codec } from './int8-column.gen.js'
import { int16Codec } from './int16-column.gen.js'
import { int32Codec } from './int32-column.gen.js'
import { int64Codec } from './int64-column.gen.js'
import { stringCodec } from './string-column.js'
import { uint8Codec } from './uint8-column.gen.js'
import { uint16Codec } from './uint16-column.gen.js'
import { uint32Codec } from './uint32-column.gen.js'
import { uint64Codec } from './uint64-column.gen.js'

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
  ['String', stringCodec],
]
