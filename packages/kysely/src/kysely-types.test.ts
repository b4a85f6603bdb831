import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely'
import { describe, expectTypeOf, it } from 'vitest'
import { compileDb, type DB } from '../test/support/compile-fixtures.js'
import {
  arrayJoin,
  type ClickHouseQueryResult,
  executeWithTotals,
  final,
  globalIn,
  globalJoin,
  leftArrayJoin,
  limitBy,
  prewhere,
  sample,
  settings,
  typed,
  withTotals,
} from './index.js'

/*
 * Type-level tests against the hand-written DB of compile-fixtures.ts (the shape clickwire-codegen
 * generates). They run as ordinary tests too, so a regression shows in both tsc and vitest.
 */

const db = compileDb()

type RowOf<Q> =
  Q extends SelectQueryBuilder<never, never, infer O>
    ? O
    : Q extends { execute(): Promise<(infer O)[]> }
      ? O
      : never

describe('query results', () => {
  it('have the column types of DB', () => {
    const query = db.selectFrom('users').select(['id', 'tags', 'created'])
    expectTypeOf<RowOf<typeof query>>().toEqualTypeOf<{ id: number; tags: string[]; created: string }>()
    const joined = db
      .selectFrom('events as e')
      .innerJoin('users as u', 'u.id', 'e.user_id')
      .select(['e.event_id', 'u.name', 'e.point'])
    expectTypeOf<RowOf<typeof joined>>().toEqualTypeOf<{
      event_id: bigint
      name: string
      point: [number, number]
    }>()
  })

  it('of aggregates follow Kysely', () => {
    const query = db
      .selectFrom('events')
      .select((eb) => ['kind', eb.fn.countAll<bigint>().as('n'), eb.fn.sum<number>('value').as('total')])
      .groupBy('kind')
    expectTypeOf<RowOf<typeof query>>().toEqualTypeOf<{ kind: string; n: bigint; total: number }>()
  })
})

describe('clause helpers', () => {
  it('keep the builder type when they add no columns', () => {
    const base = db.selectFrom('events').select(['kind', 'value'])
    expectTypeOf(base.$call(final())).toEqualTypeOf(base)
    expectTypeOf(base.$call(sample(0.1))).toEqualTypeOf(base)
    expectTypeOf(base.$call(prewhere('kind', '=', 'x'))).toEqualTypeOf(base)
    expectTypeOf(base.$call(prewhere((eb) => eb('value', '>', 1)))).toEqualTypeOf(base)
    expectTypeOf(base.$call(limitBy(1, ['user_id', 'kind']))).toEqualTypeOf(base)
    expectTypeOf(base.$call(settings({ max_threads: 1 }))).toEqualTypeOf(base)
    expectTypeOf(base.$call(withTotals())).toEqualTypeOf(base)
    const joined = base.innerJoin('users', 'users.id', 'events.user_id')
    expectTypeOf(joined.$call(globalJoin())).toEqualTypeOf(joined)
  })

  it('check PREWHERE operands like WHERE', () => {
    db.selectFrom('events').$call(prewhere('user_id', '=', 1))
    // @ts-expect-error: user_id is a number
    db.selectFrom('events').$call(prewhere('user_id', '=', 'one'))
    db.selectFrom('events').where('user_id', globalIn, (eb) => eb.selectFrom('users').select('id'))
  })

  it('add ARRAY JOIN aliases as columns of the element type', () => {
    const one = db.selectFrom('users').$call(arrayJoin('tags', 'tag')).select(['id', 'tag'])
    expectTypeOf<RowOf<typeof one>>().toEqualTypeOf<{ id: number; tag: string }>()
    const two = db
      .selectFrom('users')
      .$call(leftArrayJoin({ tag: 'tags', score: 'scores', n: sql<number[]>`range(3)` }))
      .select(['tag', 'score', 'n'])
      .where('tag', '!=', '')
    expectTypeOf<RowOf<typeof two>>().toEqualTypeOf<{ tag: string; score: number; n: number }>()
    // @ts-expect-error: the alias holds strings
    db.selectFrom('users').$call(arrayJoin('tags', 'tag')).where('tag', '=', 1)
    // @ts-expect-error: an ARRAY JOIN alias is not a column of a table, so it cannot be qualified
    db.selectFrom('users').$call(arrayJoin('tags', 'tag')).select('users.tag')
  })
})

describe('values and results', () => {
  it('typed() keeps the value type', () => {
    expectTypeOf(typed('2024-01-01', 'Date')).toEqualTypeOf<RawBuilder<string>>()
    db.selectFrom('events').selectAll().where('day', '=', typed('2024-01-01', 'Date'))
  })

  it('executeWithTotals returns rows and the totals row of the query type', () => {
    const query = db
      .selectFrom('events')
      .select((eb) => ['kind', eb.fn.countAll<bigint>().as('n')])
      .groupBy('kind')
      .$call(withTotals())
    const run = () => executeWithTotals(db, query)
    expectTypeOf(run).returns.resolves.toEqualTypeOf<ClickHouseQueryResult<{ kind: string; n: bigint }>>()
    expectTypeOf<ClickHouseQueryResult<{ kind: string }>['totals']>().toEqualTypeOf<
      { kind: string } | undefined
    >()
  })

  it('DB matches what codegen would write for the fixture tables', () => {
    expectTypeOf<DB['events']['point']>().toEqualTypeOf<[number, number]>()
  })
})
