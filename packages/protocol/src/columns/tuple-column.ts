import { rowFactory } from '../blocks/block-rows.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { objectOf } from '../types/ts-type-text.js'
import type { TypeNode } from '../types/type-node.js'
import type { CodecContext, CodecResolver, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { hasElements, PlanCache, shapeError } from './composite-support.js'

/** Reads one row's value from the element values bound to it: an array, or an object for named tuples. */
type TupleReader = (row: number) => unknown

function arrayReader(elements: readonly ArrayLike<unknown>[]): TupleReader {
  return (row) => {
    const out = new Array<unknown>(elements.length)
    for (let i = 0; i < elements.length; i++) out[i] = elements[i]![row]
    return out
  }
}

/**
 * A decoded Tuple column: one column per element. Rows are arrays, or plain objects keyed
 * by element name for named tuples (`Tuple(a UInt8, \`b c\` String)` -> `{ a, 'b c' }`).
 */
export class TupleColumn implements Column<unknown> {
  private cache: unknown[] | undefined
  /** Binds element values to a reader of one row's value (looked up once, not per row). */
  private readonly bind: (elements: readonly ArrayLike<unknown>[]) => TupleReader

  constructor(
    readonly type: TypeNode,
    readonly elements: readonly Column[],
    /** Element names for a named tuple, else undefined. */
    readonly names: readonly string[] | undefined,
    private readonly rows: number,
  ) {
    // Named tuples are rows of their own: the same builder as result rows (own "__proto__" keys included).
    this.bind = names ? rowFactory(names) : arrayReader
  }

  get length(): number {
    return this.rows
  }

  get(row: number): unknown {
    if (this.cache) return this.cache[row]
    const one = this.elements.map((element) => [element.get(row)])
    return this.bind(one)(0)
  }

  /** One array or object per row, built from each element's `values()` (computed once). */
  values(): unknown[] {
    if (this.cache) return this.cache
    const elements = this.elements.map((element) => element.values())
    const read = this.bind(elements)
    const out = new Array<unknown>(this.rows)
    for (let row = 0; row < this.rows; row++) out[row] = read(row)
    this.cache = out
    return out
  }

  storage(): ColumnStorage {
    return { kind: 'struct', fields: this.elements }
  }
}

/** The element names when every element is named (ClickHouse names all or none). */
export function tupleNames(type: TypeNode): string[] | undefined {
  const names: string[] = []
  for (const arg of type.args) {
    if (arg.kind !== 'type') continue
    if (arg.name === undefined) return undefined
    names.push(arg.name)
  }
  return names.length > 0 ? names : undefined
}

/** Splits rows (arrays, or objects for named tuples) into one input per element. */
function splitRows(
  typeName: string,
  names: readonly string[] | undefined,
  count: number,
  input: ColumnInput,
) {
  const rows = input.length
  const columns = Array.from({ length: count }, () => new Array<unknown>(rows))
  for (let row = 0; row < rows; row++) {
    const value = input[row] as Record<string, unknown> | ArrayLike<unknown> | null | undefined
    if (value === null || typeof value !== 'object')
      throw shapeError(typeName, row, names ? 'an object or array' : 'an array', value)
    if (Array.isArray(value) || ArrayBuffer.isView(value)) {
      const list = value as ArrayLike<unknown>
      if (list.length !== count) throw shapeError(typeName, row, `${count} elements`, value)
      for (let i = 0; i < count; i++) columns[i]![row] = list[i]
    } else if (names) {
      const record = value as Record<string, unknown>
      for (let i = 0; i < count; i++) columns[i]![row] = record[names[i]!]
    } else throw shapeError(typeName, row, 'an array', value)
  }
  return columns
}

/**
 * Tuple over already made element codecs. Each element is a whole column in turn; the
 * empty `Tuple()` writes one '0' byte per row.
 */
export function tupleCodecOf(
  type: TypeNode,
  elements: readonly ColumnCodec[],
  names: readonly string[] | undefined,
): ColumnCodec {
  const typeName = type.name
  const plans = new PlanCache((input) => splitRows(typeName, names, elements.length, input))
  return {
    type,
    layout: {
      kind: 'struct',
      type,
      fields: elements.map((element, i) => ({ name: names?.[i], layout: element.layout })),
    },
    insertShape: 'array',
    tsType(unsupported?: string[]): string {
      const types = elements.map((element) => element.tsType(unsupported))
      // Named tuples decode to objects, unnamed ones to arrays.
      return names ? objectOf(names.map((name, i) => [name, types[i]!])) : `[${types.join(', ')}]`
    },
    decodePrefix(reader: ByteReader): void {
      for (const element of elements) element.decodePrefix(reader)
    },
    decode(reader: ByteReader, rows: number): TupleColumn {
      if (elements.length === 0) {
        // ClickHouse writes a placeholder byte per row and ignores its value when reading.
        if (hasElements(reader, rows, 'Tuple()')) reader.offset += rows
        return new TupleColumn(type, [], names, rows)
      }
      const columns = elements.map((element) => element.decode(reader, rows))
      return new TupleColumn(type, columns, names, rows)
    },
    encodePrefix(writer: ByteWriter, input: ColumnInput): void {
      if (elements.length === 0) return
      const columns = plans.get(input)
      for (let i = 0; i < elements.length; i++) elements[i]!.encodePrefix(writer, columns[i]!)
    },
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      if (elements.length === 0) {
        writer.ensure(rows)
        writer.bytes.fill(0x30, writer.offset, writer.offset + rows)
        writer.offset += rows
        return
      }
      const columns = plans.take(input)
      for (let i = 0; i < elements.length; i++) elements[i]!.encode(writer, columns[i]!, rows)
    },
  }
}

/** Reads and writes Tuple(T1, ..., Tn) and named Tuple(a T1, ...). */
export function tupleCodec(type: TypeNode, _context: CodecContext, codecFor: CodecResolver): ColumnCodec {
  const elements: ColumnCodec[] = []
  for (const arg of type.args) if (arg.kind === 'type') elements.push(codecFor(arg.type))
  return tupleCodecOf(type, elements, tupleNames(type))
}
