import { UsageError } from '../errors/usage-error.js'
import { type TypeNode, typeNode } from '../types/type-node.js'
import { arrayCodecOf } from './array-column.js'
import type { CodecContext, CodecResolver, ColumnCodec } from './column-codec.js'
import { tupleCodecOf, tupleNames } from './tuple-column.js'

/**
 * Reads and writes Nested(a T1, b T2) sent as one column (servers with
 * `flatten_nested = 0`): the layout of Array(Tuple(a T1, b T2)), each row an array of
 * `{ a, b }` objects. Servers that flatten Nested (18.16, or `flatten_nested = 1`) send
 * separate `n.a Array(T1)` and `n.b Array(T2)` columns, which are plain Arrays.
 */
export function nestedCodec(type: TypeNode, _context: CodecContext, codecFor: CodecResolver): ColumnCodec {
  const names = tupleNames(type)
  if (!names) throw new UsageError(`Nested needs named elements: ${type.name}(name Type, ...)`)
  const elements: ColumnCodec[] = []
  for (const arg of type.args) if (arg.kind === 'type') elements.push(codecFor(arg.type))
  const tuple = tupleCodecOf(typeNode('Tuple', type.args), elements, names)
  return arrayCodecOf(type, tuple)
}
