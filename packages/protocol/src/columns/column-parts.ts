import type { ColumnInput } from './column-codec.js'
import type { TypedArray } from './column-layout.js'

function isTypedArray(value: ArrayLike<unknown>): value is TypedArray {
  return ArrayBuffer.isView(value) && !(value instanceof DataView)
}

/**
 * Joins consecutive runs of one column's values: typed arrays of one kind into one typed
 * array (one `set` per part), anything else into one JS array.
 */
export function joinValues(parts: readonly ArrayLike<unknown>[]): ArrayLike<unknown> {
  if (parts.length === 1) return parts[0]!
  const first = parts[0]
  if (first === undefined) return []
  let total = 0
  for (const part of parts) total += part.length
  if (isTypedArray(first) && parts.every((part) => part.constructor === first.constructor)) {
    const Constructor = first.constructor as new (length: number) => TypedArray
    const joined = new Constructor(total)
    let at = 0
    for (const part of parts) {
      ;(joined as { set(array: ArrayLike<unknown>, offset: number): void }).set(part, at)
      at += part.length
    }
    return joined
  }
  const joined = new Array<unknown>(total)
  let at = 0
  for (const part of parts) for (let i = 0; i < part.length; i++) joined[at++] = part[i]
  return joined
}

/**
 * One column's values of a block as consecutive parts, such as the chunks an insert's
 * input came in. A codec whose Native form is its values one after another
 * (`ColumnCodec.concatenable`) encodes the parts in turn; any other gets them joined. So a
 * block built from many small chunks is not first copied into one array per column, which
 * cost a seventh of an ontime insert.
 */
export class ColumnParts {
  /** Rows in all parts. */
  readonly length: number

  constructor(readonly parts: readonly ColumnInput[]) {
    let length = 0
    for (const part of parts) length += part.length
    this.length = length
  }

  /** The values as one array (see {@link joinValues}). */
  join(): ColumnInput {
    return joinValues(this.parts)
  }
}

/** The values of `input`, joined when it comes in parts. */
export function wholeColumn(input: ColumnInput | ColumnParts): ColumnInput {
  return input instanceof ColumnParts ? input.join() : input
}
