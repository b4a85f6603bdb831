import { UsageError } from '@clickwire/protocol'
import {
  compactJsonWriter,
  csvQuoted,
  escapedString,
  jsonString,
  type TextSettings,
  type ValueWriter,
  valueWriter,
} from './value-text.js'

/** A column of the result: its name and ClickHouse type. */
export interface FormatColumn {
  readonly name: string
  readonly type: string
}

/** What the server reports after the rows, for the JSON formats' trailer. */
export interface FormatTrailer {
  /** The totals row (`WITH TOTALS`), in column order. */
  readonly totals: readonly unknown[] | undefined
  /** `rows_before_limit_at_least`, when a LIMIT was applied. */
  readonly rowsBeforeLimit: number | undefined
  readonly elapsedSeconds: number
  readonly rowsRead: number
  readonly bytesRead: number
}

/** Writes one result in a text format, chunk by chunk: the header, each block, the trailer. */
export interface FormatWriter {
  readonly contentType: string
  head(): string
  rows(rows: readonly (readonly unknown[])[]): string
  tail(trailer: FormatTrailer): string
}

/** The formats the drop-in writes over native, with their canonical names (aliases as the server has them). */
const aliases: Record<string, string> = {
  TSV: 'TabSeparated',
  TSVWithNames: 'TabSeparatedWithNames',
  TSVWithNamesAndTypes: 'TabSeparatedWithNamesAndTypes',
  TSVRaw: 'TabSeparatedRaw',
  JSONLines: 'JSONEachRow',
  NDJSON: 'JSONEachRow',
}

const writers = [
  'JSON',
  'JSONCompact',
  'JSONEachRow',
  'JSONCompactEachRow',
  'JSONCompactEachRowWithNames',
  'JSONCompactEachRowWithNamesAndTypes',
  'JSONObjectEachRow',
  'CSV',
  'CSVWithNames',
  'CSVWithNamesAndTypes',
  'TabSeparated',
  'TabSeparatedWithNames',
  'TabSeparatedWithNamesAndTypes',
  'TabSeparatedRaw',
] as const

type WrittenFormat = (typeof writers)[number]

/** The canonical name of a format the drop-in can write over native, else undefined. */
export function writtenFormat(format: string): WrittenFormat | undefined {
  const name = aliases[format] ?? format
  return (writers as readonly string[]).includes(name) ? (name as WrittenFormat) : undefined
}

/** The format names the drop-in writes over native, for messages. */
export const writtenFormats: readonly string[] = [...writers, ...Object.keys(aliases)]

/** The Content-Type the server gives a format (the drop-in's result over native says the same). */
export function formatContentType(format: string): string {
  const name = writtenFormat(format) ?? format
  if (name === 'JSONEachRow') return 'application/x-ndjson; charset=UTF-8'
  if (name.startsWith('JSON')) return 'application/json; charset=UTF-8'
  if (name.startsWith('CSV'))
    return `text/csv; charset=UTF-8; header=${name === 'CSV' ? 'absent' : 'present'}`
  if (name.startsWith('TabSeparated')) return 'text/tab-separated-values; charset=UTF-8'
  return 'text/plain; charset=UTF-8'
}

/** Seconds as the server prints them: fixed-point, nine places at most, no trailing zeros. */
function seconds(value: number): string {
  return value.toFixed(9).replace(/\.?0+$/, '') || '0'
}

function statistics(trailer: FormatTrailer): string {
  return [
    '\t"statistics":',
    '\t{',
    `\t\t"elapsed": ${seconds(trailer.elapsedSeconds)},`,
    `\t\t"rows_read": ${trailer.rowsRead},`,
    `\t\t"bytes_read": ${trailer.bytesRead}`,
    '\t}',
  ].join('\n')
}

/** The JSON and JSONCompact document: meta, data, totals, rows, rows_before_limit_at_least, statistics. */
function documentWriter(
  columns: readonly FormatColumn[],
  settings: TextSettings,
  compact: boolean,
  values: readonly ValueWriter[],
  flat: readonly ((value: unknown) => string)[],
): FormatWriter {
  const slash = settings.escapeForwardSlashes
  const names = columns.map((column) => jsonString(column.name, slash))
  let rowCount = 0
  const meta = columns
    .map((column, index) =>
      [
        '\t\t{',
        `\t\t\t"name": ${names[index]},`,
        `\t\t\t"type": ${jsonString(column.type, slash)}`,
        '\t\t}',
      ].join('\n'),
    )
    .join(',\n')
  const objectRow = (
    row: readonly unknown[],
    indent: string,
    write: (index: number) => (v: unknown) => string,
  ) =>
    `${indent}{\n${row.map((value, index) => `${indent}\t${names[index]}: ${write(index)(value)}`).join(',\n')}\n${indent}}`
  const compactRow = (row: readonly unknown[], separator: string) =>
    `[${row.map((value, index) => flat[index]!(value)).join(separator)}]`
  return {
    contentType: 'application/json; charset=UTF-8',
    head: () => `{\n\t"meta":\n\t[\n${meta}${meta ? '\n' : ''}\t],\n\n\t"data":\n\t[\n`,
    rows: (rows) => {
      let text = ''
      for (const row of rows) {
        text += rowCount === 0 ? '' : ',\n'
        text += compact
          ? `\t\t${compactRow(row, ', ')}`
          : objectRow(row, '\t\t', (index) => (value) => values[index]!.json(value))
        rowCount++
      }
      return text
    },
    tail: (trailer) => {
      const parts = [`${rowCount === 0 ? '\n' : '\n'}\t]`]
      if (trailer.totals) {
        parts.push(
          compact
            ? `\t"totals": ${compactRow(trailer.totals, ', ')}`
            : `\t"totals":\n${objectRow(trailer.totals, '\t', (index) => flat[index]!)}`,
        )
      }
      parts.push(`\t"rows": ${rowCount}`)
      if (trailer.rowsBeforeLimit !== undefined)
        parts.push(`\t"rows_before_limit_at_least": ${trailer.rowsBeforeLimit}`)
      parts.push(statistics(trailer))
      return `${parts.join(',\n\n')}\n}\n`
    },
  }
}

