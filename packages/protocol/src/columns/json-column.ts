import { ProtocolError } from '../errors/protocol-error.js'
import { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { type TypeNode, typeNode } from '../types/type-node.js'
import type { CodecContext, CodecResolver, ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import {
  compareUtf8,
  hasElements,
  PlanCache,
  readOffsets,
  shapeError,
  zeroValue,
} from './composite-support.js'
import { dynamicCodec } from './dynamic-column.js'
import { setPath } from './json-paths.js'
import { RowBinaryReader } from './row-binary-value.js'
import { scanStrings } from './string-column.js'
import { TypedValue } from './typed-value.js'

/** Object serialization versions (SerializationObject.h). */
const versionV1 = 0
const versionString = 1
const versionV2 = 2
const versionFlattened = 3

/** JSON's shared data: per row, paths with binary-typed RowBinary values. */
interface SharedData {
  readonly bounds: Int32Array
  readonly bytes: Uint8Array
  readonly paths: Int32Array
  readonly values: Int32Array
}

/**
 * A decoded JSON column: a column per typed path, a Dynamic column per dynamic path (NULL
 * = absent) and the shared data of paths past `max_dynamic_paths`. Rows are plain objects
 * with dotted paths nested: `a.b` -> `{ a: { b } }`.
 */
export class JsonColumn implements Column<Record<string, unknown>> {
  private cache: Record<string, unknown>[] | undefined

  constructor(
    readonly type: TypeNode,
    readonly typedPaths: readonly string[],
    readonly typedColumns: readonly Column[],
    readonly dynamicPaths: readonly string[],
    readonly dynamicColumns: readonly Column[],
    private readonly shared: SharedData | undefined,
    private readonly rowBinary: RowBinaryReader,
    private readonly rows: number,
  ) {}

  get length(): number {
    return this.rows
  }

  get(row: number): Record<string, unknown> {
    if (this.cache) return this.cache[row]!
    const out: Record<string, unknown> = {}
    for (let i = 0; i < this.typedPaths.length; i++)
      setPath(out, this.typedPaths[i]!, this.typedColumns[i]!.get(row))
    this.dynamicPaths.forEach((path, i) => {
      const value = this.dynamicColumns[i]!.get(row)
      if (value !== null) setPath(out, path, value)
    })
    this.addShared(out, row)
    return out
  }

  /** All rows, from each path column's `values()` (computed once). */
  values(): Record<string, unknown>[] {
    if (this.cache) return this.cache
    const typed = this.typedColumns.map((column) => column.values())
    const dynamic = this.dynamicColumns.map((column) => column.values())
    const out = new Array<Record<string, unknown>>(this.rows)
    for (let row = 0; row < this.rows; row++) {
      const object: Record<string, unknown> = {}
      for (let i = 0; i < typed.length; i++) setPath(object, this.typedPaths[i]!, typed[i]![row])
      for (let i = 0; i < dynamic.length; i++) {
        const value = dynamic[i]![row]
        if (value !== null) setPath(object, this.dynamicPaths[i]!, value)
      }
      this.addShared(object, row)
      out[row] = object
    }
    this.cache = out
    return out
  }

  storage(): ColumnStorage {
    return { kind: 'values' }
  }

  private addShared(out: Record<string, unknown>, row: number): void {
    const shared = this.shared
    if (!shared) return
    for (let i = shared.bounds[row]!; i < shared.bounds[row + 1]!; i++) {
      const reader = new ByteReader(shared.bytes, shared.values[2 * i]!, shared.values[2 * i + 1]!)
      const value = this.rowBinary.typedValue(reader)
      if (reader.short || reader.offset !== shared.values[2 * i + 1])
        throw new ProtocolError(`JSON shared data value of row ${row} is malformed`)
      const path = reader.textOf(shared.paths[2 * i]!, shared.paths[2 * i + 1]!)
      if (value !== null) setPath(out, path, value)
    }
  }
}

/** A JSON column sent as text (version STRING, `output_format_native_write_json_as_string`). */
class JsonTextColumn implements Column<Record<string, unknown>> {
  constructor(
    readonly type: TypeNode,
    private readonly bytes: Uint8Array,
    private readonly bounds: Int32Array,
  ) {}

  get length(): number {
    return this.bounds.length >> 1
  }

  get(row: number): Record<string, unknown> {
    const text = new ByteReader(this.bytes).textOf(this.bounds[2 * row]!, this.bounds[2 * row + 1]!)
    try {
      return JSON.parse(text) as Record<string, unknown>
    } catch (error) {
      throw new ProtocolError(`JSON text of row ${row} does not parse`, { cause: error })
    }
  }

  values(): Record<string, unknown>[] {
    return Array.from({ length: this.length }, (_, row) => this.get(row))
  }

  storage(): ColumnStorage {
    return { kind: 'values' }
  }
}

interface JsonPlan {
  typedInputs: unknown[][]
  dynamicPaths: string[]
  dynamicCodecs: ColumnCodec[]
  dynamicInputs: unknown[][]
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/**
 * Reads and writes JSON. State prefix: UInt64 version; V1 (0: Native format and protocol
 * revisions below 54473) then a VarUInt that used to be max_dynamic_paths, V1 and V2 (2)
 * then the sorted dynamic paths; followed by the prefixes of the typed paths (sorted) and
 * of each dynamic path's Dynamic. Data: typed paths, dynamic paths, then the shared data as
 * Map(String, String) of binary-typed values. FLATTENED (3) lists all paths and has no
 * shared data; STRING (1) sends each row as JSON text. Writing uses V1 without shared data.
 */
export function jsonCodec(type: TypeNode, context: CodecContext, codecFor: CodecResolver): ColumnCodec {
  const rowBinary = new RowBinaryReader(codecFor)
  const typed: { path: string; codec: ColumnCodec }[] = []
  const skipped: string[] = []
  const skippedPatterns: RegExp[] = []
  for (const arg of type.args) {
    if (arg.kind === 'type' && arg.name !== undefined)
      typed.push({ path: arg.name, codec: codecFor(arg.type) })
    else if (arg.kind === 'skip') {
      if (arg.regexp) skippedPatterns.push(new RegExp(arg.path))
      else skipped.push(arg.path)
    }
  }
  typed.sort((a, b) => compareUtf8(a.path, b.path))
  const typedPaths = typed.map((entry) => entry.path)
  const typedIndex = new Map(typedPaths.map((path, i) => [path, i]))
  const dynamicType = typeNode('Dynamic')
  const dynamics = new Map<string, ColumnCodec>()
  const dynamicFor = (path: string): ColumnCodec => {
    let codec = dynamics.get(path)
    if (!codec) {
      codec = dynamicCodec(dynamicType, context, codecFor)
      if (dynamics.size > 10_000) dynamics.clear()
      dynamics.set(path, codec)
    }
    return codec
  }
  let version = -1
  let paths: string[] = []

  const isSkipped = (path: string): boolean =>
    skipped.some((skip) => path === skip || path.startsWith(`${skip}.`)) ||
    skippedPatterns.some((pattern) => pattern.test(path))

  const plans = new PlanCache<JsonPlan>((input) => {
    const rows = input.length
    const typedInputs = typed.map(() => new Array<unknown>(rows))
    const found = new Map<string, unknown[]>()
    for (let row = 0; row < rows; row++) {
      let value = input[row]
      if (typeof value === 'string') {
        try {
          value = JSON.parse(value)
        } catch {
          throw shapeError('JSON', row, 'an object or JSON object text', value)
        }
      }
      if (!isPlainObject(value)) throw shapeError('JSON', row, 'an object', value)
      const visit = (object: Record<string, unknown>, prefix: string) => {
        for (const key of Object.keys(object)) {
          const item = object[key]
          const path = prefix + key
          if (item === undefined || isSkipped(path)) continue
          const slot = typedIndex.get(path)
          if (slot !== undefined) typedInputs[slot]![row] = item
          else if (isPlainObject(item) && !(item instanceof TypedValue)) visit(item, `${path}.`)
          else if (item !== null) {
            let column = found.get(path)
            if (!column) {
              column = new Array<unknown>(rows).fill(null)
              found.set(path, column)
            }
            column[row] = item
          }
        }
      }
      visit(value, '')
    }
    typed.forEach(({ codec }, i) => {
      const column = typedInputs[i]!
      const missing = codec.type.name === 'Nullable' ? null : zeroValue(codec)
      for (let row = 0; row < rows; row++) if (column[row] === undefined) column[row] = missing
    })
    const dynamicPaths = [...found.keys()].sort(compareUtf8)
    return {
      typedInputs,
      dynamicPaths,
      dynamicCodecs: dynamicPaths.map(dynamicFor),
      dynamicInputs: dynamicPaths.map((path) => found.get(path)!),
    }
  })

  const readPaths = (reader: ByteReader): string[] | undefined => {
    const count = reader.varUInt()
    if (reader.short || !hasElements(reader, count, 'JSON paths')) return undefined
    const list: string[] = []
    for (let i = 0; i < count; i++) list.push(reader.string())
    return reader.short ? undefined : list
  }

  return {
    type,
    // Paths, Dynamic paths and shared data per block: the values are the objects.
    layout: { kind: 'values', type },
    insertShape: 'scalar',
    tsType: () => 'Record<string, unknown>',
    decodePrefix(reader: ByteReader): void {
      const value = reader.u64Number('JSON serialization version')
      if (reader.short) return
      if (value === versionString) {
        version = value
        return
      }
      if (value !== versionV1 && value !== versionV2 && value !== versionFlattened)
        throw new ProtocolError(`JSON serialization version ${value} is not supported`)
      if (value === versionV1) reader.varUInt()
      const list = readPaths(reader)
      if (!list) return
      version = value
      paths = list
      for (const entry of typed) entry.codec.decodePrefix(reader)
      for (const path of paths) dynamicFor(path).decodePrefix(reader)
    },
    decode(reader: ByteReader, rows: number): Column {
      // The block reader decodes even after a short prefix; the result is then discarded.
      // A block of no rows (the header block of the native protocol) has no prefix and no data.
      if (reader.short || rows === 0) return new JsonTextColumn(type, reader.bytes, new Int32Array(0))
      if (version < 0) throw new ProtocolError('JSON data before its state prefix')
      // JSON as text and the shared data keep the prefixed String layout at every revision
      // (serialized as plain columns; checked on 26.9 at 54492), unlike String paths.
      if (version === versionString) return new JsonTextColumn(type, reader.bytes, scanStrings(reader, rows))
      const typedColumns = typed.map((entry) => entry.codec.decode(reader, rows))
      const dynamicColumns = paths.map((path) => dynamicFor(path).decode(reader, rows))
      let shared: SharedData | undefined
      if (version !== versionFlattened) {
        const bounds = readOffsets(reader, rows, 'JSON shared data offsets')
        const count = bounds ? bounds[rows]! : 0
        if (bounds && hasElements(reader, count * 2, 'JSON shared data')) {
          const keys = scanStrings(reader, count)
          const values = scanStrings(reader, count)
          if (count > 0) shared = { bounds, bytes: reader.bytes, paths: keys, values }
        }
      }
      return new JsonColumn(type, typedPaths, typedColumns, paths, dynamicColumns, shared, rowBinary, rows)
    },
    encodePrefix(writer: ByteWriter, input: ColumnInput): void {
      const plan = plans.get(input)
      writer.u64Number(versionV1)
      writer.varUInt(plan.dynamicPaths.length)
      writer.varUInt(plan.dynamicPaths.length)
      for (const path of plan.dynamicPaths) writer.string(path)
      for (let i = 0; i < typed.length; i++) typed[i]!.codec.encodePrefix(writer, plan.typedInputs[i]!)
      for (let i = 0; i < plan.dynamicCodecs.length; i++)
        plan.dynamicCodecs[i]!.encodePrefix(writer, plan.dynamicInputs[i]!)
    },
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      const plan = plans.take(input)
      for (let i = 0; i < typed.length; i++) typed[i]!.codec.encode(writer, plan.typedInputs[i]!, rows)
      for (let i = 0; i < plan.dynamicCodecs.length; i++)
        plan.dynamicCodecs[i]!.encode(writer, plan.dynamicInputs[i]!, rows)
      // Shared data: no entries in any row.
      writer.ensure(rows * 8)
      writer.bytes.fill(0, writer.offset, writer.offset + rows * 8)
      writer.offset += rows * 8
    },
  }
}
