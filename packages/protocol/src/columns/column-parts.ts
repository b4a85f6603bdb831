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
 *
 * A part may be a range of a larger array (`starts`/`ends`): a block that begins or ends
 * inside a caller's chunk refers to it instead of holding a copy of the slice (copies of
 * string arrays were most of an ontime insert's allocations and its young-GC time).
 */
export class ColumnParts {
  /** Rows in all parts. */
  readonly length: number

  constructor(
    readonly parts: readonly ColumnInput[],
    /** Where each part's values begin in it (0 for all when absent). */
    readonly starts?: readonly number[],
    /** Where each part's values end in it (its length for all when absent). */
    readonly ends?: readonly number[],
  ) {
    let length = 0
    for (let index = 0; index < parts.length; index++) length += this.endOf(index) - this.startOf(index)
    this.length = length
  }

  /** Where part `index`'s values begin in it. */
  startOf(index: number): number {
    return this.starts?.[index] ?? 0
  }

  /** Where part `index`'s values end in it. */
  endOf(index: number): number {
    return this.ends?.[index] ?? this.parts[index]!.length
  }

  /** Part `index`'s values as an array of their own: a view of a typed array, a copy of a plain one. */
  part(index: number): ColumnInput {
    return sliceInput(this.parts[index]!, this.startOf(index), this.endOf(index))
  }

  /** The values as one array (see {@link joinValues}). */
  join(): ColumnInput {
    if (this.starts === undefined && this.ends === undefined) return joinValues(this.parts)
    return joinValues(this.parts.map((_, index) => this.part(index)))
  }
}

/** `input[start, end)`: itself when that is all of it, a view of a typed array, else a copy. */
export function sliceInput(input: ColumnInput, start: number, end: number): ColumnInput {
  if (start === 0 && end === input.length) return input
  if (isTypedArray(input)) return input.subarray(start, end)
  return Array.prototype.slice.call(input, start, end)
}

/** The values of `input`, joined when it comes in parts. */
export function wholeColumn(input: ColumnInput | ColumnParts): ColumnInput {
  return input instanceof ColumnParts ? input.join() : input
}
