import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { literalUnionOf } from '../types/ts-type-text.js'
import { type TypeNode, typeToString } from '../types/type-node.js'
import type { CodecFactory, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { fixedWidthBytes, valueError } from './fixed-width.js'

/** The elements of an Enum type, checked: names and values unique, values within the width. */
export interface EnumElements {
  readonly names: readonly string[]
  readonly values: readonly number[]
  /** 1 for Enum8, 2 for Enum16. */
  readonly width: 1 | 2
}

/**
 * Elements of `Enum8(...)`, `Enum16(...)` or `Enum(...)`; plain `Enum` takes 1 byte when
 * every value fits Int8, else 2, as ClickHouse decides.
 */
export function enumElements(type: TypeNode): EnumElements {
  const names: string[] = []
  const values: number[] = []
  for (const arg of type.args) {
    if (arg.kind !== 'enum') throw new UsageError(`${typeToString(type)}: expected 'name' = value elements`)
    names.push(arg.name)
    values.push(arg.value)
  }
  if (names.length === 0) throw new UsageError(`${type.name} needs at least one element`)
  const fitsInt8 = values.every((value) => value >= -128 && value <= 127)
  const width: 1 | 2 = type.name === 'Enum8' ? 1 : type.name === 'Enum16' ? 2 : fitsInt8 ? 1 : 2
  const limit = width === 1 ? 128 : 32768
  for (const value of values) {
    if (!Number.isInteger(value) || value < -limit || value >= limit)
      throw new UsageError(
        `${typeToString(type)}: value ${value} does not fit ${width === 1 ? 'Int8' : 'Int16'}`,
      )
  }
  if (new Set(names).size !== names.length) throw new UsageError(`${typeToString(type)}: duplicate names`)
  if (new Set(values).size !== values.length) throw new UsageError(`${typeToString(type)}: duplicate values`)
  return { names, values, width }
}

/**
 * A decoded Enum8/Enum16 column: the values as received; the element name per row. A 0
 * that names no element reads as `''`: servers put 0 under NULLs of Nullable(Enum) (18.16
 * does; 26.7 writes the first element), where the value is never shown.
 */
export class EnumColumn implements Column<string> {
  constructor(
    readonly type: TypeNode,
    /** The stored values: Int8Array for Enum8, Int16Array for Enum16. */
    readonly data: Int8Array | Int16Array,
    /** Name of value v at `names[v - offset]`. */
    private readonly names: readonly (string | undefined)[],
    private readonly offset: number,
  ) {}

  get length(): number {
    return this.data.length
  }

  get(row: number): string {
    return this.names[this.data[row]! - this.offset]!
  }

  values(): string[] {
    const rows = this.data.length
    const out = new Array<string>(rows)
    for (let row = 0; row < rows; row++) out[row] = this.names[this.data[row]! - this.offset]!
    return out
  }

  storage(): ColumnStorage {
    return { kind: 'fixed', data: this.data }
  }
}

/**
 * Reads and writes Enum8/Enum16 columns: the Int8/Int16 value of each row. Writes element
 * names, or numbers that are element values. Decoding a value that names no element
 * (other than the placeholder 0) is a ProtocolError.
 */
export const enumCodec: CodecFactory = (type: TypeNode): ColumnCodec<string> => {
  const { names, values, width } = enumElements(type)
  // Decoding reads names from a dense table over [low, high], which always includes the
  // placeholder 0 (as '' when 0 is no element).
  const low = Math.min(0, ...values)
  const decodeNames = new Array<string | undefined>(Math.max(0, ...values) - low + 1)
  const byName = new Map<string, number>()
  for (let i = 0; i < names.length; i++) {
    decodeNames[values[i]! - low] = names[i]!
    byName.set(names[i]!, values[i]!)
  }
  decodeNames[-low] ??= ''
  const elementValues = new Set(values)
  const typeName = typeToString(type)
  return {
    type,
    layout: { kind: 'fixed', type, width, array: width === 1 ? 'Int8' : 'Int16' },
    insertShape: 'scalar',
    tsType: () => literalUnionOf(names),
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): EnumColumn {
      const bytes = fixedWidthBytes(reader, rows, width)
      let data: Int8Array | Int16Array
      if (!bytes) data = width === 1 ? new Int8Array(0) : new Int16Array(0)
      else
        data =
          width === 1 ? new Int8Array(bytes[0], bytes[1], rows) : new Int16Array(bytes[0], bytes[1], rows)
      if (bytes) {
        for (let row = 0; row < rows; row++) {
          if (decodeNames[data[row]! - low] === undefined)
            throw new ProtocolError(`value ${data[row]} in row ${row} is not an element of ${typeName}`)
        }
      }
      return new EnumColumn(type, data, decodeNames, low)
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      writer.ensure(rows * width)
      for (let row = 0; row < rows; row++) {
        const value = input[row]
        let number: number | undefined
        if (typeof value === 'string') number = byName.get(value)
        else if (typeof value === 'number' || typeof value === 'bigint') {
          const candidate = Number(value)
          if (elementValues.has(candidate)) number = candidate
        }
        if (number === undefined) throw valueError(typeName, row, value, 'not an element of the enum')
        if (width === 1) writer.u8(number & 0xff)
        else writer.i16(number)
      }
    },
  }
}
