import type { TypeNode } from '../types/type-node.js'
import { typeNode } from '../types/type-node.js'
import { arrayCodecOf } from './array-column.js'
import type { CodecContext, CodecFamily, CodecResolver, ColumnCodec } from './column-codec.js'
import { tupleCodecOf } from './tuple-column.js'

/**
 * The geo types are names for compositions, with the same bytes:
 * Point = Tuple(Float64, Float64) -> [x, y]; Ring and LineString = Array(Point);
 * Polygon and MultiLineString = Array(Ring); MultiPolygon = Array(Polygon).
 */
const composition: Readonly<Record<string, string | undefined>> = {
  Ring: 'Point',
  LineString: 'Point',
  Polygon: 'Ring',
  MultiLineString: 'LineString',
  MultiPolygon: 'Polygon',
}

function geoCodec(type: TypeNode, context: CodecContext, codecFor: CodecResolver): ColumnCodec {
  if (type.name === 'Point') {
    const float64 = codecFor(typeNode('Float64'))
    return tupleCodecOf(type, [float64, float64], undefined)
  }
  const element = composition[type.name]!
  return arrayCodecOf(type, geoCodec(typeNode(element), context, codecFor))
}

const shapes: readonly (readonly [name: string, runtime: string])[] = [
  ['Point', '[x, y]'],
  ['Ring', 'an array of points'],
  ['LineString', 'an array of points'],
  ['Polygon', 'an array of rings'],
  ['MultiLineString', 'an array of line strings'],
  ['MultiPolygon', 'an array of polygons'],
]

/** Codec families of Point, Ring, LineString, Polygon, MultiLineString and MultiPolygon. */
export const geoCodecs: readonly CodecFamily[] = shapes.map(([name, runtime]) => ({
  name,
  create: geoCodec,
  runtime,
}))
