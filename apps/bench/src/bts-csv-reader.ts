import type { OntimeColumnValues } from './ontime-generator.js'
import { type OntimeColumnName, ontimeColumns } from './ontime-schema.js'

/** A batch of rows read from a BTS file, columnar, ready for `client.insert`. */
export interface OntimeChunk {
  readonly rows: number
  readonly columns: Readonly<Record<OntimeColumnName, OntimeColumnValues>>
}

const dayMs = 86_400_000

/**
 * One BTS value as the reference pipeline would insert it: the reference strips every
 * `.00` (`sed 's/\.00//g'`) so that `12.00` fits an Int32; empty means the default.
 */
function cleaned(field: string): string {
  return field.includes('.00') ? field.replaceAll('.00', '') : field
}

class ChunkBuilder {
  rows = 0
  private columns: OntimeColumnValues[]

  constructor(private readonly capacity: number) {
    // Not a field initialiser: those run before `capacity` is assigned.
    this.columns = this.fresh()
  }

  private fresh(): OntimeColumnValues[] {
    return ontimeColumns.map(([, type]) =>
      type === 'Int32'
        ? new Int32Array(this.capacity)
        : type === 'UInt8'
          ? new Uint8Array(this.capacity)
          : type === 'UInt16' || type === 'Date'
            ? new Uint16Array(this.capacity)
            : new Array<string>(this.capacity),
    )
  }

  add(fields: readonly string[], line: number): void {
    const row = this.rows
    for (let index = 0; index < ontimeColumns.length; index++) {
      const [name, type] = ontimeColumns[index]!
      const value = cleaned(fields[index] ?? '')
      const target = this.columns[index]!
      if (type === 'Date') {
        const time = Date.parse(`${value}T00:00:00Z`)
        if (Number.isNaN(time))
          throw new Error(`line ${line}: ${name} is not a date: ${JSON.stringify(value)}`)
        ;(target as Uint16Array)[row] = time / dayMs
      } else if (Array.isArray(target)) {
        ;(target as string[])[row] = value
      } else {
        const number = value === '' ? 0 : Number(value)
        if (!Number.isInteger(number)) {
          throw new Error(`line ${line}: ${name} is not an integer: ${JSON.stringify(value)}`)
        }
        ;(target as Int32Array)[row] = number
      }
    }
    this.rows++
  }

  take(): OntimeChunk {
    const rows = this.rows
    const columns = {} as Record<OntimeColumnName, OntimeColumnValues>
    ontimeColumns.forEach(([name], index) => {
      const values = this.columns[index]!
      columns[name] = rows === this.capacity ? values : values.slice(0, rows)
    })
    this.columns = this.fresh()
    this.rows = 0
    return { rows, columns }
  }
}

/**
 * Reads a BTS on-time CSV (header line first, quoted strings, a trailing comma) into
 * column chunks. Columns map by position onto the reference table, as the reference's
 * `FORMAT CSVWithNames` insert does; extra trailing fields are ignored.
 */
export async function* readBtsCsv(
  input: AsyncIterable<Uint8Array | string>,
  chunkRows = 65_536,
): AsyncGenerator<OntimeChunk> {
  const decoder = new TextDecoder()
  const builder = new ChunkBuilder(chunkRows)
  let fields: string[] = []
  let field = ''
  let quoted = false
  // After a closing quote: a doubled quote continues the field, anything else ends it.
  let quoteSeen = false
  let line = 1
  let header = true
  const endRecord = () => {
    fields.push(field)
    field = ''
    if (header) header = false
    else if (!(fields.length === 1 && fields[0] === '')) builder.add(fields, line)
    fields = []
    line++
  }
  for await (const piece of input) {
    const text = typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true })
    let start = 0
    for (let i = 0; i < text.length; i++) {
      const char = text.charCodeAt(i)
      if (quoted) {
        if (char === 34) {
          field += text.slice(start, i)
          start = i + 1
          quoted = false
          quoteSeen = true
        }
        continue
      }
      if (char === 34) {
        field += text.slice(start, i)
        if (quoteSeen) field += '"'
        start = i + 1
        quoted = true
        quoteSeen = false
        continue
      }
      quoteSeen = false
      if (char === 44 || char === 10) {
        field += text.slice(start, i)
        start = i + 1
        if (char === 44) {
          fields.push(field)
          field = ''
        } else {
          if (field.endsWith('\r')) field = field.slice(0, -1)
          endRecord()
          if (builder.rows === chunkRows) yield builder.take()
        }
      }
    }
    field += text.slice(start)
  }
  if (field !== '' || fields.length > 0) endRecord()
  if (builder.rows > 0) yield builder.take()
}
