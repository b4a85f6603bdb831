import { hasUtf8Encoding } from '../io/byte-writer.js'
import { quoteSqlIdentifier } from '../sql/sql-quoting.js'
import type { TypeNode } from '../types/type-node.js'
import {
  castableScalar,
  type ParameterPath,
  parameterError,
  type ScalarHandler,
  type ScalarParameter,
} from './parameter-model.js'

/* String-like scalars: String, FixedString, Enum, UUID, IPv4, IPv6, and Identifier. */

/** One char per byte, so escaping can write every byte from 0x80 as \xHH. */
function bytesText(bytes: Uint8Array): string {
  let text = ''
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode(...bytes.subarray(i, Math.min(i + 8192, bytes.length)))
  }
  return text
}

function checkedString(type: TypeNode, value: unknown, at: ParameterPath): string {
  if (typeof value !== 'string') throw parameterError(at, type, value, 'expected a string')
  if (!hasUtf8Encoding(value))
    throw parameterError(at, type, value, 'contains a lone UTF-16 surrogate, which has no UTF-8 encoding')
  return value
}

/** Strings and raw bytes; returns the text and whether it is binary. */
function stringOrBytes(type: TypeNode, value: unknown, at: ParameterPath): readonly [string, boolean] {
  if (value instanceof Uint8Array) return [bytesText(value), true]
  if (typeof value !== 'string') throw parameterError(at, type, value, 'expected a string or Uint8Array')
  return [checkedString(type, value, at), false]
}

/** The length of `text` in UTF-8 bytes (a surrogate pair is 4; lone surrogates are refused before this counts). */
export function utf8Length(text: string): number {
  let length = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0x80) length += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1
  }
  return length
}

const string: ScalarHandler = (type, value, at) => {
  const [text, binary] = stringOrBytes(type, value, at)
  return castableScalar(text, true, binary)
}

const fixedString: ScalarHandler = (type, value, at) => {
  const size = type.args[0]?.kind === 'number' ? type.args[0].value : Number.NaN
  if (!Number.isInteger(size) || size < 1) throw parameterError(at, type, value, 'FixedString needs a length')
  const [text, binary] = stringOrBytes(type, value, at)
  const length = binary ? text.length : utf8Length(text)
  if (length > size) throw parameterError(at, type, value, `${length} bytes do not fit ${size}`)
  return castableScalar(text, true, binary)
}

const enumeration: ScalarHandler = (type, value, at) => {
  for (const arg of type.args) {
    if (arg.kind !== 'enum') continue
    if (arg.name === value || (typeof value === 'number' && arg.value === value)) {
      return castableScalar(arg.name, true)
    }
  }
  throw parameterError(at, type, value, 'not an element of the enum')
}

const uuid: ScalarHandler = (type, value, at) => {
  const text = checkedString(type, value, at)
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text))
    throw parameterError(at, type, value)
  return castableScalar(text.toLowerCase(), true)
}

const octet = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'
const ipv4Pattern = new RegExp(`^${octet}(\\.${octet}){3}$`)

const ipv4: ScalarHandler = (type, value, at) => {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffff_ffff) {
    const text = [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.')
    return castableScalar(text, true)
  }
  const text = checkedString(type, value, at)
  if (!ipv4Pattern.test(text)) throw parameterError(at, type, value)
  return castableScalar(text, true)
}

/**
 * RFC 4291 text: eight hex groups, one `::` for a run of zero groups, an optional dotted IPv4
 * tail. Plain dotted IPv4 is accepted too: ClickHouse reads it as `::ffff:a.b.c.d`.
 */
function isIPv6(text: string): boolean {
  if (ipv4Pattern.test(text)) return true
  const lastColon = text.lastIndexOf(':')
  if (lastColon === -1) return false
  let body = text
  let tailGroups = 0
  const tail = text.slice(lastColon + 1)
  if (tail.includes('.')) {
    if (!ipv4Pattern.test(tail)) return false
    body = text.slice(0, lastColon + 1)
    if (!body.endsWith('::')) body = body.slice(0, -1)
    tailGroups = 2
  }
  const halves = body.split('::')
  if (halves.length > 2) return false
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')))
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return false
  const total = groups.length + tailGroups
  return halves.length === 2 ? total <= 7 : total === 8
}

const ipv6: ScalarHandler = (type, value, at) => {
  const text = checkedString(type, value, at)
  if (!isIPv6(text)) throw parameterError(at, type, value)
  return castableScalar(text.toLowerCase(), true)
}

/**
 * `{name:Identifier}` stands for a database, table or column name. The server puts the
 * parameter text into the identifier as-is (ReplaceQueryParameterVisitor::visitIdentifier does
 * not unescape it), and the substituted form is a backquoted name.
 */
const identifier: ScalarHandler = (type, value, at): ScalarParameter => {
  if (at.path !== '') throw parameterError(at, type, value, 'Identifier cannot be nested in another type')
  const text = checkedString(type, value, at)
  if (text === '') throw parameterError(at, type, value, 'empty')
  return {
    kind: 'scalar',
    text,
    binary: false,
    quoted: true,
    identifier: true,
    sql: quoteSqlIdentifier(text),
    sqlType: 'Identifier',
  }
}

/** Scalar handlers for string-like types, by family name. */
export const textParameterHandlers: Readonly<Record<string, ScalarHandler>> = {
  String: string,
  FixedString: fixedString,
  Enum8: enumeration,
  Enum16: enumeration,
  UUID: uuid,
  IPv4: ipv4,
  IPv6: ipv6,
  Identifier: identifier,
}
