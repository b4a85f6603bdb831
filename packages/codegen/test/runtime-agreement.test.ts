import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@clickwire/client'
import { quoteSqlIdentifier, type ValueMapping } from '@clickwire/protocol'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { typeColumn } from '../src/column-typing.js'
import { introspect, render, type SchemaMetadata } from '../src/index.js'
import { typesDatabase } from './support/codegen-schema.js'
import { typeCheck } from './support/type-check.js'
import { typeTextPredicate } from './support/type-text-predicate.js'
import { valueLiteral } from './support/value-literal.js'

/**
 * The acceptance test of "same mapping as the runtime": for every column type the server
 * has (18.16's, or on 26.x those and the modern_types table's, see schemaSqlOf) and every
 * combination of the value-mapping options, on both transports, rows read
 * through the client (1) pass a runtime check of typeof / instanceof against the column's
 * generated type text and (2) written back as TypeScript literals, satisfy the generated
 * interfaces under tsc.
 */

const server = inject('clickhouse')
const transports = { native: server.nativeUrl, http: server.httpUrl } as const
const modern = server.generation === 'modern'
const serverName = modern ? '26.x' : '18.16'
const tables = modern
  ? ['all_types', 'all_types_view', 'events', 'modern_types', 'modern_types_view']
  : ['all_types', 'all_types_view', 'events']
/** The values checked per mapping: rows x selectable columns of each table. */
const expectedChecks = modern
  ? // 26.x keeps a_t whole (66 columns); modern_types has 39 besides the EPHEMERAL one, its view 9.
    3 * 66 + 3 * 9 + 2 * 6 + 3 * 39 + 3 * 9
  : // 3 rows x 67 columns of all_types, 3 x 9 of the view, 2 x 6 of events.
    3 * 67 + 3 * 9 + 2 * 6

const combinations: ValueMapping[] = []
for (const int64 of ['bigint', 'number', 'string'] as const)
  for (const dates of ['string', 'date'] as const)
    for (const decimal of ['string', 'number'] as const) combinations.push({ int64, dates, decimal })

const label = (mapping: ValueMapping) =>
  `int64=${mapping.int64} dates=${mapping.dates} decimal=${mapping.decimal}`

/** Generated module and rows per transport and mapping, type-checked together at the end. */
const typeLevel: { name: string; module: string; rows: string }[] = []
const workDir = mkdtempSync(join(tmpdir(), 'clickwire-codegen-agreement-'))
// ES modules, like a user's project (`import type` of `./db.js`).
writeFileSync(join(workDir, 'package.json'), '{ "type": "module" }\n')

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true })
})

/** Reads every selectable column of a table (ALIAS and MATERIALIZED too, which `SELECT *` leaves out). */
async function readRows(
  client: ReturnType<typeof createClient>,
  schema: SchemaMetadata,
  table: string,
): Promise<Record<string, unknown>[]> {
  const metadata = schema.tables.find((each) => each.name === table)!
  const columns = metadata.columns.filter((column) => column.defaultKind !== 'EPHEMERAL')
  const list = columns.map((column) => quoteSqlIdentifier(column.name)).join(', ')
  const rs = await client.query(
    `SELECT ${list} FROM ${quoteSqlIdentifier(typesDatabase)}.${quoteSqlIdentifier(table)}`,
  )
  return (await rs.rows()) as Record<string, unknown>[]
}

describe.each(Object.entries(transports))(`%s transport on ${serverName}`, (transport, url) => {
  it.each(combinations.map((mapping) => [label(mapping), mapping] as const))(
    'rows read with %s match the generated types at runtime',
    async (name, mapping) => {
      await using client = createClient({ url, ...mapping })
      const schema = await introspect(client, { databases: [typesDatabase], include: tables })
      expect(schema.tables.map((table) => table.name)).toEqual(tables)
      const module = render(schema, mapping)
      const mismatches: string[] = []
      const literals: string[] = []
      let checked = 0
      for (const table of schema.tables) {
        const rows = await readRows(client, schema, table.name)
        expect(rows.length).toBeGreaterThan(0)
        // EPHEMERAL columns are never read back (readRows leaves them out).
        for (const column of table.columns.filter((each) => each.defaultKind !== 'EPHEMERAL')) {
          const typing = typeColumn(column, table.kind, mapping)
          // The runtime check reads the same text the module prints for this field.
          expect(module).toContain(`: ${typing.fieldType};\n`)
          const predicate = typeTextPredicate(typing.valueType)
          for (const row of rows) {
            expect(Object.hasOwn(row, column.name)).toBe(true)
            checked++
            if (!predicate(row[column.name])) {
              mismatches.push(
                `${table.name}.${column.name} ${column.type}: ${valueLiteral(row[column.name])} is not ${typing.valueType}`,
              )
            }
          }
        }
        literals.push(
          `export const ${table.name} = [\n${rows.map((row) => `  ${valueLiteral(row)},`).join('\n')}\n] satisfies Selectable<DB[${JSON.stringify(table.name)}]>[];\n`,
        )
      }
      expect(mismatches).toEqual([])
      expect(checked).toBe(expectedChecks)
      typeLevel.push({
        name: `${transport}.${name.replace(/[= ]/g, '-')}`,
        module,
        rows: `import type { Selectable } from "kysely";\nimport type { DB } from "./db.js";\n\n${literals.join('\n')}`,
      })
    },
  )
})

describe(`type level on ${serverName}`, () => {
  it('rows written as literals satisfy the generated types under tsc, for every transport and mapping', () => {
    expect(typeLevel).toHaveLength(2 * combinations.length)
    const files: string[] = []
    for (const { name, module, rows } of typeLevel) {
      const dir = join(workDir, name)
      rmSync(dir, { recursive: true, force: true })
      writeFileSync(join(mkdirp(dir), 'db.ts'), module)
      writeFileSync(join(dir, 'rows.ts'), rows)
      files.push(join(dir, 'rows.ts'))
    }
    expect(typeCheck(files)).toEqual([])
  })

  it('tsc rejects a row whose value does not match (the check can fail)', () => {
    const sample = typeLevel.find(({ name }) => name.startsWith('native.int64-bigint'))!
    const dir = mkdirp(join(workDir, 'wrong'))
    writeFileSync(join(dir, 'db.ts'), sample.module)
    // A bigint column given a number, a Date column given a string, an array given a Uint8Array.
    const wrong = sample.rows
      .replace(/"i64": -?\d+n/, '"i64": 1')
      .replace(/"a_u8": \[[^\]]*\]/, '"a_u8": new Uint8Array([1])')
    writeFileSync(join(dir, 'rows.ts'), wrong)
    const diagnostics = typeCheck([join(dir, 'rows.ts')]).join('\n')
    expect(diagnostics).toMatch(/Type 'number' is not assignable to type 'bigint'/)
    expect(diagnostics).toMatch(
      /Type 'Uint8Array<ArrayBuffer>' is missing the following properties from type 'number\[\]'/,
    )
    expect(diagnostics.split('\n')).toHaveLength(2)
  })
})

function mkdirp(dir: string): string {
  mkdirSync(dir, { recursive: true })
  return dir
}
