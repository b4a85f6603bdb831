import { type ColumnInput, canonicalTypeName, type TypeNode, typeArguments } from '@clickwire/protocol'
import type { Data, DataType, Vector } from 'apache-arrow'

// No runtime import of apache-arrow: the caller's table brings its own (whatever its
// version or copy), so an insert never loads ours. `Type` holds the ids apache-arrow's
// enum gives (Arrow's Schema.fbs numbering, fixed by the format), and vectors are made
// with the constructor of the caller's own column.
const Type = {
  Dictionary: -1,
  Int: 2,
  Float: 3,
  Decimal: 7,
  Date: 8,
  Timestamp: 10,
  List: 12,
  Struct: 13,
  FixedSizeList: 16,
  Map: 17,
  Duration: 18,
  LargeList: 21,
} as const

/** Wraps one chunk in a Vector of the caller's apache-arrow; set by {@link arrowColumnValues}. */
let makeVector: (data: Data) => Vector = () => {
  throw new Error('arrowColumnValues sets makeVector before converting')
}

/**
 * Arrow columns turned into what the column encoders take, for `insert`. Numbers without
 * nulls stay typed arrays (no copy for a one-chunk column); time values go as exact text
 * (`seconds.fraction`), which every DateTime/DateTime64/Time encoder reads without loss;
 * decimals as exact text; lists, structs and maps as JS arrays, arrays and Maps.
 */

/** The type the encoder will see once wrappers are taken off. */
function unwrap(target: TypeNode | undefined): TypeNode | undefined {
  let node = target
  while (node) {
    const family = canonicalTypeName(node.name)
    if (family === 'Nullable' || family === 'LowCardinality') node = typeArguments(node)[0]
    else if (family === 'SimpleAggregateFunction') node = typeArguments(node)[0]
    else return node
  }
  return undefined
}

function familyOf(target: TypeNode | undefined): string {
  return target ? canonicalTypeName(target.name) : ''
}

const unitDigits = [0, 3, 6, 9] as const

/** `ticks` of 10^-digits seconds as exact decimal seconds text. */
function secondsText(ticks: bigint, digits: number): string {
  if (digits === 0) return String(ticks)
  const negative = ticks < 0n
  const magnitude = negative ? -ticks : ticks
  const scale = 10n ** BigInt(digits)
  const text = `${magnitude / scale}.${String(magnitude % scale).padStart(digits, '0')}`
  return negative ? `-${text}` : text
}

