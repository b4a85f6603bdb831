import { parseTypeCached, type TypeNode, typeToString, UsageError } from '@clickwire/protocol'

/**
 * The output settings that change how the server writes a value in its text formats. Over
 * native the drop-in writes those formats itself, so it reads them (the server's defaults,
 * then the client's and the call's settings) and writes as the server would.
 */
export interface TextSettings {
  /** `output_format_json_quote_64bit_integers`: Int64…UInt256 as JSON strings. */
  readonly quote64BitIntegers: boolean
  /** `output_format_json_quote_64bit_floats`. */
  readonly quote64BitFloats: boolean
  /** `output_format_json_quote_denormals`: NaN and ±inf as `"nan"`, `"inf"` rather than null. */
  readonly quoteDenormals: boolean
  /** `output_format_json_quote_decimals`. */
  readonly quoteDecimals: boolean
  /** `output_format_json_escape_forward_slashes`: `/` as `\/`. */
  readonly escapeForwardSlashes: boolean
  /** `output_format_json_named_tuples_as_objects` (servers before it existed: arrays). */
  readonly namedTuplesAsObjects: boolean
  /** `output_format_decimal_trailing_zeros` (servers before it existed always wrote them). */
  readonly decimalTrailingZeros: boolean
  /** `output_format_json_pretty_print`: the JSON format spreads tuples and maps of its rows over lines. */
  readonly jsonPrettyPrint: boolean
  /** `format_csv_delimiter`. */
  readonly csvDelimiter: string
  /** `output_format_csv_crlf_end_of_line`. */
  readonly csvCrlf: boolean
  /** `output_format_tsv_crlf_end_of_line`. */
  readonly tsvCrlf: boolean
  /** `format_csv_null_representation`. */
  readonly csvNull: string
  /** `format_tsv_null_representation`. */
  readonly tsvNull: string
  /** `output_format_csv_serialize_tuple_into_separate_columns`: a top-level tuple is several CSV fields. */
  readonly csvTupleColumns: boolean
  /** `output_format_csv_header_serialize_tuple_into_separate_columns`: the header names each tuple element. */
  readonly csvTupleHeaderColumns: boolean
  /** NULL in TabSeparatedRaw. */
  readonly rawNull: string
}

/** How one column's values are written in each text family. */
export interface ValueWriter {
  /** As a JSON value. */
  json(value: unknown): string
  /** As a TSV field (escaped, unquoted strings). */
  tsv(value: unknown): string
  /** As a CSV field (a tuple as one field per element where the server writes it so). */
  csv(value: unknown): string
  /** As a TabSeparatedRaw field: the text unescaped. */
  raw(value: unknown): string
  /** The CSV header's columns of this column: itself, or its tuple's elements. */
  csvHeader(name: string): readonly { readonly name: string; readonly type: string }[]
}

const bigIntegers = new Set(['Int64', 'UInt64', 'Int128', 'UInt128', 'Int256', 'UInt256'])
const smallIntegers = new Set(['Int8', 'Int16', 'Int32', 'UInt8', 'UInt16', 'UInt32'])
const intervalPrefix = 'Interval'
/** Families the server writes as quoted text everywhere (JSON strings, quoted in nested values). */
const quotedText = new Set([
  'String',
  'FixedString',
  'Date',
  'Date32',
  'DateTime',
  'DateTime64',
  'UUID',
  'IPv4',
  'IPv6',
  'Enum8',
  'Enum16',
  'Enum',
])
/** Geo types: aliases of nested tuples and arrays of Float64. */
const geoAliases: Record<string, string> = {
  Point: 'Tuple(Float64, Float64)',
  Ring: 'Array(Tuple(Float64, Float64))',
  LineString: 'Array(Tuple(Float64, Float64))',
  MultiLineString: 'Array(Array(Tuple(Float64, Float64)))',
  Polygon: 'Array(Array(Tuple(Float64, Float64)))',
  MultiPolygon: 'Array(Array(Array(Tuple(Float64, Float64))))',
}

function argType(node: TypeNode, index: number): TypeNode {
  const arg = node.args[index]
  if (arg?.kind !== 'type')
    throw new UsageError(`unexpected type ${node.name}: argument ${index} is not a type`)
  return arg.type
}

/** The shortest decimal text that reads back as the same Float32, as the server writes Float32. */
function float32Text(value: number): string {
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(value.toPrecision(digits))
    if (Math.fround(candidate) === value) return numberText(candidate)
  }
  return numberText(value)
}

