import type { Insertable, Selectable, Updateable } from 'kysely'
import { describe, expectTypeOf, it } from 'vitest'
import type { DB } from './snapshots/all-types.gen.js'
import type { DB as NumberDateDB } from './snapshots/all-types.int64-number.dates-date.decimal-number.gen.js'
import type { DB as StringDB } from './snapshots/all-types.int64-string.gen.js'
import type { DB as TwoDB } from './snapshots/two-databases.gen.js'

/**
 * Type-level assertions on the committed generated files; `tsc -p tsconfig.json` checks
 * them (the runtime calls are no-ops). The runtime side of the same promise is
 * runtime-agreement.test.ts.
 */

type Row = Selectable<DB['all_types']>
type Insert = Insertable<DB['all_types']>

describe('generated types (defaults: int64 bigint, dates string, decimal string)', () => {
  it('selects scalars as the client returns them', () => {
    expectTypeOf<Row['i8']>().toEqualTypeOf<number>()
    expectTypeOf<Row['u32']>().toEqualTypeOf<number>()
    expectTypeOf<Row['i64']>().toEqualTypeOf<bigint>()
    expectTypeOf<Row['u64']>().toEqualTypeOf<bigint>()
    expectTypeOf<Row['f32']>().toEqualTypeOf<number>()
    expectTypeOf<Row['dec128']>().toEqualTypeOf<string>()
    expectTypeOf<Row['fs']>().toEqualTypeOf<string>()
    expectTypeOf<Row['d']>().toEqualTypeOf<string>()
    expectTypeOf<Row['dt_tz']>().toEqualTypeOf<string>()
    expectTypeOf<Row['uuid']>().toEqualTypeOf<string>()
    expectTypeOf<Row['agg_uniq']>().toEqualTypeOf<Uint8Array>()
  })

  it('maps Enum to literals, Nullable to | null, LowCardinality to its inner type', () => {
    expectTypeOf<Row['e8']>().toEqualTypeOf<'a' | 'b' | "it's">()
    expectTypeOf<Row['e16']>().toEqualTypeOf<'x' | 'y "quoted"'>()
    expectTypeOf<Row['n_u64']>().toEqualTypeOf<bigint | null>()
    expectTypeOf<Row['n_e8']>().toEqualTypeOf<'off' | 'on' | null>()
    expectTypeOf<Row['lc_s']>().toEqualTypeOf<string>()
    expectTypeOf<Row['lc_ns']>().toEqualTypeOf<string | null>()
    expectTypeOf<Row['lc_u32']>().toEqualTypeOf<number>()
  })

  it('maps Array, Tuple and (flattened) Nested', () => {
    expectTypeOf<Row['a_n']>().toEqualTypeOf<(number | null)[]>()
    expectTypeOf<Row['a_a']>().toEqualTypeOf<string[][]>()
    expectTypeOf<Row['a_e']>().toEqualTypeOf<('p' | 'q')[]>()
    expectTypeOf<Row['t']>().toEqualTypeOf<[number, string]>()
    expectTypeOf<Row['t_named']>().toEqualTypeOf<{ id: bigint; label: string | null }>()
    expectTypeOf<Row['t_nested']>().toEqualTypeOf<[number[], [string, string]]>()
    expectTypeOf<Row['nested.k']>().toEqualTypeOf<string[]>()
    expectTypeOf<Row['nested.v']>().toEqualTypeOf<bigint[]>()
    expectTypeOf<Row['a_t.1']>().toEqualTypeOf<number[]>()
  })

  it('keeps names that are not identifiers', () => {
    expectTypeOf<Row['weird name']>().toEqualTypeOf<string>()
    expectTypeOf<Row['123start']>().toEqualTypeOf<number>()
    expectTypeOf<Row['with "quotes"']>().toEqualTypeOf<string>()
  })

  it('makes DEFAULT optional on insert and MATERIALIZED / ALIAS not insertable', () => {
    expectTypeOf<Row['with_default']>().toEqualTypeOf<number>()
    expectTypeOf<Row['mat']>().toEqualTypeOf<bigint>()
    expectTypeOf<Row['al']>().toEqualTypeOf<string>()
    expectTypeOf<Insert['with_default']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<Insert['i64']>().toEqualTypeOf<bigint>()
    expectTypeOf<'mat' extends keyof Insert ? true : false>().toEqualTypeOf<false>()
    expectTypeOf<'al' extends keyof Insert ? true : false>().toEqualTypeOf<false>()
    expectTypeOf<'mat' extends keyof Updateable<DB['all_types']> ? true : false>().toEqualTypeOf<false>()
    // Nullable columns are optional on insert too (ClickHouse fills NULL).
    expectTypeOf<{ n_s?: string | null }>().toMatchTypeOf<Pick<Insert, 'n_s'>>()
  })

  it('makes views and materialized views read-only', () => {
    expectTypeOf<keyof Insertable<DB['all_types_view']>>().toEqualTypeOf<never>()
    expectTypeOf<keyof Insertable<DB['strings_mv']>>().toEqualTypeOf<never>()
    expectTypeOf<Selectable<DB['all_types_view']>['t_named']>().toEqualTypeOf<{
      id: bigint
      label: string | null
    }>()
  })

  it('types unsupported columns as unknown', () => {
    expectTypeOf<Selectable<DB['unsupported_types']>['quantile_state']>().toEqualTypeOf<unknown>()
  })
})

describe('generated types under other mapping options', () => {
  it('int64: number, dates: date, decimal: number', () => {
    type R = Selectable<NumberDateDB['all_types']>
    expectTypeOf<R['i64']>().toEqualTypeOf<number>()
    expectTypeOf<R['a_u64']>().toEqualTypeOf<number[]>()
    expectTypeOf<R['d']>().toEqualTypeOf<Date>()
    expectTypeOf<R['n_dt']>().toEqualTypeOf<Date | null>()
    expectTypeOf<R['dec']>().toEqualTypeOf<number>()
    expectTypeOf<R['t_nested']>().toEqualTypeOf<[number[], [Date, number]]>()
  })

  it('int64: string', () => {
    type R = Selectable<StringDB['all_types']>
    expectTypeOf<R['u64']>().toEqualTypeOf<string>()
    expectTypeOf<R['t_named']>().toEqualTypeOf<{ id: string; label: string | null }>()
  })
})

describe('several databases', () => {
  it('qualifies DB keys and keeps every database', () => {
    expectTypeOf<keyof TwoDB>().toEqualTypeOf<
      | 'codegen_perftest.ontime'
      | 'codegen_types.all_types'
      | 'codegen_types.all_types_view'
      | 'codegen_types.events'
      | 'codegen_types.kysely_inserts'
      | 'codegen_types.strings_mv'
      | 'codegen_types.unsupported_types'
    >()
    type Ontime = Selectable<TwoDB['codegen_perftest.ontime']>
    expectTypeOf<Ontime['FlightDate']>().toEqualTypeOf<string>()
    expectTypeOf<Ontime['Year']>().toEqualTypeOf<number>()
    expectTypeOf<Ontime['Div5TailNum']>().toEqualTypeOf<string>()
  })
})