/** An unscaled decimal (little-endian 32-bit words, two's complement) as exact text. */
function decimalText(words: Uint32Array, at: number, stride: number, scale: number): string {
  let value = 0n
  for (let word = stride - 1; word >= 0; word--) value = (value << 32n) | BigInt(words[at + word]!)
  value = BigInt.asIntN(stride * 32, value)
  if (scale === 0) return String(value)
  const negative = value < 0n
  const digits = String(negative ? -value : value).padStart(scale + 1, '0')
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`
}

function isNumeric(type: DataType): boolean {
  return (
    type.typeId === Type.Int ||
    (type.typeId === Type.Float && (type as { precision?: number }).precision !== 0)
  )
}

/** Values of one Arrow data chunk, converted for `target`. */
function chunkValues(data: Data, target: TypeNode | undefined): ColumnInput {
  // apache-arrow slices value and offset buffers along with the data, so they start at the
  // chunk's first row; only the validity bitmap is addressed through `offset` (getValid).
  const { type, length } = data
  const base = unwrap(target)
  const family = familyOf(base)
  if (isNumeric(type) && data.nullCount === 0) {
    return (data.values as ArrayLike<number> & { subarray(a: number, b: number): ColumnInput }).subarray(
      0,
      length,
    )
  }
  const out = new Array<unknown>(length)
  const valid = (row: number) => data.nullCount === 0 || data.getValid(row)
  switch (type.typeId) {
    case Type.Timestamp:
    case Type.Duration: {
      const digits = unitDigits[(type as unknown as { unit: number }).unit] ?? 0
      const ticks = data.values as BigInt64Array
      for (let row = 0; row < length; row++) {
        if (!valid(row)) out[row] = null
        else if (family === 'Date' || family === 'Date32')
          out[row] = new Date(Number(ticks[row]!) / 10 ** (digits - 3))
        else out[row] = secondsText(ticks[row]!, digits)
      }
      return out
    }
    case Type.Decimal: {
      const { scale, bitWidth } = type as unknown as { scale: number; bitWidth: number }
      const stride = bitWidth / 32
      const words = data.values as Uint32Array
      for (let row = 0; row < length; row++)
        out[row] = valid(row) ? decimalText(words, row * stride, stride, scale) : null
      return out
    }
    case Type.Dictionary: {
      const dictionary = (data.dictionary as { data: Data[] } | undefined)?.data ?? []
      const values = concatChunks(dictionary.map((chunk) => chunkValues(chunk, target)))
      const indexes = data.values as ArrayLike<number | bigint>
      for (let row = 0; row < length; row++) out[row] = valid(row) ? values[Number(indexes[row]!)] : null
      return out
    }
    case Type.List:
    case Type.LargeList:
    case Type.FixedSizeList: {
      const child = data.children[0]!
      const element = base && family === 'Array' ? typeArguments(base)[0] : undefined
      const items = chunkValues(child, element)
      const size = (type as { listSize?: number }).listSize
      const offsets = data.valueOffsets as ArrayLike<number | bigint> | undefined
      for (let row = 0; row < length; row++) {
        if (!valid(row)) {
          out[row] = null
          continue
        }
        const start = size === undefined ? Number(offsets![row]!) : row * size
        const end = size === undefined ? Number(offsets![row + 1]!) : start + size
        out[row] = Array.prototype.slice.call(items, start, end)
      }
      return out
    }
    case Type.Struct: {
      const elements = base && family === 'Tuple' ? typeArguments(base) : []
      const children = data.children.map((child, index) => chunkValues(child, elements[index]))
      for (let row = 0; row < length; row++)
        out[row] = valid(row) ? children.map((child) => child[row]) : null
      return out
    }
    case Type.Map: {
      const entries = data.children[0]!
      const [keyType, valueType] = base && family === 'Map' ? typeArguments(base) : []
      const keys = chunkValues(entries.children[0]!, keyType)
      const items = chunkValues(entries.children[1]!, valueType)
      const offsets = data.valueOffsets as ArrayLike<number>
      for (let row = 0; row < length; row++) {
        if (!valid(row)) {
          out[row] = null
          continue
        }
        const map = new Map<unknown, unknown>()
        for (let i = offsets[row]!; i < offsets[row + 1]!; i++) map.set(keys[i], items[i])
        out[row] = map
      }
      return out
    }
    case Type.Date: {
      const vector = makeVector(data)
      for (let row = 0; row < length; row++) {
        const ms = vector.get(row) as number | null
        out[row] = ms === null ? null : new Date(ms)
      }
      return out
    }
    default: {
      const vector = makeVector(data)
      for (let row = 0; row < length; row++) out[row] = valid(row) ? vector.get(row) : null
      return out
    }
  }
}

function concatChunks(parts: readonly ColumnInput[]): ColumnInput {
  if (parts.length === 1) return parts[0]!
  const out: unknown[] = []
  for (const part of parts) for (let i = 0; i < part.length; i++) out.push(part[i])
  return out
}

/** All values of an Arrow column (every chunk), converted for the ClickHouse `target` type. */
export function arrowColumnValues(
  column: { readonly data: readonly Data[] },
  target: TypeNode | undefined,
): ColumnInput {
  const VectorOfCaller = column.constructor as new (chunks: readonly Data[]) => Vector
  makeVector = (data) => new VectorOfCaller([data])
  return concatChunks(column.data.map((chunk) => chunkValues(chunk, target)))
}