/**
 * The writer of `format` for a result of `columns`, as the server writes it with
 * `settings`. A UsageError for a format the drop-in does not write over native, naming
 * HTTP, where the server writes every format itself.
 */
export function formatWriter(
  format: string,
  columns: readonly FormatColumn[],
  settings: TextSettings,
): FormatWriter {
  const name = writtenFormat(format)
  if (!name) {
    throw new UsageError(
      `format ${format} is not available over the native protocol (clickhouse://), which carries results only as Native blocks: the drop-in writes ${writers.join(', ')} itself; for ${format}, use an http:// or https:// URL, where the server writes it`,
    )
  }
  const values = columns.map((column) => valueWriter(column.type, settings))
  const flat = columns.map((column) => compactJsonWriter(column.type, settings))
  const slash = settings.escapeForwardSlashes
  const contentType = formatContentType(name)
  const simple = (line: (row: readonly unknown[]) => string, head = ''): FormatWriter => ({
    contentType,
    head: () => head,
    rows: (rows) => rows.map(line).join(''),
    tail: () => '',
  })
  switch (name) {
    case 'JSON':
      return documentWriter(columns, settings, false, values, flat)
    case 'JSONCompact':
      return documentWriter(columns, settings, true, values, flat)
    case 'JSONEachRow': {
      const keys = columns.map((column) => `${jsonString(column.name, slash)}:`)
      return simple((row) => `{${row.map((value, index) => keys[index] + flat[index]!(value)).join(',')}}\n`)
    }
    case 'JSONCompactEachRow':
    case 'JSONCompactEachRowWithNames':
    case 'JSONCompactEachRowWithNamesAndTypes': {
      let head = ''
      if (name !== 'JSONCompactEachRow')
        head += `[${columns.map((column) => jsonString(column.name, slash)).join(', ')}]\n`
      if (name === 'JSONCompactEachRowWithNamesAndTypes')
        head += `[${columns.map((column) => jsonString(column.type, slash)).join(', ')}]\n`
      return simple((row) => `[${row.map((value, index) => flat[index]!(value)).join(', ')}]\n`, head)
    }
    case 'JSONObjectEachRow': {
      const keys = columns.map((column) => `${jsonString(column.name, slash)}:`)
      let count = 0
      return {
        contentType,
        head: () => '{\n',
        rows: (rows) =>
          rows
            .map((row) => {
              count++
              const object = `{${row.map((value, index) => keys[index] + flat[index]!(value)).join(',')}}`
              return `${count === 1 ? '' : ',\n'}\t"row_${count}": ${object}`
            })
            .join(''),
        tail: () => '\n}\n',
      }
    }
    case 'CSV':
    case 'CSVWithNames':
    case 'CSVWithNamesAndTypes': {
      const delimiter = settings.csvDelimiter
      const end = settings.csvCrlf ? '\r\n' : '\n'
      let head = ''
      const header = columns.flatMap((column, index) => values[index]!.csvHeader(column.name))
      if (name !== 'CSV') head += header.map((column) => csvQuoted(column.name)).join(delimiter) + end
      if (name === 'CSVWithNamesAndTypes')
        head += header.map((column) => csvQuoted(column.type)).join(delimiter) + end
      return simple((row) => row.map((value, index) => values[index]!.csv(value)).join(delimiter) + end, head)
    }
    default: {
      const end = settings.tsvCrlf ? '\r\n' : '\n'
      const raw = name === 'TabSeparatedRaw'
      let head = ''
      if (name === 'TabSeparatedWithNames' || name === 'TabSeparatedWithNamesAndTypes')
        head += columns.map((column) => escapedString(column.name)).join('\t') + end
      if (name === 'TabSeparatedWithNamesAndTypes')
        head += columns.map((column) => escapedString(column.type)).join('\t') + end
      return simple(
        (row) =>
          row
            .map((value, index) => (raw ? values[index]!.raw(value) : values[index]!.tsv(value)))
            .join('\t') + end,
        head,
      )
    }
  }
}
