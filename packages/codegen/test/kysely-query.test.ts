import { createClient } from '@clickwire/client'
import { ClickHouseDialect } from '@clickwire/kysely'
import { CamelCasePlugin, type Insertable, Kysely, type Selectable } from 'kysely'
import { describe, expect, expectTypeOf, inject, it } from 'vitest'
import type { DB as CamelDB } from './snapshots/camel-case.gen.js'
import type { DB as ModernCamelDB } from './snapshots/modern/camel-case.gen.js'
import type { DB as ModernDB } from './snapshots/modern/two-databases.gen.js'
import type { DB } from './snapshots/two-databases.gen.js'
import { typesDatabase } from './support/codegen-schema.js'

/**
 * Kysely queries written against the committed generated types: they compile (this file
 * is type-checked by `tsc -p tsconfig.json`, `@ts-expect-error` lines included) and run
 * against the live server through @clickwire/kysely.
 */

const server = inject('clickhouse')
const serverName = server.generation === 'modern' ? '26.x' : '18.16'

/**
 * The queries below are typed with 18.16's snapshots and run on both generations: 26.x's
 * snapshots give the tables and columns they use the same types (checked here by tsc), so
 * the same code is typed right for either server.
 */
describe("26.x's generated types agree with 18.16's for the tables these queries use", () => {
  it('ontime, events, kysely_inserts, the view and the all_types columns queried', () => {
    expectTypeOf<ModernDB['codegen_perftest.ontime']>().toEqualTypeOf<DB['codegen_perftest.ontime']>()
    expectTypeOf<ModernDB['codegen_types.events']>().toEqualTypeOf<DB['codegen_types.events']>()
    expectTypeOf<ModernDB['codegen_types.kysely_inserts']>().toEqualTypeOf<
      DB['codegen_types.kysely_inserts']
    >()
    type Queried = 'i64' | 'mat' | 'al' | 'with_default'
    expectTypeOf<Pick<ModernDB['codegen_types.all_types'], Queried>>().toEqualTypeOf<
      Pick<DB['codegen_types.all_types'], Queried>
    >()
    expectTypeOf<ModernCamelDB['allTypesView']>().toEqualTypeOf<CamelDB['allTypesView']>()
  })
})

describe.each([
  ['native', server.nativeUrl],
  ['http', server.httpUrl],
])(`Kysely over the %s transport on ${serverName}`, (_transport, url) => {
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

describe.each([
  ['native', server.nativeUrl, 0n],
  ['http', server.httpUrl, 100n],
])(`Kysely inserts over the %s transport on ${serverName}`, (_transport, url, base) => {
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
})

describe.runIf(server.generation === 'modern').each([
  ['native', server.nativeUrl],
  ['http', server.httpUrl],
])(
  'Kysely on the types only 26.x has, over the %s transport (skipped on 18.16: it has none of them)',
  (_transport, url) => {
    it('selects wide integers, Map, Bool, IPv4, JSON, Variant and Nested with typed results', async () => {
      await using client = createClient(url)
      const db = new Kysely<ModernDB>({ dialect: new ClickHouseDialect({ client }) })
      const rows = await db
        .selectFrom('codegen_types.modern_types')
        .select(['i256', 'u128', 'm', 'flag', 'ip4', 'j', 'v', 'items', 'pt', 'raw_length'])
        .orderBy('i256')
        .execute()
      expectTypeOf(rows).toEqualTypeOf<
        {
          i256: bigint
          u128: bigint
          m: Map<string, bigint>
          flag: boolean
          ip4: string
          j: Record<string, unknown>
          v: number[] | string | bigint | null
          items: { sku: string; qty: number }[]
          pt: [number, number]
          raw_length: bigint
        }[]
      >()
      const i256min = -57896044618658097711785492504343953926634992332820282019728792003956564819968n
      const u128max = 340282366920938463463374607431768211455n
      expect(rows).toEqual(
        [0n, 1n, 2n].map((n) => ({
          i256: i256min + n,
          u128: u128max - n,
          m: new Map([
            ['a', n],
            ['b', 18446744073709551615n],
          ]),
          flag: n % 2n === 0n,
          ip4: '192.168.0.1',
          j: expect.objectContaining({ a: { b: expect.anything() } }),
          v: [`text`, 42n, null][Number(n)],
          items: [
            { sku: 'sku-1', qty: 2 },
            { sku: 'sku-2', qty: 0 },
          ],
          pt: [1.5, -2],
          raw_length: n,
        })),
      )
    })

    it('rejects at compile time what 26.x would reject', () => {
      const db = new Kysely<ModernDB>({
        dialect: new ClickHouseDialect({ client: createClient(server.httpUrl) }),
      })
      const compileOnly = () => {
        // @ts-expect-error Int256 is a bigint under the default mapping
        db.selectFrom('codegen_types.modern_types').selectAll().where('i256', '=', 'one')
      }
      expect(typeof compileOnly).toBe('function')
      // A Merge table refuses inserts (NOT_IMPLEMENTED): read-only like a view, no column to insert.
      expectTypeOf<keyof Insertable<ModernDB['codegen_types.events_merge']>>().toEqualTypeOf<never>()
      // An EPHEMERAL column is inserted, never selected; a DEFAULT one may be left out.
      type Modern = ModernDB['codegen_types.modern_types']
      expectTypeOf<'raw' extends keyof Selectable<Modern> ? true : false>().toEqualTypeOf<false>()
      expectTypeOf<Insertable<Modern>['raw']>().toEqualTypeOf<string | undefined>()
      expectTypeOf<Insertable<Modern>['raw_length']>().toEqualTypeOf<bigint | undefined>()
    })
  },
)
