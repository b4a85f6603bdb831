import { arrayCodec } from './array-column.js'
import type { CodecFactory, CodecFamily } from './column-codec.js'
import { geoCodecs } from './geo-columns.js'
import { lowCardinalityCodec } from './low-cardinality-column.js'
import { mapCodec } from './map-column.js'
import { nestedCodec } from './nested-column.js'
import { nullableCodec } from './nullable-column.js'
import { rareFamily } from './rare-codec-loader.js'
import { tupleCodec } from './tuple-column.js'

function family(name: string, create: CodecFactory, runtime: string): CodecFamily {
  return { name, create, runtime }
}

/** Codecs of types that wrap or combine other types, by canonical family name, in the order the docs list them. */
export const compositeCodecs: readonly CodecFamily[] = [
  family('Nullable', nullableCodec, 'the inner value or null'),
  family('LowCardinality', lowCardinalityCodec, 'as its inner type'),
  family('Array', arrayCodec, 'a JS array'),
  family('Map', mapCodec, 'a JS Map, entries in wire order'),
  family('Tuple', tupleCodec, 'an array [a, b], or a plain object when the elements are named'),
  family('Nested', nestedCodec, 'an array of plain objects'),
  rareFamily('Variant', 'the value of the present alternative, or null'),
  rareFamily('Dynamic', 'the value decoded by its actual type, or null'),
  rareFamily('JSON', 'a plain object; dotted paths nest'),
  ...geoCodecs,
  rareFamily('Geometry', 'the present shape (a point or arrays of points), or null'),
  rareFamily('QBit', 'an array of numbers (the vector)'),
]
