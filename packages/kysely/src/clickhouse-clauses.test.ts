import { UsageError } from '@clickwire/client'
import { CamelCasePlugin, Kysely, sql, WithSchemaPlugin } from 'kysely'
import { describe, expect, it } from 'vitest'
import { compileDb, type DB, modern, unusedClient } from '../test/support/compile-fixtures.js'
import { ClickHouseDialect } from './clickhouse-dialect.js'
import {
  arrayJoin,
  final,
  globalIn,
  globalJoin,
  globalNotIn,
  leftArrayJoin,
  limitBy,
  prewhere,
  sample,
  settings,
  withTotals,
} from './index.js'

const db = compileDb()

function sqlOf(query: { compile(): { sql: string } }): string {
  return query.compile().sql
}

describe('each clause', () => {
  it('FINAL after the table and its alias', () => {
    expect(sqlOf(db.selectFrom('accounts').$call(final()).selectAll())).toBe('select * from `accounts` final')
    expect(sqlOf(db.selectFrom('accounts as a').$call(final()).select('a.id'))).toBe(
      'select `a`.`id` from `accounts` as `a` final',
    )
  })

  it('SAMPLE by ratio, fraction or rows, with OFFSET', () => {
    expect(sqlOf(db.selectFrom('events').$call(sample(0.1)).select('kind'))).toBe(
      'select `kind` from `events` sample 0.1',
    )
    expect(
      sqlOf(
        db
          .selectFrom('events')
          .$call(sample('1/10', { offset: '1/2' }))
          .select('kind'),
      ),
    ).toBe('select `kind` from `events` sample 1/10 offset 1/2')
    expect(sqlOf(db.selectFrom('events').$call(sample(10_000)).select('kind'))).toBe(
      'select `kind` from `events` sample 10000',
    )
    expect(
      sqlOf(
        db
          .selectFrom('events')
          .$call(sample(0.25, { offset: 0.5 }))
          .select('kind'),
      ),
    ).toBe('select `kind` from `events` sample 0.25 offset 0.5')
    for (const bad of [0, -0.5, Number.NaN, 1e-7, '0', '1/0', '1e-3', '0.1; drop table x'] as const) {
      expect(() => sample(bad as never)).toThrow(UsageError)
    }
    expect(() => db.selectFrom(sql`numbers(10)`.as('n')).$call(final()).selectAll().compile()).not.toThrow()
    expect(() => db.selectNoFrom(sql`1`.as('x')).$call(final()).compile()).toThrow(/FINAL and SAMPLE apply/)
  })

  it('PREWHERE before WHERE, from a comparison or an expression, joined with AND', () => {
    expect(
      sqlOf(
        db
          .selectFrom('events')
          .$call(prewhere('kind', '=', 'buy'))
          .$call(prewhere((eb) => eb.or([eb('value', '>', 1), eb('value', '<', -1)])))
          .where('day', '>', '2024-01-01')
          .select('user_id'),
      ),
    ).toBe(
      'select `user_id` from `events` prewhere (`kind` = {p0:String}) and ((`value` > {p1:Int64} or `value` < {p2:Int64}))' +
        ' where `day` > {p3:String}',
    )
    expect(
      sqlOf(
        db
          .selectFrom('events')
          .$call(prewhere('user_id', 'in', [1, 2]))
          .select('kind'),
      ),
    ).toBe('select `kind` from `events` prewhere `user_id` in ({p0:Int64}, {p1:Int64})')
  })

  it('ARRAY JOIN and LEFT ARRAY JOIN with aliases, several arrays side by side', () => {
    expect(sqlOf(db.selectFrom('users').$call(arrayJoin('tags', 'tag')).select(['id', 'tag']))).toBe(
      'select `id`, `tag` from `users` array join `tags` as `tag`',
    )
    expect(
      sqlOf(
        db
          .selectFrom('users')
          .$call(leftArrayJoin({ tag: 'tags', score: 'scores' }))
          .select(['tag', 'score']),
      ),
    ).toBe('select `tag`, `score` from `users` left array join `tags` as `tag`, `scores` as `score`')
    expect(
      sqlOf(db.selectFrom('users').$call(arrayJoin(sql<number[]>`range(3)`, 'n')).select(['id', 'n'])),
    ).toBe('select `id`, `n` from `users` array join range(3) as `n`')
  })

  it('ARRAY JOIN stays where it was called among the joins', () => {
    expect(
      sqlOf(
        db
          .selectFrom('users as u')
          .$call(arrayJoin('u.tags', 'tag'))
          .innerJoin('events as e', 'e.user_id', 'u.id')
          .select(['tag', 'e.kind']),
      ),
    ).toBe(
      'select `tag`, `e`.`kind` from `users` as `u` array join `u`.`tags` as `tag` inner join `events` as `e` on `e`.`user_id` = `u`.`id`',
    )
    expect(
      sqlOf(
        db
          .selectFrom('users as u')
          .innerJoin('events as e', 'e.user_id', 'u.id')
          .$call(arrayJoin('e.props', 'prop'))
          .select(['prop']),
      ),
    ).toBe(
      'select `prop` from `users` as `u` inner join `events` as `e` on `e`.`user_id` = `u`.`id` array join `e`.`props` as `prop`',
    )
  })

  it('LIMIT n BY columns, with an offset, before LIMIT', () => {
    expect(
      sqlOf(
        db
          .selectFrom('events')
          .select(['user_id', 'kind'])
          .orderBy('value', 'desc')
          .$call(limitBy(2, 'user_id'))
          .limit(10),
      ),
    ).toBe('select `user_id`, `kind` from `events` order by `value` desc limit 2 by `user_id` limit 10')
    expect(
      sqlOf(
        db
          .selectFrom('events')
          .select('kind')
          .$call(limitBy(1, ['user_id', (eb) => eb.fn('toStartOfMonth', ['day'])], { offset: 3 })),
      ),
    ).toBe('select `kind` from `events` limit 3, 1 by `user_id`, toStartOfMonth(`day`)')
    expect(() => limitBy(-1, 'user_id' as never)).toThrow(UsageError)
    expect(() => limitBy(1.5, 'user_id' as never)).toThrow(UsageError)
    expect(() => limitBy(1, [])).toThrow(/at least one column/)
  })

  it('SETTINGS at the end, with literals and checked names', () => {
    expect(
      sqlOf(
        db
          .selectFrom('events')
          .select('kind')
          .limit(1)
          .$call(settings({ max_threads: 2, use_uncompressed_cache: true, log_comment: "it's \\ me" }))
          .$call(settings({ max_threads: 4, max_block_size: 10n })),
      ),
    ).toBe(
      "select `kind` from `events` limit 1 settings max_threads = 4, use_uncompressed_cache = 1, log_comment = 'it\\'s \\\\ me', max_block_size = 10",
    )
    expect(() => settings({ 'max_threads = 1, readonly': 0 })).toThrow(/not a setting name/)
    expect(() => settings({ max_threads: Number.POSITIVE_INFINITY })).toThrow(UsageError)
  })

  it('WITH TOTALS after GROUP BY', () => {
    expect(
      sqlOf(
        db
          .selectFrom('events')
          .select((eb) => ['kind', eb.fn.countAll().as('n')])
          .groupBy('kind')
          .$call(withTotals())
          .having((eb) => eb.fn.countAll(), '>', 0),
      ),
    ).toBe(
      'select `kind`, count(*) as `n` from `events` group by `kind` with totals having count(*) > {p0:Int64}',
    )
  })

  it('GLOBAL IN, GLOBAL NOT IN (plain IN for a list of values) and GLOBAL JOIN', () => {
    expect(
      sqlOf(
        db
          .selectFrom('events')
          .select('kind')
          .where('user_id', globalIn, (eb) => eb.selectFrom('users').select('id'))
          .where('user_id', globalNotIn, [7, 8]),
      ),
    ).toBe(
      'select `kind` from `events` where `user_id` global in (select `id` from `users`) and `user_id` not in ({p0:Int64}, {p1:Int64})',
    )
    expect(
      sqlOf(
        db
          .selectFrom('events as e')
          .innerJoin('users as u', 'u.id', 'e.user_id')
          .$call(globalJoin())
          .leftJoin('accounts as a', 'a.id', 'e.user_id')
          .select(['e.kind', 'u.name', 'a.balance']),
      ),
    ).toBe(
      'select `e`.`kind`, `u`.`name`, `a`.`balance` from `events` as `e` global inner join `users` as `u` on `u`.`id` = `e`.`user_id`' +
        ' left join `accounts` as `a` on `a`.`id` = `e`.`user_id`',
    )
    expect(() => db.selectFrom('events').$call(globalJoin()).selectAll()).toThrow(/has no join yet/)
  })
})

