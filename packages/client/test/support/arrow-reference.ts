// Reference Arrow data built with apache-arrow's own builders, to compare arrow() against.
import {
  type DataType,
  type Decimal,
  type Dictionary,
  type Field,
  type List,
  type Map_,
  type Struct,
  type Table,
  type Timestamp,
  Type,
  type Vector,
  vectorFromArray,
} from 'apache-arrow'

/** UTC offset (minutes) of the zones the tests use: both fixed for the instants in question. */
const zoneOffsets: Record<string, number> = { UTC: 0, 'Etc/UTC': 0, 'Asia/Tokyo': 540 }

/** ClickHouse's `YYYY-MM-DD hh:mm:ss[.fff...]` text on a zone's clock as epoch milliseconds. */
export function instantMs(text: string, zone: string): number {
  const offset = zoneOffsets[zone]
  if (offset === undefined) throw new Error(`no offset known for ${zone}`)
  const [date, time = '00:00:00'] = text.split(' ')
  const [clock, fraction = ''] = time.split('.')
  return Date.parse(`${date}T${clock}.${fraction.padEnd(3, '0').slice(0, 3)}Z`) - offset * 60_000
}

/** Exact decimal text as the little-endian 32-bit words of its unscaled integer. */
export function decimalWords(text: string, scale: number, bitWidth: number): Uint32Array {
  const [whole = '', fraction = ''] = text.replace('-', '').split('.')
  let unscaled = BigInt(`${whole}${fraction.padEnd(scale, '0')}`)
  if (text.startsWith('-')) unscaled = -unscaled
  const words = new Uint32Array(bitWidth / 32)
  let rest = BigInt.asUintN(bitWidth, unscaled)
  for (let i = 0; i < words.length; i++) {
    words[i] = Number(rest & 0xffffffffn)
    rest >>= 32n
  }
  return words
}

/**
 * A value as rows() gives it (default mapping), turned into what apache-arrow's builder of
 * `type` takes: Date/Timestamp as epoch milliseconds, Decimal as words, FixedSizeBinary as
 * bytes, tuples as objects keyed by field name. Everything else goes in unchanged.
 */
export function builderValue(type: DataType, value: unknown): unknown {
  if (value === null || value === undefined) return null
  switch (type.typeId) {
    case Type.FixedSizeBinary:
      return value instanceof Uint8Array ? value : new TextEncoder().encode(value as string)
    case Type.Date:
      return Date.parse(`${value as string}T00:00:00Z`)
    case Type.Timestamp:
      return instantMs(value as string, (type as Timestamp).timezone ?? 'UTC')
    case Type.Decimal: {
      const { scale, bitWidth } = type as Decimal
      return decimalWords(value as string, scale, bitWidth)
    }
    case Type.Dictionary:
      return builderValue((type as Dictionary).dictionary, value)
    case Type.List: {
      const child = (type as List).children[0]!.type
      return (value as unknown[]).map((item) => builderValue(child, item))
    }
    case Type.Struct: {
      const fields = (type as Struct).children
      const record: Record<string, unknown> = {}
      fields.forEach((field: Field, index: number) => {
        const item = Array.isArray(value) ? value[index] : (value as Record<string, unknown>)[field.name]
        record[field.name] = builderValue(field.type, item)
      })
      return record
    }
    case Type.Map: {
      const [key, item] = (type as Map_).children[0]!.type.children as Field[]
      return new Map(
        [...(value as Map<unknown, unknown>)].map(([k, v]) => [
          builderValue(key!.type, k),
          builderValue(item!.type, v),
        ]),
      )
    }
    default:
      return value
  }
}

/** A vector built by apache-arrow from rows() values. */
export function referenceVector(type: DataType, values: readonly unknown[]): Vector {
  return vectorFromArray(
    values.map((value) => builderValue(type, value)),
    type,
  )
}

/** A comparable form of a type: its text plus what the text leaves out (widths, nullability, ids). */
export function typeSignature(type: DataType): string {
  switch (type.typeId) {
    case Type.Decimal:
      return `${type}/${(type as Decimal).bitWidth}`
    case Type.Dictionary: {
      const dictionary = type as Dictionary
      return `Dictionary<${typeSignature(dictionary.indices)}, ${typeSignature(dictionary.dictionary)}>`
    }
    case Type.List:
    case Type.Struct:
    case Type.Map:
    case Type.Union:
      return `${Type[type.typeId]}<${(type.children as Field[])
        .map((field) => `${field.name}${field.nullable ? '?' : ''}: ${typeSignature(field.type)}`)
        .join(', ')}>`
    default:
      return String(type)
  }
}

/** The signed integer in little-endian 32-bit words, as decimal text. */
export function unscaledText(words: Uint32Array): string {
  let value = 0n
  for (let i = words.length - 1; i >= 0; i--) value = (value << 32n) | BigInt(words[i]!)
  return String(BigInt.asIntN(words.length * 32, value))
}

/** A plain JS form of an Arrow value: rows, lists and maps as JSON, decimals as unscaled text. */
export function plain(value: unknown): unknown {
  if (value === null || value === undefined) return null
  if (typeof value === 'object') {
    // apache-arrow's BigNum prints 256-bit values wrongly: read the words instead.
    if (Symbol.for('isArrowBigNum') in (value as object)) return unscaledText(value as Uint32Array)
    if (value instanceof Uint8Array) return Array.from(value)
    if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<unknown>, plain)
    if (value instanceof Map) return [...value].map(([k, v]) => [plain(k), plain(v)])
    const json = (value as { toJSON?: () => unknown }).toJSON
    if (typeof json === 'function') {
      const converted = json.call(value)
      if (converted !== value) return plain(converted)
    }
    if (Array.isArray(value)) return value.map(plain)
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, plain(v)]))
  }
  return value
}

/** Every value of a vector, in plain JS form. */
export function vectorValues(vector: Vector): unknown[] {
  return Array.from({ length: vector.length }, (_, row) => plain(vector.get(row)))
}

/** Every column of a table, in plain JS form. */
export function tableValues(table: Table): Record<string, unknown[]> {
  return Object.fromEntries(
    table.schema.fields.map((field) => [field.name, vectorValues(table.getChild(field.name)!)]),
  )
}
