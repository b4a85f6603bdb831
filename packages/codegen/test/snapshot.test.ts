import { fileURLToPath } from 'node:url'
import { type Client, createClient } from '@clickwire/client'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { formatWarning } from '../src/codegen-options.js'
import { type CodegenWarning, generate, introspect } from '../src/index.js'
import { perftestDatabase, typesDatabase } from './support/codegen-schema.js'
import { typeCheck } from './support/type-check.js'

const { generation } = inject('clickhouse')
/** Each generation's schema (see schemaSqlOf) has its own snapshots: 18.16's in snapshots/, 26.x's in snapshots/modern/. */
const snapshot = (name: string) =>
  fileURLToPath(new URL(`./snapshots/${generation === 'modern' ? 'modern/' : ''}${name}`, import.meta.url))
const server = generation === 'modern' ? '26.x' : '18.16'
/** The tables the mapping-option snapshots render: on 26.x also the types only it has. */
const mappingTables =
  generation === 'modern'
    ? ['all_types', 'all_types_view', 'modern_types', 'modern_types_view']
    : ['all_types', 'all_types_view']

let client: Client

beforeAll(() => {
  client = createClient(inject('clickhouse').nativeUrl)
})

afterAll(async () => {
  await client?.close()
})

describe(`snapshots of a live ${server} schema`, () => {
  it(`types every ${server} type, views and unsupported types (defaults)`, async () => {
    const warnings: CodegenWarning[] = []
    const text = await generate({ client, databases: [typesDatabase], onWarning: (w) => warnings.push(w) })
    await expect(text).toMatchFileSnapshot(snapshot('all-types.gen.ts'))
    // Only the two aggregate states clickwire cannot delimit are unknown, each with a warning.
    expect(warnings.map(formatWarning)).toEqual([
      expect.stringMatching(
        /^codegen_types\.unsupported_types\.quantile_state: .*quantiles.*; typed as unknown$/,
      ),
      expect.stringMatching(
        /^codegen_types\.unsupported_types\.uniq_array_state: .*groupUniqArray.*; typed as unknown$/,
      ),
    ])
    expect(text).toContain('  quantile_state: unknown;\n')
    // The storage table of the materialized view is left out; the view is read-only.
    expect(text).not.toContain('.inner')
    expect(text).toMatch(/export interface StringsMv \{\n(?:.*\n)*? {2}s: ColumnType<string, never, never>;/)
  })

  it('qualifies keys with the database when several are generated, with ontime', async () => {
    const text = await generate({
      client,
      databases: [typesDatabase, perftestDatabase],
      onWarning: () => {},
    })
    await expect(text).toMatchFileSnapshot(snapshot('two-databases.gen.ts'))
    expect(text).toContain('  "codegen_perftest.ontime": CodegenPerftestOntime;\n')
    expect(text).toContain('  "codegen_types.all_types": CodegenTypesAllTypes;\n')
  })

  it.each([
    ['int64-number.dates-date.decimal-number', { int64: 'number', dates: 'date', decimal: 'number' }],
    ['int64-string', { int64: 'string' }],
  ] as const)('follows the mapping options: %s', async (name, mapping) => {
    const text = await generate({
      client,
      databases: [typesDatabase],
      include: mappingTables,
      ...mapping,
    })
    await expect(text).toMatchFileSnapshot(snapshot(`all-types.${name}.gen.ts`))
  })

  it('camel-cases keys for CamelCasePlugin and warns about names it cannot reach', async () => {
    const warnings: CodegenWarning[] = []
    const text = await generate({
      client,
      databases: [typesDatabase],
      include: ['events', 'all_types_view'],
      camelCase: true,
      onWarning: (w) => warnings.push(w),
    })
    await expect(text).toMatchFileSnapshot(snapshot('camel-case.gen.ts'))
    expect(text).toContain('  allTypesView: AllTypesView;\n')
    expect(text).toContain(
      '  /** Column `n_s`: `Nullable(String)` */\n  nS: ColumnType<string | null, never, never>;\n',
    )
    expect(warnings).toEqual([])
    // ontime's PascalCase names go to the server snake-cased (FlightDate -> flight_date): unreachable.
    const ontime = await generate({
      client,
      databases: [perftestDatabase],
      camelCase: true,
      onWarning: (w) => warnings.push(w),
    })
    expect(ontime).toContain('  FlightDate: string;\n')
    expect(warnings).toHaveLength(109)
    expect(warnings.map(formatWarning)).toContain(
      'codegen_perftest.ontime.FlightDate: CamelCasePlugin cannot reach this column (it would query flight_date); key left as FlightDate',
    )
  })

  it('reads the metadata the renderer needs', async () => {
    const schema = await introspect(client, { databases: [typesDatabase], include: ['events'] })
    expect(schema).toEqual({
      databases: [typesDatabase],
      tables: [
        {
          database: typesDatabase,
          name: 'events',
          engine: 'MergeTree',
          kind: 'table',
          comment: '',
          columns: [
            { name: 'id', type: 'UInt64', defaultKind: '', defaultExpression: '', comment: '' },
            { name: 'name', type: 'String', defaultKind: '', defaultExpression: '', comment: '' },
            {
              name: 'created',
              type: 'DateTime',
              defaultKind: 'DEFAULT',
              defaultExpression: "toDateTime('2017-01-04 00:00:00')",
              comment: '',
            },
            { name: 'tags', type: 'Array(String)', defaultKind: '', defaultExpression: '', comment: '' },
            {
              name: 'score',
              type: 'Nullable(Float64)',
              defaultKind: '',
              defaultExpression: '',
              comment: '',
            },
            {
              name: 'total',
              type: 'Int64',
              defaultKind: 'MATERIALIZED',
              defaultExpression: 'toInt64(id) * 10',
              comment: '',
            },
          ],
        },
      ],
    })
  })

  it('the committed snapshots type-check', () => {
    const files = [
      'all-types.gen.ts',
      'two-databases.gen.ts',
      'all-types.int64-number.dates-date.decimal-number.gen.ts',
      'all-types.int64-string.gen.ts',
      'camel-case.gen.ts',
    ].map(snapshot)
    expect(typeCheck(files)).toEqual([])
  })
})
