import { ProtocolError } from '../errors/protocol-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import { quoteSqlIdentifierIfNeeded, quoteSqlString } from '../sql/sql-quoting.js'

/** The names are the server's text exactly: its escapes (see SqlEscapes). */
const asServer = { escapes: 'server' } as const

/**
 * ClickHouse's binary encoding of data types (DataTypesBinaryEncoding.cpp): one code byte,
 * then what the type needs. Dynamic's shared variant and JSON's shared data prefix every
 * value with it. Decoded to the type name ClickHouse prints.
 */
const simpleNames: Record<number, string> = {
  0: 'Nothing',
  1: 'UInt8',
  2: 'UInt16',
  3: 'UInt32',
  4: 'UInt64',
  5: 'UInt128',
  6: 'UInt256',
  7: 'Int8',
  8: 'Int16',
  9: 'Int32',
  10: 'Int64',
  11: 'Int128',
  12: 'Int256',
  13: 'Float32',
  14: 'Float64',
  15: 'Date',
  16: 'Date32',
  17: 'DateTime',
  21: 'String',
  29: 'UUID',
  40: 'IPv4',
  41: 'IPv6',
  45: 'Bool',
  49: 'BFloat16',
  50: 'Time',
}

const intervalKinds = [
  'Nanosecond',
  'Microsecond',
  'Millisecond',
  'Second',
  'Minute',
  'Hour',
  'Day',
  'Week',
  'Month',
  'Quarter',
  'Year',
]

/** Nesting deeper than this is taken as malformed input. */
const maxDepth = 64
/** ClickHouse's own limit on element counts while decoding a type. */
const maxElements = 1_000_000

function count(reader: ByteReader, what: string): number {
  const value = reader.varUInt()
  if (value > maxElements) throw new ProtocolError(`binary type: ${value} ${what}`)
  return value
}

/**
 * Reads one binary-encoded type and returns its name, e.g. `Array(Nullable(Int64))`.
 * Returns '' when the input is short (see `reader.missing`).
 */
export function readBinaryType(reader: ByteReader, depth = 0): string {
  if (depth > maxDepth) throw new ProtocolError('binary type nested too deeply')
  const code = reader.u8()
  if (reader.short) return ''
  const name = simpleNames[code]
  if (name !== undefined) return name
  const inner = () => readBinaryType(reader, depth + 1)
  switch (code) {
    case 0x12:
      return `DateTime(${quoteSqlString(reader.string(), asServer)})`
    case 0x13:
      return `DateTime64(${reader.u8()})`
    case 0x14: {
      const scale = reader.u8()
      return `DateTime64(${scale}, ${quoteSqlString(reader.string(), asServer)})`
    }
    // Time64 is 0x34 (0x33 is not a type code): checked against 26.7's RowBinaryWithNamesAndTypes.
    case 0x34:
      return `Time64(${reader.u8()})`
    case 0x36: {
      const element = inner()
      return `QBit(${element}, ${reader.varUInt()})`
    }
    case 0x16:
      return `FixedString(${reader.varUInt()})`
    case 0x17:
    case 0x18: {
      const elements: string[] = []
      const size = count(reader, 'enum elements')
      for (let i = 0; i < size && !reader.short; i++) {
        const element = reader.string()
        const value = code === 0x17 ? reader.i8() : reader.i16()
        elements.push(`${quoteSqlString(element, asServer)} = ${value}`)
      }
      return `Enum${code === 0x17 ? 8 : 16}(${elements.join(', ')})`
    }
    case 0x19:
    case 0x1a:
    case 0x1b:
    case 0x1c: {
      const precision = reader.u8()
      return `Decimal(${precision}, ${reader.u8()})`
    }
    case 0x1e:
      return `Array(${inner()})`
    case 0x1f:
    case 0x20:
    case 0x2f: {
      const size = count(reader, 'tuple elements')
      const elements: string[] = []
      for (let i = 0; i < size && !reader.short; i++) {
        const element = code === 0x1f ? '' : `${quoteSqlIdentifierIfNeeded(reader.string())} `
        elements.push(element + inner())
      }
      return `${code === 0x2f ? 'Nested' : 'Tuple'}(${elements.join(', ')})`
    }
    case 0x22: {
      const kind = intervalKinds[reader.u8()]
      if (kind === undefined && !reader.short) throw new ProtocolError('binary type: unknown interval kind')
      return `Interval${kind}`
    }
    case 0x23:
      return `Nullable(${inner()})`
    case 0x26:
      return `LowCardinality(${inner()})`
    case 0x27: {
      const key = inner()
      return `Map(${key}, ${inner()})`
    }
    case 0x2a: {
      const size = count(reader, 'variants')
      const variants: string[] = []
      for (let i = 0; i < size && !reader.short; i++) variants.push(inner())
      return `Variant(${variants.join(', ')})`
    }
    case 0x2b: {
      const max = reader.u8()
      return max === 32 ? 'Dynamic' : `Dynamic(max_types=${max})`
    }
    case 0x2c:
      return reader.string()
    case 0x30:
      return readJsonType(reader, depth)
  }
  throw new ProtocolError(`binary type code 0x${code.toString(16)} is not supported`)
}

function readJsonType(reader: ByteReader, depth: number): string {
  const version = reader.u8()
  if (version !== 0 && !reader.short) throw new ProtocolError(`binary JSON type version ${version}`)
  const parts: string[] = []
  const maxPaths = reader.varUInt()
  const maxTypes = reader.u8()
  if (maxPaths !== 1024) parts.push(`max_dynamic_paths=${maxPaths}`)
  if (maxTypes !== 32) parts.push(`max_dynamic_types=${maxTypes}`)
  const typed = count(reader, 'typed paths')
  for (let i = 0; i < typed && !reader.short; i++) {
    const path = reader.string()
    parts.push(`${quoteSqlIdentifierIfNeeded(path)} ${readBinaryType(reader, depth + 1)}`)
  }
  const skipped = count(reader, 'skipped paths')
  for (let i = 0; i < skipped && !reader.short; i++)
    parts.push(`SKIP ${quoteSqlIdentifierIfNeeded(reader.string())}`)
  const patterns = count(reader, 'skipped patterns')
  for (let i = 0; i < patterns && !reader.short; i++)
    parts.push(`SKIP REGEXP ${quoteSqlString(reader.string(), asServer)}`)
  return parts.length === 0 ? 'JSON' : `JSON(${parts.join(', ')})`
}
