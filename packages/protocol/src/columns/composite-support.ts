import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import { ByteReader, maxValueLength } from '../io/byte-reader.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'

/**
 * Every value of every type takes at least one byte in Native (an empty Tuple writes '0',
 * an empty Array its 8-byte offset, a Variant its discriminator). So `count` elements
 * need at least `count` bytes: when fewer remain the input is short, and the decoder
 * returns before allocating for a count that may be garbage.
 */
export function hasElements(reader: ByteReader, count: number, what: string): boolean {
  if (count > maxValueLength) throw new ProtocolError(`${what}: ${count} elements is too many`)
  if (count <= reader.limit - reader.offset) return true
  reader.need(reader.offset + count)
  reader.offset = reader.limit
  return false
}

/**
 * Reads `rows` cumulative UInt64 array offsets into `rows + 1` int32 bounds (bound 0 is 0),
 * checking they never decrease. Undefined when the input is short.
 */
export function readOffsets(reader: ByteReader, rows: number, what: string): Int32Array | undefined {
  if (!reader.has(rows * 8)) {
    reader.offset = reader.limit
    return undefined
  }
  const bounds = new Int32Array(rows + 1)
  const at = reader.offset
  const bytes = reader.bytes
  // Read as 32-bit words, several times faster than a DataView call per row; offsets that
  // do not lie 4-byte aligned (rare: blocks start aligned) are copied to memory that does
  // (`new Uint8Array(view)` copies; a Node Buffer's `slice` would not).
  const words =
    ((bytes.byteOffset + at) & 3) === 0
      ? new Uint32Array(bytes.buffer, bytes.byteOffset + at, rows * 2)
      : new Uint32Array(new Uint8Array(bytes.subarray(at, at + rows * 8)).buffer)
  let previous = 0
  for (let row = 0; row < rows; row++) {
    const low = words[2 * row]!
    const high = words[2 * row + 1]!
    if (high !== 0 || low > maxValueLength || low < previous)
      throw new ProtocolError(
        `${what}: offset ${high * 2 ** 32 + low} of row ${row} is out of order or too large (previous ${previous})`,
      )
    bounds[row + 1] = low
    previous = low
  }
  reader.offset = at + rows * 8
  return bounds
}

/** A slice of decoded values as a plain JS array (typed arrays become arrays too). */
export function sliceValues<Value>(values: ArrayLike<Value>, start: number, end: number): Value[] {
  if (Array.isArray(values)) return values.slice(start, end) as Value[]
  const out = new Array<Value>(end - start)
  for (let i = start; i < end; i++) out[i - start] = values[i] as Value
  return out
}

const zeroValues = new WeakMap<ColumnCodec, { value: unknown }>()

/**
 * The type's default value (0, '', 1970-01-01...) as its codec decodes it from zero
 * bytes, which is how ClickHouse stores defaults. Used for the placeholders behind NULLs
 * and for missing typed JSON paths. Undefined when zero bytes are not a valid value.
 */
export function zeroValue(codec: ColumnCodec): unknown {
  const known = zeroValues.get(codec)
  if (known) return known.value
  let value: unknown
  const type = codec.type
  if (type.name === 'Enum8' || type.name === 'Enum16') {
    // Enums default to their first element, which need not have the value 0.
    const first = type.args.find((arg) => arg.kind === 'enum')
    value = first?.kind === 'enum' ? first.name : undefined
  } else {
    let size = 64
    for (let attempt = 0; attempt < 6; attempt++) {
      const reader = new ByteReader(new Uint8Array(size))
      try {
        const column = codec.decode(reader, 1)
        if (!reader.short) {
          value = column.get(0)
          break
        }
      } catch {
        break
      }
      size = Math.max(size * 4, reader.missing)
    }
  }
  zeroValues.set(codec, { value })
  return value
}

/** Orders strings by their UTF-8 bytes, as ClickHouse's std::string comparisons do. */
export function compareUtf8(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    // UTF-16 order equals code point (and so UTF-8) order except that surrogates (astral
    // characters) sort below U+E000..U+FFFF in UTF-16 but above them in UTF-8.
    const xs = x >= 0xd800 && x <= 0xdfff
    const ys = y >= 0xd800 && y <= 0xdfff
    if (xs !== ys) return xs ? 1 : -1
    return x - y
  }
  return a.length - b.length
}

/**
 * Remembers what an encoder derived from one input between `encodePrefix` and `encode`
 * (a composite must write its nested prefixes, which depend on the data, before any data),
 * so the work is done once. Keeps only the last input, and forgets it after `encode`.
 */
export class PlanCache<Plan> {
  private input: ColumnInput | undefined
  private plan: Plan | undefined

  constructor(private readonly make: (input: ColumnInput) => Plan) {}

  /** The plan for `input`, made now unless `encodePrefix` made it already. */
  get(input: ColumnInput): Plan {
    if (this.input === input && this.plan !== undefined) return this.plan
    const plan = this.make(input)
    this.input = input
    this.plan = plan
    return plan
  }

  /** Hands out the plan for `encode` and forgets it, so no input is kept alive. */
  take(input: ColumnInput): Plan {
    const plan = this.get(input)
    this.input = undefined
    this.plan = undefined
    return plan
  }
}

/** Throws the usual error for a value of the wrong shape. */
export function shapeError(typeName: string, row: number, what: string, value: unknown): UsageError {
  const described =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? 'an object'
          : typeof value
  return new UsageError(`row ${row}: expected ${what} for ${typeName}, got ${described}`)
}

/**
 * The kind of a JS value for choosing a ClickHouse type: `string`, `integer` (a whole
 * number), `number`, `bigint`, `boolean`, `date`, `bytes` (Uint8Array), `array` (also other
 * typed arrays), `map`, `object` or `null`.
 */
export function describeValueKind(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  switch (typeof value) {
    case 'string':
      return 'string'
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number'
    case 'bigint':
      return 'bigint'
    case 'boolean':
      return 'boolean'
  }
  if (value instanceof Date) return 'date'
  if (value instanceof Uint8Array) return 'bytes'
  if (Array.isArray(value) || ArrayBuffer.isView(value)) return 'array'
  if (value instanceof Map) return 'map'
  return 'object'
}
