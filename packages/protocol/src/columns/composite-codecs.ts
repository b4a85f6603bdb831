import { arrayCodec } from './array-column.js'
import type { CodecFactory } from './column-codec.js'
import { dynamicCodec } from './dynamic-column.js'
import { geoCodecs } from './geo-columns.js'
import { geometryCodec } from './geometry-column.js'
import { jsonCodec } from './json-column.js'
import { lowCardinalityCodec } from './low-cardinality-column.js'
import { mapCodec } from './map-column.js'
import { nestedCodec } from './nested-column.js'
import { nullableCodec } from './nullable-column.js'
import { qbitCodec } from './qbit-column.js'
import { tupleCodec } from './tuple-column.js'
import { variantCodec } from './variant-column.js'

/** Codecs of types that wrap or combine other types, by canonical family name. */
export const compositeCodecs: ReadonlyArray<readonly [string, CodecFactory]> = [
  ['Nullable', nullableCodec],
  ['Array', arrayCodec],
  ['Tuple', tupleCodec],
  ['Map', mapCodec],
  ['Nested', nestedCodec],
  ['LowCardinality', lowCardinalityCodec],
  ['Variant', variantCodec],
  ['Dynamic', dynamicCodec],
  ['JSON', jsonCodec],
  ...geoCodecs,
  ['Geometry', geometryCodec],
  ['QBit', qbitCodec],
]