/** JS's shortest round-trip text, spelled the server's way: `1e21`, `-0`. */
function numberText(value: number): string {
  if (Object.is(value, -0)) return '-0'
  return String(value).replace('e+', 'e')
}

function nonFinite(value: number): string | undefined {
  if (Number.isNaN(value)) return 'nan'
  if (value === Number.POSITIVE_INFINITY) return 'inf'
  if (value === Number.NEGATIVE_INFINITY) return '-inf'
  return undefined
}

/** A decimal's exact text without trailing fraction zeros (`1.50` -> `1.5`, `2.00` -> `2`). */
function trimDecimal(text: string): string {
  if (!text.includes('.')) return text
  const trimmed = text.replace(/0+$/, '').replace(/\.$/, '')
  return trimmed === '-0' ? '0' : trimmed
}

const jsonEscapes: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
}

/** A JSON string as the server writes it: control characters as \uXXXX, `/` per the setting. */
export function jsonString(text: string, escapeSlashes: boolean): string {
  const pattern = escapeSlashes ? /["\\/\u0000-\u001f\u2028\u2029]/g : /["\\\u0000-\u001f\u2028\u2029]/g
  return `"${text.replace(pattern, (char) => {
    if (char === '/') return '\\/'
    return jsonEscapes[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
  })}"`
}

const textEscapes: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\0': '\\0',
}

