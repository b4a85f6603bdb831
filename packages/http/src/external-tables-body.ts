import {
  ByteWriter,
  type CodecContext,
  type ExternalTable,
  encodeUtf8,
  quoteSqlIdentifier,
  UsageError,
  versionAtLeast,
} from '@clickwire/protocol'
import { externalTableColumns, NativeBlockWriter } from '@clickwire/protocol/insert'
import type { BoundStatement } from './http-parameters.js'

/**
 * Servers from 24.3 parse `<table>_structure` as a column list, so any name (quoted) and any
 * type fit. Older ones split it at every space and comma (18.16 checked live: "Odd number of
 * attributes in section structure"); there a name or type containing either cannot be sent.
 * The exact release of the change is not pinned down: 24.3 is one that surely has it.
 */
function parsesColumnList(version: string): boolean {
  return versionAtLeast(version, 24, 3)
}

const plainName = /^[^\s,`"]+$/

/** The `<table>_structure` text for the server, or a UsageError saying why it cannot be written. */
function structureOf(table: ExternalTable, version: string): string {
  if (parsesColumnList(version))
    return table.columns.map((column) => `${quoteSqlIdentifier(column.name)} ${column.type}`).join(', ')
  for (const column of table.columns) {
    if (!plainName.test(column.name) || /[\s,]/.test(column.type))
      throw new UsageError(
        `external table ${table.name}: column ${column.name} ${column.type} cannot be sent over HTTP to ` +
          `ClickHouse ${version}, which splits an external table's structure at spaces and commas ` +
          '(servers from 24.3 do not); use the native transport for it',
      )
  }
  return table.columns.map((column) => `${column.name} ${column.type}`).join(',')
}

/** A name fit for a multipart header's quoted `name="..."` and for a URL field prefix. */
function checkTableName(name: string): void {
  if (name === '' || /["\r\n\\]/.test(name))
    throw new UsageError(`external table name ${JSON.stringify(name)} cannot be sent over HTTP`)
}

/** 96 random bits: a boundary that occurs inside the data by chance with odds of 2^-96. */
function boundary(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12))
  return `clickwire-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`
}

/**
 * A statement with external tables as ClickHouse's HTTP interface takes it: a
 * `multipart/form-data` body with the query text in the `query` form field (both 18.16 and
 * 26.x read it from there) and each table as a file part in the Native format, written by
 * the same block writer the native transport uses; and the `<table>_format` and
 * `<table>_structure` URL fields, added to the statement's (so they also tell cached result
 * descriptions apart). The statement can also make the body of a DESCRIBE, whose tables
 * are sent without rows.
 */
export async function withExternalTables(
  statement: BoundStatement,
  tables: readonly ExternalTable[],
  context: CodecContext & { readonly version: string },
): Promise<{ statement: BoundStatement; body: Uint8Array; contentType: string }> {
  const fields = [...statement.fields]
  for (const table of tables) {
    checkTableName(table.name)
    fields.push(
      [`${table.name}_format`, 'Native'],
      [`${table.name}_structure`, structureOf(table, context.version)],
    )
  }
  return {
    statement: {
      text: statement.text,
      fields,
      describeBody: (sql) => multipartBody(sql, tables, context, false),
    },
    ...(await multipartBody(statement.text, tables, context, true)),
  }
}

async function multipartBody(
  sql: string,
  tables: readonly ExternalTable[],
  context: CodecContext,
  withRows: boolean,
): Promise<{ body: Uint8Array; contentType: string }> {
  const mark = boundary()
  const writer = new ByteWriter(64 * 1024)
  const text = (value: string) => writer.raw(encodeUtf8(value))
  text(`--${mark}\r\nContent-Disposition: form-data; name="query"\r\n\r\n`)
  text(sql)
  const blockWriter = new NativeBlockWriter({ ...context, revision: 0 }, false)
  for (const table of tables) {
    text(
      `\r\n--${mark}\r\nContent-Disposition: form-data; name="${table.name}"; filename="${table.name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    )
    if (withRows) {
      const { columns, rows } = await externalTableColumns(table)
      blockWriter.write(writer, columns, rows)
    }
  }
  text(`\r\n--${mark}--\r\n`)
  return { body: writer.finish(), contentType: `multipart/form-data; boundary=${mark}` }
}
