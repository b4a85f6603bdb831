import { createClient } from '@clickwire/client'
import { ClickHouseDialect } from '@clickwire/kysely'
import { CamelCasePlugin, Kysely } from 'kysely'
import { describe, expect, expectTypeOf, inject, it } from 'vitest'
import type { DB as CamelDB } from './snapshots/camel-case.gen.js'
import type { DB } from './snapshots/two-databases.gen.js'
import { legacySchemaOnly, typesDatabase } from './support/codegen-schema.js'

/**
 * Kysely queries written against the committed generated types: they compile (this file
 * is type-checked by `tsc -p tsconfig.json`, `@ts-expect-error` lines included) and run
 * against the live server through @clickwire/kysely.
 */

const server = inject('clickhouse')

describe.skipIf(server.generation === 'modern').each([
  ['native', server.nativeUrl],
  ['http', server.httpUrl],
])(`Kysely over the %s transport (skipped on modern: ${legacySchemaOnly})`, (_transport, url) => {
  it('selects from a qualified table with typed results', async () => {
    await using client = createClient(url)
    const db = new Kysely<DB>({ dialect: new ClickHouseDialect({ client }) })
    const query = db
      .selectFrom('codegen_perftest.ontime')
      .select(['Year', 'FlightDate', 'Carrier', 'Origin', 'DepDelay'])
      .where('Year', '=', 2017)
      .orderBy('FlightDate')
    expect(query.compile().sql).toBe(
      'select `Year`, `FlightDate`, `Carrier`, `Origin`, `DepDelay` from `codegen_perftest`.`ontime` where `Year` = {p0:Int64} order by `FlightDate`',
    )
    const rows = await query.execute()
    expectTypeOf(rows).toEqualTypeOf<
      { Year: number; FlightDate: string; Carrier: string; Origin: string; DepDelay: number }[]
    >()
    expect(rows).toEqual([
      { Year: 2017, FlightDate: '2017-01-04', Carrier: 'AA', Origin: 'JFK\0\0', DepDelay: 12 },
      { Year: 2017, FlightDate: '2017-01-05', Carrier: 'DL', Origin: 'ATL\0\0', DepDelay: -3 },
    ])
  })

  it('aggregates, with ALIAS / MATERIALIZED columns selected by name', async () => {
    await using client = createClient(url)
    const db = new Kysely<DB>({ dialect: new ClickHouseDialect({ client }) })
    const delays = await db
      .selectFrom('codegen_perftest.ontime')
      .select((eb) => ['Carrier', eb.fn.max('ArrDelay').as('worst')])
      .groupBy('Carrier')
      .orderBy('Carrier')
      .execute()
    expectTypeOf(delays).toEqualTypeOf<{ Carrier: string; worst: number }[]>()
    expect(delays).toEqual([
      { Carrier: 'AA', worst: 5 },
      { Carrier: 'DL', worst: -10 },
      { Carrier: 'UA', worst: 51 },
    ])
    const computed = await db
      .selectFrom('codegen_types.all_types')
      .select(['i64', 'mat', 'al', 'with_default'])
      .orderBy('i64')
      .limit(1)
      .executeTakeFirstOrThrow()
    expectTypeOf(computed).toEqualTypeOf<{ i64: bigint; mat: bigint; al: string; with_default: number }>()
    expect(computed).toEqual({ i64: -9223372036854775808n, mat: 0n, al: 'ROW 0 ✓', with_default: 42 })
  })

  it('reads a view and a Kysely CamelCasePlugin workflow', async () => {
    // One database was generated, so keys are bare table names: connect to that database.
    await using client = createClient({ url, database: typesDatabase })
    const db = new Kysely<CamelDB>({
      dialect: new ClickHouseDialect({ client }),
      plugins: [new CamelCasePlugin()],
    })
    const rows = await db
      .selectFrom('allTypesView')
      .select(['u64', 'nS', 'lcNs', 'tNamed'])
      .orderBy('u64')
      .execute()
    expectTypeOf(rows).toEqualTypeOf<
      { u64: bigint; nS: string | null; lcNs: string | null; tNamed: { id: bigint; label: string | null } }[]
    >()
    expect(rows).toEqual([
      { u64: 18446744073709551613n, nS: 'nullable', lcNs: 'lc', tNamed: { id: 2n, label: 'label' } },
      { u64: 18446744073709551614n, nS: 'nullable', lcNs: null, tNamed: { id: 1n, label: 'label' } },
      { u64: 18446744073709551615n, nS: null, lcNs: 'lc', tNamed: { id: 0n, label: null } },
    ])
  })
})

describe.skipIf(server.generation === 'modern').each([
  ['native', server.nativeUrl, 0n],
  ['http', server.httpUrl, 100n],
])(
  `Kysely inserts over the %s transport (skipped on modern: ${legacySchemaOnly})`,
  (_transport, url, base) => {
    it('insert types follow DEFAULT and MATERIALIZED, and the row reads back', async () => {
      await using client = createClient(url)
      const db = new Kysely<DB>({ dialect: new ClickHouseDialect({ client }) })
      const table = 'codegen_types.kysely_inserts' as const
      await db
        .insertInto(table)
        .values({ id: base + 7n, name: 'kysely', tags: ['x', 'y'] })
        .execute()
      await db
        .insertInto(table)
        .values({ id: base + 8n, name: 'full', tags: [], score: 0.5, created: '2020-01-02 03:04:05' })
        .execute()
      const rows = await db
        .selectFrom(table)
        .select(['id', 'name', 'created', 'tags', 'score', 'total'])
        .where('id', 'in', [base + 7n, base + 8n])
        .orderBy('id')
        .execute()
      expect(rows).toEqual([
        {
          id: base + 7n,
          name: 'kysely',
          created: '2017-01-04 00:00:00',
          tags: ['x', 'y'],
          score: null,
          total: (base + 7n) * 10n,
        },
        {
          id: base + 8n,
          name: 'full',
          created: '2020-01-02 03:04:05',
          tags: [],
          score: 0.5,
          total: (base + 8n) * 10n,
        },
      ])
    })

    it('rejects at compile time what ClickHouse would reject', () => {
      const db = new Kysely<DB>({ dialect: new ClickHouseDialect({ client: createClient(server.httpUrl) }) })
      const compileOnly = () => {
        // @ts-expect-error MATERIALIZED columns cannot be inserted
        db.insertInto('codegen_types.kysely_inserts').values({ id: 1n, name: 'x', tags: [], total: 1n })
        // @ts-expect-error a column without a default must be given
        db.insertInto('codegen_types.kysely_inserts').values({ id: 1n, tags: [] })
        // @ts-expect-error UInt64 is a bigint under the default mapping
        db.selectFrom('codegen_types.events').selectAll().where('id', '=', 'one')
        // @ts-expect-error unknown column
        db.selectFrom('codegen_perftest.ontime').select(['NoSuchColumn'])
      }
      expect(typeof compileOnly).toBe('function')
    })
  },
)