/** A string escaped as in TSV and in quoted literals. */
export function escapedString(text: string): string {
  return text.replace(/[\\'\b\f\n\r\t\0]/g, (char) => textEscapes[char]!)
}

/** A CSV field: quoted, with `"` doubled. */
export function csvQuoted(text: string): string {
  return `"${text.replaceAll('"', '""')}"`
}

function elements(value: unknown): ArrayLike<unknown> {
  if (Array.isArray(value) || ArrayBuffer.isView(value)) return value as unknown as ArrayLike<unknown>
  throw new UsageError(`expected an array value, got ${typeof value}`)
}

function mapEntries(value: unknown): [unknown, unknown][] {
  if (value instanceof Map) return [...value.entries()]
  if (Array.isArray(value)) return value as [unknown, unknown][]
  if (typeof value === 'object' && value !== null) return Object.entries(value)
  throw new UsageError(`expected a Map value, got ${typeof value}`)
}

function tupleElements(value: unknown, names: readonly (string | undefined)[]): unknown[] {
  if (Array.isArray(value)) return value
  if (typeof value === 'object' && value !== null)
    return names.map((name, index) => (value as Record<string, unknown>)[name ?? String(index + 1)])
  throw new UsageError(`expected a tuple value, got ${typeof value}`)
}

/** The writer of one type: JSON value, nested (quoted) text, top-level text. */
interface TypeWriter {
  json(value: unknown, indent: string | undefined): string
  /** The text of the value inside an array, tuple or map (strings quoted, NULL as `NULL`). */
  quoted(value: unknown): string
  /** The text of the value at the top level of TSV/CSV, before the format's own escaping. */
  plain(value: unknown): string
  /** True when CSV puts the top-level text in quotes (strings, dates, composites). */
  readonly csvQuotes: boolean
  /** True when plain text is already TSV-safe (composites escape their strings themselves). */
  readonly tsvRaw: boolean
}

function writerFor(node: TypeNode, settings: TextSettings): TypeWriter {
  const name = node.name
  const alias = geoAliases[name]
  if (alias) return writerFor(parseTypeCached(alias), settings)
  if (name === 'LowCardinality' || name === 'SimpleAggregateFunction')
    return writerFor(argType(node, name === 'SimpleAggregateFunction' ? 1 : 0), settings)
  if (name === 'Nullable') {
    const inner = writerFor(argType(node, 0), settings)
    return {
      json: (value, indent) => (value === null || value === undefined ? 'null' : inner.json(value, indent)),
      quoted: (value) => (value === null || value === undefined ? 'NULL' : inner.quoted(value)),
      plain: (value) => (value === null || value === undefined ? '\u0000NULL' : inner.plain(value)),
      csvQuotes: inner.csvQuotes,
      tsvRaw: inner.tsvRaw,
    }
  }
  if (name === 'Nothing') {
    return {
      json: () => 'null',
      quoted: () => 'NULL',
      plain: () => '\u0000NULL',
      csvQuotes: false,
      tsvRaw: true,
    }
  }
  if (smallIntegers.has(name) || name === 'Bool') {
    const text = (value: unknown) => String(value)
    return { json: text, quoted: text, plain: text, csvQuotes: false, tsvRaw: true }
  }
  if (bigIntegers.has(name) || name.startsWith(intervalPrefix)) {
    const text = (value: unknown) => String(value)
    return {
      json: (value) => (settings.quote64BitIntegers ? `"${text(value)}"` : text(value)),
      quoted: text,
      plain: text,
      csvQuotes: false,
      tsvRaw: true,
    }
  }
  if (name === 'Float32' || name === 'Float64') {
    const text = (value: unknown) => {
      const number = Number(value)
      return nonFinite(number) ?? (name === 'Float32' ? float32Text(number) : numberText(number))
    }
    return {
      json: (value) => {
        const number = Number(value)
        if (!Number.isFinite(number)) return settings.quoteDenormals ? `"${text(value)}"` : 'null'
        return name === 'Float64' && settings.quote64BitFloats ? `"${text(value)}"` : text(value)
      },
      quoted: text,
      plain: text,
      csvQuotes: false,
      tsvRaw: true,
    }
  }
  if (name === 'Decimal' || /^Decimal(32|64|128|256)$/.test(name)) {
    const text = (value: unknown) =>
      settings.decimalTrailingZeros ? String(value) : trimDecimal(String(value))
    return {
      json: (value) => (settings.quoteDecimals ? `"${text(value)}"` : text(value)),
      quoted: text,
      plain: text,
      csvQuotes: false,
      tsvRaw: true,
    }
  }
  if (quotedText.has(name)) {
    const text = (value: unknown) => String(value)
    return {
      json: (value) => jsonString(text(value), settings.escapeForwardSlashes),
      quoted: (value) => `'${escapedString(text(value))}'`,
      plain: text,
      csvQuotes: true,
      tsvRaw: false,
    }
  }
  if (name === 'Array') {
    const inner = writerFor(argType(node, 0), settings)
    return {
      json: (value) => `[${Array.from(elements(value), (each) => inner.json(each, undefined)).join(',')}]`,
      quoted: (value) => `[${Array.from(elements(value), (each) => inner.quoted(each)).join(',')}]`,
      plain: (value) => `[${Array.from(elements(value), (each) => inner.quoted(each)).join(',')}]`,
      csvQuotes: true,
      tsvRaw: true,
    }
  }
  if (name === 'Tuple') {
    const parts = node.args.map((arg) => {
      if (arg.kind !== 'type') throw new UsageError(`unexpected Tuple argument in ${name}`)
      return { name: arg.name, writer: writerFor(arg.type, settings) }
    })
    const names = parts.map((part) => part.name)
    const named = names.every((each) => each !== undefined) && settings.namedTuplesAsObjects
    return {
      json: (value, indent) => {
        const values = tupleElements(value, names)
        const items = values.map((each, index) => {
          const part = parts[index]!
          const inner = part.writer.json(each, indent === undefined ? undefined : `${indent}\t`)
          return named
            ? `${jsonString(part.name!, settings.escapeForwardSlashes)}:${indent === undefined ? '' : ' '}${inner}`
            : inner
        })
        const [open, close] = named ? ['{', '}'] : ['[', ']']
        if (indent === undefined || items.length === 0) return `${open}${items.join(',')}${close}`
        return `${open}\n${items.map((item) => `${indent}\t${item}`).join(',\n')}\n${indent}${close}`
      },
      quoted: (value) =>
        `(${tupleElements(value, names)
          .map((each, index) => parts[index]!.writer.quoted(each))
          .join(',')})`,
      plain: (value) =>
        `(${tupleElements(value, names)
          .map((each, index) => parts[index]!.writer.quoted(each))
          .join(',')})`,
      csvQuotes: true,
      tsvRaw: true,
    }
  }
  if (name === 'Map') {
    const keyWriter = writerFor(argType(node, 0), settings)
    const valueWriter = writerFor(argType(node, 1), settings)
    return {
      json: (value, indent) => {
        const items = mapEntries(value).map(([key, each]) => {
          const inner = valueWriter.json(each, indent === undefined ? undefined : `${indent}\t`)
          return `${jsonString(keyWriter.plain(key), settings.escapeForwardSlashes)}:${indent === undefined ? '' : ' '}${inner}`
        })
        if (indent === undefined || items.length === 0) return `{${items.join(',')}}`
        return `{\n${items.map((item) => `${indent}\t${item}`).join(',\n')}\n${indent}}`
      },
      quoted: (value) =>
        `{${mapEntries(value)
          .map(([key, each]) => `${keyWriter.quoted(key)}:${valueWriter.quoted(each)}`)
          .join(',')}}`,
      plain: (value) =>
        `{${mapEntries(value)
          .map(([key, each]) => `${keyWriter.quoted(key)}:${valueWriter.quoted(each)}`)
          .join(',')}}`,
      csvQuotes: true,
      tsvRaw: true,
    }
  }
  if (name === 'Variant' || name === 'Dynamic' || name === 'JSON' || name === 'Object')
    return dynamicWriter(settings)
  throw new UsageError(
    `the @clickhouse/client drop-in cannot write values of type ${name} in text formats over the native protocol: use an http:// URL, where the server writes the format itself`,
  )
}

/**
 * Variant, Dynamic and JSON values, written by their JS value (each decoded to the JS value
 * of its own type): strings and dates quoted, integers of 64 bits (bigints) quoted per the
 * setting, objects as JSON objects.
 */
function dynamicWriter(settings: TextSettings): TypeWriter {
  const slash = settings.escapeForwardSlashes
  const json = (value: unknown): string => {
    if (value === null || value === undefined) return 'null'
    if (typeof value === 'string') return jsonString(value, slash)
    if (typeof value === 'bigint') return settings.quote64BitIntegers ? `"${value}"` : String(value)
    if (typeof value === 'number') return Number.isFinite(value) ? numberText(value) : 'null'
    if (typeof value === 'boolean') return String(value)
    if (Array.isArray(value) || ArrayBuffer.isView(value))
      return `[${Array.from(value as unknown as ArrayLike<unknown>, json).join(',')}]`
    const entries =
      value instanceof Map ? [...value] : typeof value === 'object' ? Object.entries(value) : undefined
    if (entries)
      return `{${entries.map(([key, each]) => `${jsonString(String(key), slash)}:${json(each)}`).join(',')}}`
    return jsonString(String(value), slash)
  }
  const plain = (value: unknown): string =>
    value === null || value === undefined
      ? '\u0000NULL'
      : typeof value === 'object'
        ? json(value)
        : String(value)
  return {
    json,
    quoted: (value) =>
      typeof value === 'string' ? `'${escapedString(value)}'` : value === null ? 'NULL' : plain(value),
    plain,
    csvQuotes: true,
    tsvRaw: false,
  }
}

/**
 * The writer of a column of `type` (its ClickHouse type text). A UsageError for a type the
 * drop-in cannot write over native (Variant, Dynamic, JSON, ...), naming HTTP.
 */
export function valueWriter(type: string, settings: TextSettings): ValueWriter {
  const node = parseTypeCached(type)
  const writer = writerFor(node, settings)
  const isNull = (text: string) => text === '\u0000NULL'
  const csvField = (field: TypeWriter, value: unknown) => {
    const text = field.plain(value)
    if (isNull(text)) return settings.csvNull
    return field.csvQuotes ? csvQuoted(text) : text
  }
  // 26.x writes a top-level tuple as one CSV field per element (the setting's default).
  const tupleParts =
    node.name === 'Tuple' && settings.csvTupleColumns
      ? node.args.map((arg, index) => {
          if (arg.kind !== 'type') throw new UsageError(`unexpected Tuple argument in ${type}`)
          return {
            name: arg.name ?? String(index + 1),
            type: arg.type,
            writer: writerFor(arg.type, settings),
          }
        })
      : undefined
  return {
    json: (value) => writer.json(value, settings.jsonPrettyPrint ? '\t\t\t' : undefined),
    tsv: (value) => {
      const text = writer.plain(value)
      if (isNull(text)) return settings.tsvNull
      return writer.tsvRaw ? text : escapedString(text)
    },
    raw: (value) => {
      const text = writer.plain(value)
      return isNull(text) ? settings.rawNull : text
    },
    csv: (value) => {
      if (!tupleParts) return csvField(writer, value)
      const names = tupleParts.map((part) => part.name)
      const values = tupleElements(value, names)
      return tupleParts.map((part, index) => csvField(part.writer, values[index])).join(settings.csvDelimiter)
    },
    csvHeader: (name) =>
      tupleParts && settings.csvTupleHeaderColumns
        ? tupleParts.map((part) => ({ name: `${name}.${part.name}`, type: typeToString(part.type) }))
        : [{ name, type }],
  }
}

/** A JSON writer without pretty printing (the JSONEachRow family and totals print rows on one line). */
export function compactJsonWriter(type: string, settings: TextSettings): (value: unknown) => string {
  const writer = writerFor(parseTypeCached(type), settings)
  return (value) => writer.json(value, undefined)
}
