import { ClickHouseError } from '@clickwire/client'
import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  arrayJoin,
  executeWithTotals,
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
} from '../src/index.js'
import { type AppDB, appDatabase } from './support/app-schema.js'
import { server, transports } from './support/transports.js'

/*
 * Every ClickHouse clause against the live server (18.16 here): the compiled SQL is asserted
 * in the unit tests; these show the server accepts each form and that it does what it says.
 */
describe.each(transports)('ClickHouse clauses over %s', (transport) => {
  let db: Kysely<AppDB>
  const database = `kysely_clauses_${transport}`

  beforeAll(async () => {
    db = await appDatabase('clauses', transport)
  })

  afterAll(async () => {
    await db?.destroy()
  })

  it('FINAL merges ReplacingMergeTree versions at read time', async () => {
    const query = db.selectFrom('accounts').$call(final()).selectAll().orderBy('id')
    expect(query.compile().sql).toBe('select * from `accounts` final order by `id`')
    expect(await query.execute()).toEqual([
      { id: 1, balance: 70, version: 2 },
      { id: 2, balance: 50, version: 1 },
    ])
    // Without FINAL both stored versions of id 1 are read (two inserts, two parts, no merge yet).
    const [raw] = await db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .where('id', '=', 1)
      .execute()
    expect(raw).toEqual({ n: 2n })
  })

  it('SAMPLE reads a deterministic part; complementary offsets cover the table once', async () => {
    const count = async (size: Parameters<typeof sample>[0], offset?: Parameters<typeof sample>[0]) => {
      const [row] = await db
        .selectFrom('hits')
        .$call(sample(size, { offset }))
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .execute()
      return row!.n
    }
    expect(await count(1)).toBe(1000n)
    const first = await count('1/2')
    const second = await count(0.5, 0.5)
    expect(first + second).toBe(1000n)
    expect(first).toBeGreaterThan(0n)
    expect(second).toBeGreaterThan(0n)
    expect(await count('1/2')).toBe(first)
    // A row count: at least this many rows are read (here the whole small table).
    expect(await count(10_000)).toBe(1000n)
  })

  it('PREWHERE filters like WHERE', async () => {
    const query = db
      .selectFrom('hits')
      .$call(prewhere('counter_id', '=', 1))
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .where('url', '=', '/page/4')
    expect(query.compile().sql).toBe(
      'select count(*) as `n` from `hits` prewhere `counter_id` = {p0:Int64} where `url` = {p1:String}',
    )
    const [withPrewhere] = await query.execute()
    const [withWhere] = await db
      .selectFrom('hits')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .where('counter_id', '=', 1)
      .where('url', '=', '/page/4')
      .execute()
    expect(withPrewhere).toEqual(withWhere)
    // index % 3 == 1 and index % 10 == 4: 4, 34, 64, ... up to 994: 34 rows.
    expect(withPrewhere).toEqual({ n: 34n })
  })

  it('ARRAY JOIN unfolds arrays side by side; LEFT ARRAY JOIN keeps rows with empty arrays', async () => {
    expect(
      await db
        .selectFrom('users')
        .$call(arrayJoin({ tag: 'tags', score: 'scores' }))
        .select(['id', 'tag', 'score'])
        .orderBy('id')
        .orderBy('tag')
        .execute(),
    ).toEqual([
      { id: 1, tag: 'admin', score: 1.5 },
      { id: 1, tag: 'dev', score: 2.5 },
      { id: 3, tag: 'dev', score: 3 },
    ])
    expect(
      await db
        .selectFrom('users')
        .$call(leftArrayJoin('tags', 'tag'))
        .select(['id', 'tag'])
        .orderBy('id')
        .orderBy('tag')
        .execute(),
    ).toEqual([
      { id: 1, tag: 'admin' },
      { id: 1, tag: 'dev' },
      { id: 2, tag: '' },
      { id: 3, tag: 'dev' },
    ])
    expect(
      await db
        .selectFrom('users as u')
        .$call(arrayJoin(sql<number[]>`range(2)`, 'n'))
        .innerJoin('events as e', 'e.user_id', 'u.id')
        .select(['u.id', 'n', 'e.kind'])
        .where('e.kind', '=', 'buy')
        .orderBy('u.id')
        .orderBy('n')
        .execute(),
    ).toEqual([
      { id: 1, n: 0, kind: 'buy' },
      { id: 1, n: 1, kind: 'buy' },
      { id: 3, n: 0, kind: 'buy' },
      { id: 3, n: 1, kind: 'buy' },
    ])
  })

  it('LIMIT n BY keeps the first rows per group, before LIMIT', async () => {
    const query = db
      .selectFrom('events')
      .select(['user_id', 'value'])
      .orderBy('user_id')
      .orderBy('value', 'desc')
      .$call(limitBy(1, 'user_id'))
      .limit(2)
    expect(query.compile().sql).toBe(
      'select `user_id`, `value` from `events` order by `user_id`, `value` desc limit 1 by `user_id` limit 2',
    )
    expect(await query.execute()).toEqual([
      { user_id: 1, value: 10 },
      { user_id: 2, value: 3 },
    ])
  })

  it('SETTINGS apply to the one query', async () => {
    const query = db
      .selectFrom('hits')
      .select('url')
      .$call(settings({ max_rows_to_read: 10, read_overflow_mode: 'throw' }))
    expect(query.compile().sql).toBe(
      "select `url` from `hits` settings max_rows_to_read = 10, read_overflow_mode = 'throw'",
    )
    const error = await query.execute().catch((caught: unknown) => caught)
    expect(ClickHouseError.isInstance(error) && error.code).toBe(158) // TOO_MANY_ROWS
    expect(await db.selectFrom('hits').select('url').limit(1).execute()).toHaveLength(1)
  })

  it('WITH TOTALS adds the totals row', async () => {
    const query = db
      .selectFrom('events')
      .select((eb) => ['user_id', eb.fn.sum<number>('value').as('total')])
      .groupBy('user_id')
      .$call(withTotals())
      .orderBy('user_id')
    expect(query.compile().sql).toBe(
      'select `user_id`, sum(`value`) as `total` from `events` group by `user_id` with totals order by `user_id`',
    )
    const { rows, totals } = await executeWithTotals(db, query)
    expect(rows).toEqual([
      { user_id: 1, total: 13 },
      { user_id: 2, total: 3 },
      { user_id: 3, total: 20 },
    ])
    // Totals travel in their own packet over the native protocol only (see app.test.ts).
    expect(totals).toEqual(transport === 'native' ? { user_id: 0, total: 36 } : undefined)
  })

  it('GLOBAL IN and GLOBAL JOIN over a distributed read (the remote() table function)', async () => {
    const remote = sql<
      AppDB['events']
    >`remote(${sql.lit(`${server.host}:${server.ports.tcp}`)}, ${sql.lit(database)}, 'events')`
    const globalInQuery = db
      .selectFrom(remote.as('e'))
      .select(['e.kind', 'e.value'])
      .where('e.user_id', globalIn, (eb) => eb.selectFrom('users').select('id').where('name', '=', 'cy'))
      .where('e.user_id', globalNotIn, [2])
      .where('e.user_id', globalNotIn, (eb) => eb.selectFrom('users').select('id').where('name', '=', 'bob'))
    expect(globalInQuery.compile().sql).toBe(
      `select \`e\`.\`kind\`, \`e\`.\`value\` from remote('${server.host}:${server.ports.tcp}', '${database}', 'events') as \`e\`` +
        ' where `e`.`user_id` global in (select `id` from `users` where `name` = {p0:String})' +
        ' and `e`.`user_id` not in ({p1:Int64})' +
        ' and `e`.`user_id` global not in (select `id` from `users` where `name` = {p2:String})',
    )
    expect(await globalInQuery.execute()).toEqual([{ kind: 'buy', value: 20 }])
    const joined = await db
      .selectFrom(remote.as('e'))
      // 18.16 rewrites a distributed JOIN ON for the shards without table qualifiers, so a
      // qualified name there is unknown; plain names work (later servers take both).
      .innerJoin(db.selectFrom('users').select(['id', 'name']).as('u'), (join) =>
        join.on(sql<boolean>`user_id = id`),
      )
      .$call(globalJoin())
      .select(['u.name', 'e.value'])
      .where('e.kind', '=', 'buy')
      .orderBy('e.value')
      .execute()
    expect(joined).toEqual([
      { name: 'ada', value: 10 },
      { name: 'cy', value: 20 },
    ])
  })

  it('all clauses in one query', async () => {
    const query = db
      .selectFrom('hits as h')
      .$call(final())
      .$call(sample(1))
      .$call(arrayJoin(sql<number[]>`[1, 2]`, 'copy'))
      .innerJoin(db.selectFrom('users').select('id').as('u'), 'u.id', 'h.counter_id')
      .$call(globalJoin())
      .$call(prewhere('h.counter_id', 'in', [1, 2]))
      .select((eb) => ['h.counter_id', 'copy', eb.fn.countAll<bigint>().as('n')])
      .where('h.url', globalIn, db.selectNoFrom(sql<string>`arrayJoin(['/page/1', '/page/2'])`.as('url')))
      .groupBy(['h.counter_id', 'copy'])
      .$call(withTotals())
      .having((eb) => eb.fn.countAll(), '>', 0)
      .orderBy('h.counter_id')
      .orderBy('copy')
      .$call(limitBy(1, 'h.counter_id'))
      .limit(10)
      .$call(settings({ max_threads: 1 }))
    expect(query.compile().sql).toBe(
      'select `h`.`counter_id`, `copy`, count(*) as `n` from `hits` as `h` final sample 1 array join [1, 2] as `copy`' +
        ' global inner join (select `id` from `users`) as `u` on `u`.`id` = `h`.`counter_id`' +
        ' prewhere `h`.`counter_id` in ({p0:Int64}, {p1:Int64})' +
        " where `h`.`url` global in (select arrayJoin(['/page/1', '/page/2']) as `url`)" +
        ' group by `h`.`counter_id`, `copy` with totals having count(*) > {p2:Int64}' +
        ' order by `h`.`counter_id`, `copy` limit 1 by `h`.`counter_id` limit 10 settings max_threads = 1',
    )
    const { rows, totals } = await executeWithTotals(db, query)
    // counter_id = index % 3 and url = /page/(index % 10) for index < 1000: 67 rows with
    // counter_id 1 and url /page/1 or /page/2, 67 with counter_id 2; each twice (ARRAY JOIN).
    expect(rows).toEqual([
      { counter_id: 1, copy: 1, n: 67n },
      { counter_id: 2, copy: 1, n: 67n },
    ])
    expect(totals).toEqual(transport === 'native' ? { counter_id: 0, copy: 0, n: 268n } : undefined)
  })
})