describe('all clauses together', () => {
  it('land in ClickHouse grammar order whatever the order of the calls', () => {
    const query = db
      .selectFrom('events as e')
      .$call(settings({ max_threads: 1 }))
      .$call(limitBy(1, 'e.user_id'))
      .$call(withTotals())
      .$call(prewhere('e.day', '>=', '2024-01-01'))
      .$call(arrayJoin('e.props', 'prop'))
      .innerJoin('users as u', 'u.id', 'e.user_id')
      .$call(globalJoin())
      .$call(sample(0.5))
      .$call(final())
      .select((eb) => ['e.user_id', 'prop', eb.fn.countAll().as('n')])
      .where('u.name', '!=', '')
      .groupBy(['e.user_id', 'prop'])
      .having((eb) => eb.fn.countAll(), '>', 0)
      .orderBy('n', 'desc')
      .limit(100)
      .offset(5)
    expect(query.compile()).toMatchObject({
      sql:
        'select `e`.`user_id`, `prop`, count(*) as `n` from `events` as `e` final sample 0.5' +
        ' array join `e`.`props` as `prop` global inner join `users` as `u` on `u`.`id` = `e`.`user_id`' +
        ' prewhere `e`.`day` >= {p0:String} where `u`.`name` != {p1:String}' +
        ' group by `e`.`user_id`, `prop` with totals having count(*) > {p2:Int64}' +
        ' order by `n` desc limit 1 by `e`.`user_id` limit 100 offset 5 settings max_threads = 1',
      parameters: ['2024-01-01', '', 0],
    })
  })

  it('apply inside subqueries too', () => {
    expect(
      sqlOf(
        db
          .selectFrom((eb) => eb.selectFrom('accounts').$call(final()).selectAll().as('a'))
          .select('a.balance')
          .$call(settings({ max_threads: 1 })),
      ),
    ).toBe('select `a`.`balance` from (select * from `accounts` final) as `a` settings max_threads = 1')
  })

  it('let plugins transform the expressions inside them', () => {
    const camel = new Kysely<{ userEvents: { userId: number; propList: string[] } }>({
      dialect: new ClickHouseDialect({ client: unusedClient, serverVersion: '18.16.1' }),
      plugins: [new CamelCasePlugin(), new WithSchemaPlugin('app')],
    })
    expect(
      sqlOf(
        camel
          .selectFrom('userEvents')
          .$call(prewhere('userId', '=', 1))
          .$call(arrayJoin('propList', 'oneProp'))
          .$call(limitBy(1, 'userId'))
          .select('oneProp'),
      ),
    ).toBe(
      'select `one_prop` from `app`.`user_events` array join `prop_list` as `one_prop` prewhere `user_id` = {p0:Int64} limit 1 by `user_id`',
    )
  })

  it('work on mutations and inserts: SETTINGS', () => {
    expect(
      sqlOf(
        db
          .updateTable('accounts')
          .set({ balance: 0 })
          .where('id', '=', 1)
          .$call(settings({ mutations_sync: 2 })),
      ),
    ).toBe(
      'alter table `accounts` update `balance` = {p0:Int64} where `id` = {p1:Int64} settings mutations_sync = 2',
    )
    expect(
      sqlOf(
        compileDb(modern)
          .deleteFrom('accounts')
          .where('id', '=', 1)
          .$call(settings({ lightweight_deletes_sync: 2 })),
      ),
    ).toBe('delete from `accounts` where `id` = {p0:Int64} settings lightweight_deletes_sync = 2')
    expect(
      sqlOf(
        db
          .insertInto('accounts')
          .values({ id: 1, balance: sql`2`, version: 1 })
          .$call(settings({ async_insert: 1 })),
      ),
    ).toBe(
      'insert into `accounts` (`id`, `balance`, `version`) settings async_insert = 1 select {p0:Int64}, 2, {p1:Int64}',
    )
  })

  it('are refused by a compiler that does not know them', () => {
    const marker = db.selectFrom('accounts').$call(final()).selectAll().toOperationNode().endModifiers?.[0]
    expect(JSON.stringify(marker)).toContain('\\u0000clickwire.clause:')
  })
})

describe('types', () => {
  it('reject columns the query does not have', () => {
    // @ts-expect-error: no such column
    db.selectFrom('events').$call(prewhere('nope', '=', 1))
    // @ts-expect-error: a users column is not in scope of events
    db.selectFrom('events').$call(limitBy(1, 'email'))
    // @ts-expect-error: no such array column
    db.selectFrom('users').$call(arrayJoin('nope', 'x'))
    const ok: DB['events']['kind'] = 'x'
    expect(ok).toBe('x')
  })
})
