import { canonicalTypeText } from '../types/type-aliases.js'
import type { TypeNode } from '../types/type-node.js'
import { parseTypeCached } from '../types/type-parser.js'
import type { CodecContext, CodecResolver, ColumnCodec } from './column-codec.js'
import { sortAlternatives, variantCodecOf } from './variant-column.js'

/** What Geometry is on the wire (the server's Native header of an unnamed Geometry value). */
const geometryVariant = 'Variant(LineString, MultiLineString, MultiPolygon, Point, Polygon, Ring)'

/**
 * Reads and writes Geometry: a Variant of the six geo types, discriminators in name order.
 * Values are the present shape's value (a point, or arrays of them), or null. On write a
 * shape is ambiguous (a Ring is also a LineString): wrap values with `typedValue('Ring', ...)`.
 */
export function geometryCodec(type: TypeNode, _context: CodecContext, codecFor: CodecResolver): ColumnCodec {
  const alternatives = parseTypeCached(geometryVariant).args.flatMap((arg) =>
    arg.kind === 'type' ? [{ name: canonicalTypeText(arg.type), codec: codecFor(arg.type) }] : [],
  )
  // The TypeScript union lists the shapes from a point up: Point, then arrays of points, ...
  const byDepth = ['Point', 'LineString', 'Ring', 'Polygon', 'MultiLineString', 'MultiPolygon'].map(
    (name) => alternatives.find((alternative) => alternative.name === name)!,
  )
  return variantCodecOf(type, sortAlternatives([...alternatives]), byDepth)
}
