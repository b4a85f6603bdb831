import { UsageError } from '@clickwire/client'
import { typedValue } from '@clickwire/protocol'
import { type Kysely, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { compileDb, type DB, modern } from '../test/support/compile-fixtures.js'
import { typed } from './typed-value.js'

/** The compiled SQL and parameters of a builder. */
function compiled(query: { compile(): { sql: string; parameters: readonly unknown[] } }) {
  const { sql: text, parameters } = query.compile()
  return { sql: text, parameters: [...parameters] }
}

const old = compileDb()
const current = compileDb(modern)

describe('identifiers', () => {
  it('backquotes names and escapes backquotes, backslashes and control characters', () => {
    const db = old as unknown as Kysely<Record<string, Record<string, string>>>
    expect(compiled(db.selectFrom('we`ird\\ta\nble\u0000').select('c`o\\l\tü€😀 x')).sql).toBe(
      'select `c\\`o\\\\l\\tü€😀 x` from `we\\`ird\\\\ta\\nble\\0`',
    )
  })

  it('qualifies with database and alias', () => {
    expect(compiled(old.selectFrom('analytics.hits as h').select(['h.url', 'h.hits as n'])).sql).toBe(
      'select `h`.`url`, `h`.`hits` as `n` from `analytics`.`hits` as `h`',
    )
  })
})

describe('values become typed placeholders', () => {
  it('infers each type from the JS value, for the server version', () => {
    const query = (db: Kysely<DB>) =>
      db
        .selectFrom('events')
        .select('kind')
        .where('kind', '=', "it's")
        .where('user_id', '=', 7)
        .where('value', '>', 2.5)
        .where('event_id', '=', 2n ** 63n)
        .where('event_id', '<', -1n)
        .where(sql<boolean>`${true}`)
        .where(sql<boolean>`${new Date(Date.UTC(2024, 0, 2, 3, 4, 5))} > now()`)
        .where(sql<boolean>`${null} is null`)
    expect(compiled(query(old))).toEqual({
      sql:
        'select `kind` from `events` where `kind` = {p0:String} and `user_id` = {p1:Int64} and `value` > {p2:Float64}' +
        " and `event_id` = {p3:UInt64} and `event_id` < {p4:Int64} and {p5:UInt8} and {p6:DateTime('UTC')} > now()" +
        ' and {p7:Nullable(Nothing)} is null',
      parameters: ["it's", 7, 2.5, 2n ** 63n, -1n, true, new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), null],
    })
    expect(compiled(query(current)).sql).toBe(
      'select `kind` from `events` where `kind` = {p0:String} and `user_id` = {p1:Int64} and `value` > {p2:Float64}' +
        " and `event_id` = {p3:UInt64} and `event_id` < {p4:Int64} and {p5:Bool} and {p6:DateTime64(3, 'UTC')} > now()" +
        ' and {p7:Nullable(Nothing)} is null',
    )
  })

  it('sends arrays, byte strings and explicitly typed values', () => {
    const query = old
      .selectFrom('users')
      .select('id')
      .where('tags', '=', sql.val(['a', 'b']))
      .where('scores', '=', sql.val([1, 2.5, null] as number[]))
      .where('name', '=', sql.val(new Uint8Array([0, 255]) as unknown as string))
      .where('created', '>', typed('2024-05-01', 'Date'))
      .where(sql`(id, name)`, 'in', [typed([1, 'x'], 'Tuple(UInt32, String)')])
    expect(compiled(query)).toEqual({
      sql:
        'select `id` from `users` where `tags` = {p0:Array(String)} and `scores` = {p1:Array(Nullable(Float64))}' +
        ' and `name` = {p2:String} and `created` > {p3:Date} and (id, name) in ({p4:Tuple(UInt32, String)})',
      parameters: [['a', 'b'], [1, 2.5, null], new Uint8Array([0, 255]), '2024-05-01', [1, 'x']],
    })
  })

  it("takes the protocol's typedValue(type, value) as typed(value, type) makes it", () => {
    const query = (value: unknown) =>
      compiled(
        old
          .selectFrom('users')
          .select('id')
          .where('id', '=', sql.val(value as number)),
      )
    expect(query(typedValue('UInt8', 7))).toEqual(query(typed(7, 'UInt8')))
    expect(query(typedValue('UInt8', 7))).toEqual({
      sql: 'select `id` from `users` where `id` = {p0:UInt8}',
      parameters: [7],
    })
    expect(() => query(typedValue('UInt8} OR 1 = {x:UInt8', 7))).toThrow(
      new UsageError('not a ClickHouse type for a parameter: "UInt8} OR 1 = {x:UInt8"'),
    )
  })

  it('lists IN values one placeholder each', () => {
    expect(
      compiled(
        old.selectFrom('users').select('id').where('id', 'in', [1, 2, 3]).where('name', 'not in', ['a']),
      ),
    ).toEqual({
      sql: 'select `id` from `users` where `id` in ({p0:Int64}, {p1:Int64}, {p2:Int64}) and `name` not in ({p3:String})',
      parameters: [1, 2, 3, 'a'],
    })
  })

  it('refuses a value with no ClickHouse type, and a type that could leave its placeholder', () => {
    expect(() =>
      old
        .selectFrom('users')
        .select('id')
        .where('name', '=', sql.val({ a: 1 } as never))
        .compile(),
    ).toThrow(UsageError)
    expect(() => typed(1, 'UInt8} OR 1 = {x:UInt8')).toThrow(UsageError)
    expect(() => typed(1, 'UInt8; DROP TABLE users')).toThrow(UsageError)
  })

  it('writes literals with ClickHouse escapes', () => {
    const query = old
      .selectFrom('users')
      .select([
        sql.lit("it's a \\ back\nslash\u0000").as('s'),
        sql.lit(true).as('t'),
        sql.lit(false).as('f'),
        sql.lit(Number.NaN).as('n'),
        sql.lit(-Infinity).as('i'),
      ])
    expect(compiled(query).sql).toBe(
      "select 'it\\'s a \\\\ back\\nslash\\0' as `s`, 1 as `t`, 0 as `f`, nan as `n`, -inf as `i` from `users`",
    )
    expect(compiled(current.selectFrom('users').select(sql.lit(false).as('f'))).sql).toBe(
      'select false as `f` from `users`',
    )
  })
})

describe('select', () => {
  it('joins', () => {
    const query = old
      .selectFrom('users as u')
      .innerJoin('events as e', 'e.user_id', 'u.id')
      .leftJoin('accounts as a', (join) => join.onRef('a.id', '=', 'u.id').on('a.balance', '>', 0))
      .select(['u.name', 'e.kind', 'a.balance'])
    expect(compiled(query).sql).toBe(
      'select `u`.`name`, `e`.`kind`, `a`.`balance` from `users` as `u`' +
        ' inner join `events` as `e` on `e`.`user_id` = `u`.`id`' +
        ' left join `accounts` as `a` on `a`.`id` = `u`.`id` and `a`.`balance` > {p0:Int64}',
    )
    expect(
      compiled(old.selectFrom('users').rightJoin('events', 'events.user_id', 'users.id').selectAll()).sql,
    ).toBe('select * from `users` right join `events` on `events`.`user_id` = `users`.`id`')
    expect(
      compiled(old.selectFrom('users').fullJoin('events', 'events.user_id', 'users.id').selectAll()).sql,
    ).toBe('select * from `users` full join `events` on `events`.`user_id` = `users`.`id`')
    expect(compiled(old.selectFrom('users').crossJoin('accounts').select('users.id')).sql).toBe(
      'select `users`.`id` from `users` cross join `accounts`',
    )
  })

  it('refuses joins ClickHouse does not have', () => {
    expect(() =>
      old
        .selectFrom('users')
        .innerJoinLateral(
          (eb) => eb.selectFrom('events').selectAll().as('e'),
          (join) => join.onTrue(),
        )
        .selectAll()
        .compile(),
    ).toThrow(/ClickHouse has no LateralInnerJoin joins/)
  })

  it('groups with aggregates, having, order, limit and offset as literals', () => {
    const query = old
      .selectFrom('events')
      .select((eb) => [
        'kind',
        eb.fn.countAll().as('n'),
        eb.fn.sum('value').as('total'),
        eb.fn.avg('value').as('mean'),
        eb.fn.max('day').as('last'),
      ])
      .where('day', '>=', '2024-01-01')
      .groupBy('kind')
      .having((eb) => eb.fn.countAll(), '>', 1)
      .orderBy('n', 'desc')
      .orderBy('kind')
      .limit(10)
      .offset(20)
    expect(compiled(query)).toEqual({
      sql:
        'select `kind`, count(*) as `n`, sum(`value`) as `total`, avg(`value`) as `mean`, max(`day`) as `last`' +
        ' from `events` where `day` >= {p0:String} group by `kind` having count(*) > {p1:Int64}' +
        ' order by `n` desc, `kind` limit 10 offset 20',
      parameters: ['2024-01-01', 1],
    })
    expect(
      compiled(
        old
          .selectFrom('users')
          .select('id')
          .limit(5n as unknown as number),
      ).sql,
    ).toBe('select `id` from `users` limit 5')
    expect(() => old.selectFrom('users').select('id').limit(1.5).compile()).toThrow(
      /LIMIT takes a non-negative integer/,
    )
    expect(() => old.selectFrom('users').select('id').offset(-1).compile()).toThrow(
      /OFFSET takes a non-negative/,
    )
  })

  it('distinct and union all', () => {
    expect(compiled(old.selectFrom('users').select('name').distinct()).sql).toBe(
      'select distinct `name` from `users`',
    )
    expect(
      compiled(
        old.selectFrom('users').select('name').unionAll(old.selectFrom('events').select('kind as name')),
      ).sql,
    ).toBe('select `name` from `users` union all select `kind` as `name` from `events`')
  })

  it('subqueries in FROM, WHERE and SELECT', () => {
    const query = old
      .selectFrom((eb) =>
        eb.selectFrom('events').select(['user_id', 'value']).where('kind', '=', 'buy').as('b'),
      )
      .select((eb) => [
        'b.user_id',
        eb.selectFrom('users').select('name').whereRef('users.id', '=', 'b.user_id').limit(1).as('name'),
      ])
      .where('b.user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('name', 'like', 'a%'))
    expect(compiled(query)).toEqual({
      sql:
        'select `b`.`user_id`, (select `name` from `users` where `users`.`id` = `b`.`user_id` limit 1) as `name`' +
        ' from (select `user_id`, `value` from `events` where `kind` = {p0:String}) as `b`' +
        ' where `b`.`user_id` in (select `id` from `users` where `name` like {p1:String})',
      parameters: ['buy', 'a%'],
    })
  })

  it('refuses row locks', () => {
    expect(() => old.selectFrom('users').selectAll().forUpdate().compile()).toThrow(
      /ClickHouse has no row locks/,
    )
  })
})

describe('common table expressions', () => {
  const query = (db: Kysely<DB>) =>
    db
      .with('buyers', (qb) => qb.selectFrom('events').select('user_id').where('kind', '=', 'buy'))
      .with('named', (qb) =>
        qb.selectFrom('users').innerJoin('buyers', 'buyers.user_id', 'users.id').select('name'),
      )
      .selectFrom('named as n')
      .select('n.name')
      .where('n.name', 'in', (eb) => eb.selectFrom('named').select('name'))

  it('are WITH name AS (...) from 20.10', () => {
    expect(compiled(query(current)).sql).toBe(
      'with `buyers` as (select `user_id` from `events` where `kind` = {p0:String}),' +
        ' `named` as (select `name` from `users` inner join `buyers` on `buyers`.`user_id` = `users`.`id`)' +
        ' select `n`.`name` from `named` as `n` where `n`.`name` in (select `name` from `named`)',
    )
  })

  it('are inlined as subqueries before, at every use', () => {
    const buyers = '(select `user_id` from `events` where `kind` = {p0:String}) as `buyers`'
    expect(compiled(query(old))).toEqual({
      sql:
        `select \`n\`.\`name\` from (select \`name\` from \`users\` inner join ${buyers} on \`buyers\`.\`user_id\` = \`users\`.\`id\`) as \`n\`` +
        ` where \`n\`.\`name\` in (select \`name\` from (select \`name\` from \`users\` inner join ${buyers.replace('p0', 'p1')} on \`buyers\`.\`user_id\` = \`users\`.\`id\`) as \`named\`)`,
      parameters: ['buy', 'buy'],
    })
  })

  it('leave a table of the same name inside its own body alone, and refuse RECURSIVE', () => {
    const db = old as unknown as Kysely<{ t: { x: number } }>
    expect(
      compiled(
        db
          .with('t', (qb) => qb.selectFrom('t').select('x'))
          .selectFrom('t')
          .select('x'),
      ).sql,
    ).toBe('select `x` from (select `x` from `t`) as `t`')
    expect(() =>
      db
        .withRecursive('r', (qb) => qb.selectFrom('t').select('x'))
        .selectFrom('r')
        .selectAll()
        .compile(),
    ).toThrow(/ClickHouse has no recursive common table expressions/)
  })
})

describe('insert', () => {
  it('writes rows as SELECT ... UNION ALL, which every transport runs server-side', () => {
    expect(
      compiled(
        old.insertInto('users').values([
          { id: 1, name: 'a', email: 'a@x', tags: ['t'], scores: [], created: '2024-01-01 00:00:00' },
          { id: 2, name: 'b', email: 'b@x', tags: [], scores: [1.5], created: '2024-01-02 00:00:00' },
        ]),
      ),
    ).toEqual({
      sql:
        'insert into `users` (`id`, `name`, `email`, `tags`, `scores`, `created`)' +
        ' select {p0:Int64}, {p1:String}, {p2:String}, {p3:Array(String)}, {p4:Array(Float64)}, {p5:String}' +
        ' union all select {p6:Int64}, {p7:String}, {p8:String}, {p9:Array(String)}, {p10:Array(Float64)}, {p11:String}',
      parameters: [
        1,
        'a',
        'a@x',
        ['t'],
        [],
        '2024-01-01 00:00:00',
        2,
        'b',
        'b@x',
        [],
        [1.5],
        '2024-01-02 00:00:00',
      ],
    })
  })

  it('gives the values of a column one type, which UNION ALL needs', () => {
    expect(
      compiled(
        old.insertInto('accounts').values([
          { id: 1, balance: 2, version: sql`1` },
          { id: (2n ** 63n) as never, balance: 2.5, version: typed(3, 'UInt8') },
          { id: 3, balance: null as never, version: 4 },
        ]),
      ).sql,
    ).toBe(
      'insert into `accounts` (`id`, `balance`, `version`) select {p0:UInt64}, {p1:Nullable(Float64)}, 1' +
        ' union all select {p2:UInt64}, {p3:Nullable(Float64)}, {p4:UInt8}' +
        ' union all select {p5:UInt64}, {p6:Nullable(Float64)}, {p7:Int64}',
    )
    expect(() =>
      old
        .insertInto('users')
        .values([
          { id: 1, name: sql`'a'`, email: 'x', tags: [], scores: [], created: '' },
          { id: 2, name: 'b', email: 3 as never, tags: [], scores: [], created: '' },
        ])
        .compile(),
    ).toThrow(
      /the values of column email have no common ClickHouse type: .*mixes String and Int64.*typed\(value, 'Type'\)/,
    )
  })

  it('takes expressions and INSERT ... SELECT', () => {
    expect(compiled(old.insertInto('accounts').values({ id: 1, balance: sql`1 + 1`, version: 3 })).sql).toBe(
      'insert into `accounts` (`id`, `balance`, `version`) select {p0:Int64}, 1 + 1, {p1:Int64}',
    )
    expect(
      compiled(
        old
          .insertInto('accounts')
          .columns(['id', 'balance', 'version'])
          .expression((eb) =>
            eb.selectFrom('users').select(['id', sql<number>`0`.as('b'), sql<number>`1`.as('v')]),
          ),
      ).sql,
    ).toBe('insert into `accounts` (`id`, `balance`, `version`) select `id`, 0 as `b`, 1 as `v` from `users`')
  })

  it('inlines the common table expressions of an INSERT ... SELECT', () => {
    const query = (db: Kysely<DB>) =>
      db
        .with('rich', (qb) => qb.selectFrom('accounts').select(['id', 'balance']).where('balance', '>', 100))
        .insertInto('accounts')
        .columns(['id', 'balance', 'version'])
        .expression((eb) => eb.selectFrom('rich').select(['id', 'balance', sql<number>`2`.as('version')]))
    const expected =
      'insert into `accounts` (`id`, `balance`, `version`) select `id`, `balance`, 2 as `version`' +
      ' from (select `id`, `balance` from `accounts` where `balance` > {p0:Int64}) as `rich`'
    expect(compiled(query(old)).sql).toBe(expected)
    expect(compiled(query(current)).sql).toBe(expected)
  })

  it('refuses what ClickHouse inserts lack', () => {
    expect(() =>
      old.insertInto('accounts').values({ id: 1, balance: 1, version: 1 }).returning('id').compile(),
    ).toThrow(/RETURNING/)
    expect(() =>
      old
        .insertInto('accounts')
        .values({ id: 1, balance: 1, version: 1 })
        .onConflict((oc) => oc.column('id').doNothing())
        .compile(),
    ).toThrow(/ON CONFLICT/)
    expect(() =>
      old
        .insertInto('accounts')
        .values([
          { id: 1, balance: sql`2`, version: 1 },
          { id: 2, balance: 1 },
        ] as never)
        .compile(),
    ).toThrow(/no DEFAULT in INSERT \.\.\. SELECT/)
  })
})

describe('mutations', () => {
  it('updateTable is ALTER TABLE ... UPDATE', () => {
    expect(
      compiled(
        old
          .updateTable('accounts')
          .set({ balance: 10, version: (eb) => eb('version', '+', 1) })
          .where('id', '=', 3),
      ),
    ).toEqual({
      sql: 'alter table `accounts` update `balance` = {p0:Int64}, `version` = `version` + {p1:Int64} where `id` = {p2:Int64}',
      parameters: [10, 1, 3],
    })
    expect(compiled(current.updateTable('analytics.hits').set({ hits: 0n })).sql).toBe(
      'alter table `analytics`.`hits` update `hits` = {p0:Int64} where 1',
    )
  })

  it('deleteFrom is ALTER TABLE ... DELETE before 23.3 and lightweight DELETE from it', () => {
    expect(compiled(old.deleteFrom('accounts').where('balance', '<', 0)).sql).toBe(
      'alter table `accounts` delete where `balance` < {p0:Int64}',
    )
    expect(compiled(compileDb('23.2.1').deleteFrom('accounts').where('balance', '<', 0)).sql).toBe(
      'alter table `accounts` delete where `balance` < {p0:Int64}',
    )
    expect(compiled(compileDb('23.3.1').deleteFrom('accounts').where('balance', '<', 0)).sql).toBe(
      'delete from `accounts` where `balance` < {p0:Int64}',
    )
    expect(compiled(compileDb(modern, { deleteStatement: 'mutation' }).deleteFrom('accounts')).sql).toBe(
      'alter table `accounts` delete where 1',
    )
    expect(
      compiled(compileDb('18.16.1', { deleteStatement: 'lightweight' }).deleteFrom('accounts')).sql,
    ).toBe('delete from `accounts` where 1')
  })

  it('updateTable is a mutation unless asked, and lightweight UPDATE from 25.8 with auto', () => {
    const update = (db: ReturnType<typeof compileDb>) =>
      compiled(db.updateTable('accounts').set({ balance: 1 }).where('id', '=', 3)).sql
    const mutation = 'alter table `accounts` update `balance` = {p0:Int64} where `id` = {p1:Int64}'
    const lightweight = 'update `accounts` set `balance` = {p0:Int64} where `id` = {p1:Int64}'
    expect(update(compileDb(modern))).toBe(mutation)
    expect(update(compileDb('25.7.1', { updateStatement: 'auto' }))).toBe(mutation)
    expect(update(compileDb('25.8.1', { updateStatement: 'auto' }))).toBe(lightweight)
    expect(update(compileDb('26.7.2.1', { updateStatement: 'auto' }))).toBe(lightweight)
    expect(update(compileDb('18.16.1', { updateStatement: 'lightweight' }))).toBe(lightweight)
    expect(update(compileDb('26.7.2.1', { updateStatement: 'mutation' }))).toBe(mutation)
    expect(
      compiled(
        compileDb(modern, { updateStatement: 'lightweight' }).updateTable('analytics.hits').set({ hits: 0n }),
      ).sql,
    ).toBe('update `analytics`.`hits` set `hits` = {p0:Int64} where 1')
  })

  it('refuses what mutations cannot do', () => {
    expect(() => old.updateTable('accounts as a').set({ balance: 1 }).compile()).toThrow(/without an alias/)
    expect(() => old.updateTable('accounts').set({ balance: 1 }).returningAll().compile()).toThrow(
      /RETURNING/,
    )
    expect(() =>
      old
        .updateTable('accounts')
        .set({ balance: 1 })
        .from('users')
        .whereRef('users.id', '=', 'accounts.id')
        .compile(),
    ).toThrow(/UPDATE \.\.\. FROM/)
    expect(() => old.deleteFrom('accounts').where('id', '=', 1).limit(1).compile()).toThrow(/LIMIT in DELETE/)
    expect(() => old.deleteFrom(['accounts', 'users']).compile()).toThrow(/exactly one table/)
  })
})

describe('DDL', () => {
  it('creates tables with ClickHouse types and a MergeTree ordered by the primary key', () => {
    const query = (db: Kysely<DB>) =>
      db.schema
        .createTable('things')
        .ifNotExists()
        .addColumn('id', 'bigint', (col) => col.notNull().primaryKey())
        .addColumn('name', 'varchar(255)', (col) => col.defaultTo(''))
        .addColumn('code', 'char(3)')
        .addColumn('ok', 'boolean')
        .addColumn('price', 'decimal(18, 4)')
        .addColumn('at', 'timestamp')
        .addColumn('tags', sql`Array(LowCardinality(String))`)
    expect(compiled(query(old)).sql).toBe(
      "create table if not exists `things` (`id` Int64, `name` String default '', `code` FixedString(3)," +
        ' `ok` UInt8, `price` Decimal(18, 4), `at` DateTime, `tags` Array(LowCardinality(String)))' +
        ' engine = MergeTree order by `id`',
    )
    expect(compiled(query(current)).sql).toContain('`ok` Bool,')
  })

  it('takes the engine given with modifyEnd, a composite key, and CREATE ... AS SELECT', () => {
    expect(
      compiled(
        old.schema
          .createTable('accounts')
          .addColumn('id', 'integer')
          .addColumn('version', 'integer')
          .modifyEnd(sql`engine = ReplacingMergeTree(version) order by id`),
      ).sql,
    ).toBe(
      'create table `accounts` (`id` Int32, `version` Int32) engine = ReplacingMergeTree(version) order by id',
    )
    expect(
      compiled(
        old.schema
          .createTable('pairs')
          .addColumn('a', 'integer')
          .addColumn('b', 'text')
          .addPrimaryKeyConstraint('pk', ['a', 'b']),
      ).sql,
    ).toBe('create table `pairs` (`a` Int32, `b` String) engine = MergeTree order by (`a`, `b`)')
    expect(
      compiled(old.schema.createTable('copy').as(old.selectFrom('users').select(['id', 'name']))).sql,
    ).toBe('create table `copy` engine = MergeTree order by tuple() as select `id`, `name` from `users`')
    expect(compiled(old.schema.createTable('tmp').temporary().addColumn('x', 'integer')).sql).toBe(
      'create temporary table `tmp` (`x` Int32)',
    )
  })

  it('refuses what ClickHouse tables lack', () => {
    expect(() =>
      old.schema
        .createTable('t')
        .addColumn('id', 'integer', (col) => col.autoIncrement())
        .compile(),
    ).toThrow(/auto-increment/)
    expect(() =>
      old.schema
        .createTable('t')
        .addColumn('id', 'integer', (col) => col.unique())
        .compile(),
    ).toThrow(/UNIQUE/)
    expect(() =>
      old.schema
        .createTable('t')
        .addColumn('u', 'integer', (col) => col.references('users.id'))
        .compile(),
    ).toThrow(/foreign keys/)
    expect(() => old.schema.createTable('t').addColumn('x', 'serial').compile()).toThrow(
      /no column type for "serial"/,
    )
    expect(() => old.schema.createTable('t').addColumn('x', 'timestamp(3)').compile()).toThrow(/DateTime64/)
    expect(compiled(current.schema.createTable('t').addColumn('x', 'timestamp(3)')).sql).toBe(
      'create table `t` (`x` DateTime64(3)) engine = MergeTree order by tuple()',
    )
  })

  it('alters, renames and drops', () => {
    expect(
      compiled(old.schema.alterTable('users').addColumn('age', 'int2', (col) => col.defaultTo(0))).sql,
    ).toBe('alter table `users` add column `age` Int16 default 0')
    expect(compiled(old.schema.alterTable('users').dropColumn('age')).sql).toBe(
      'alter table `users` drop column `age`',
    )
    expect(
      compiled(old.schema.alterTable('users').alterColumn('age', (col) => col.setDataType('bigint'))).sql,
    ).toBe('alter table `users` modify column `age` Int64')
    expect(compiled(old.schema.alterTable('users').alterColumn('age', (col) => col.setDefault(1))).sql).toBe(
      'alter table `users` modify column `age` default 1',
    )
    expect(compiled(old.schema.alterTable('users').alterColumn('age', (col) => col.dropDefault())).sql).toBe(
      'alter table `users` modify column `age` remove default',
    )
    expect(compiled(old.schema.alterTable('users').renameColumn('age', 'years')).sql).toBe(
      'alter table `users` rename column `age` to `years`',
    )
    expect(compiled(old.schema.alterTable('users').renameTo('people')).sql).toBe(
      'rename table `users` to `people`',
    )
    expect(compiled(old.schema.dropTable('users').ifExists()).sql).toBe('drop table if exists `users`')
    expect(
      compiled(old.schema.alterTable('users').addIndex('by_age').columns(['age', 'name']).using('minmax'))
        .sql,
    ).toBe('alter table `users` add index `by_age` (`age`, `name`) type minmax')
    expect(() => compiled(old.schema.alterTable('users').addIndex('by_age').column('age'))).toThrow(
      "ClickHouse has no index without a type: name the data-skipping index type with .using('minmax'), .using('set(100)'), .using('bloom_filter(0.01) GRANULARITY 4'), ...",
    )
    expect(() =>
      compiled(old.schema.alterTable('users').addIndex('u').unique().column('age').using('set(0)')),
    ).toThrow('ClickHouse has no UNIQUE indexes: its indexes skip data; a primary key orders it')
    expect(compiled(old.schema.createSchema('analytics').ifNotExists()).sql).toBe(
      'create database if not exists `analytics`',
    )
    expect(compiled(old.schema.dropSchema('analytics').ifExists()).sql).toBe(
      'drop database if exists `analytics`',
    )
  })
})

describe('raw sql', () => {
  it('keeps the text and types its values', () => {
    const query = sql`select ${1} + ${'a'} as x from ${sql.table('users')} where ${sql.ref('id')} > 0`
    expect(compiled({ compile: () => query.compile(old) })).toEqual({
      sql: 'select {p0:Int64} + {p1:String} as x from `users` where `id` > 0',
      parameters: [1, 'a'],
    })
  })
})

describe('DDL on a cluster', () => {
  const onCluster = compileDb('18.16.1', { cluster: 'main' })
  const ddl = (query: { compile(): { sql: string } }) => query.compile().sql

  it('puts ON CLUSTER after the table name of CREATE and DROP TABLE', () => {
    expect(
      ddl(
        onCluster.schema
          .createTable('users')
          .addColumn('id', sql`UInt32`, (col) => col.primaryKey())
          .addColumn('name', 'text'),
      ),
    ).toBe(
      "create table `users` on cluster `main` (`id` UInt32, `name` String) engine = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/users', '{replica}') order by `id`",
    )
    expect(
      ddl(
        onCluster.schema
          .createTable('analytics.hits')
          .ifNotExists()
          .addColumn('url', 'text')
          .modifyEnd(
            sql`engine = ReplicatedMergeTree('/clickhouse/tables/{shard}/hits', '{replica}') order by url`,
          ),
      ),
    ).toBe(
      "create table if not exists `analytics`.`hits` on cluster `main` (`url` String) engine = ReplicatedMergeTree('/clickhouse/tables/{shard}/hits', '{replica}') order by url",
    )
    expect(ddl(onCluster.schema.createTable('copy').as(onCluster.selectFrom('users').select('id')))).toBe(
      "create table `copy` on cluster `main` engine = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/copy', '{replica}') order by tuple() as select `id` from `users`",
    )
    expect(ddl(onCluster.schema.dropTable('users'))).toBe('drop table `users` on cluster `main`')
    expect(ddl(onCluster.schema.dropTable('analytics.hits').ifExists())).toBe(
      'drop table if exists `analytics`.`hits` on cluster `main`',
    )
  })

  it('puts ON CLUSTER between the table and the alterations of ALTER TABLE, and after RENAME', () => {
    const alter = onCluster.schema.alterTable('users')
    expect(ddl(alter.addColumn('age', 'int2', (col) => col.defaultTo(0)))).toBe(
      'alter table `users` on cluster `main` add column `age` Int16 default 0',
    )
    expect(ddl(alter.addColumn('a', 'text').addColumn('b', 'text'))).toBe(
      'alter table `users` on cluster `main` add column `a` String, add column `b` String',
    )
    expect(ddl(alter.dropColumn('age'))).toBe('alter table `users` on cluster `main` drop column `age`')
    expect(ddl(alter.modifyColumn('age', 'bigint'))).toBe(
      'alter table `users` on cluster `main` modify column `age` Int64',
    )
    expect(ddl(alter.alterColumn('age', (col) => col.setDefault(1)))).toBe(
      'alter table `users` on cluster `main` modify column `age` default 1',
    )
    expect(ddl(alter.renameColumn('age', 'years'))).toBe(
      'alter table `users` on cluster `main` rename column `age` to `years`',
    )
    expect(ddl(alter.addIndex('by_name').column('name').using('bloom_filter GRANULARITY 2'))).toBe(
      'alter table `users` on cluster `main` add index `by_name` (`name`) type bloom_filter GRANULARITY 2',
    )
    expect(ddl(alter.dropIndex('by_name'))).toBe('alter table `users` on cluster `main` drop index `by_name`')
    expect(ddl(alter.renameTo('people'))).toBe('rename table `users` to `people` on cluster `main`')
  })

  it('puts ON CLUSTER after the name of views and databases, and drops views as tables', () => {
    const select = onCluster.selectFrom('users').select('id')
    expect(ddl(onCluster.schema.createView('ids').as(select))).toBe(
      'create view `ids` on cluster `main` as select `id` from `users`',
    )
    expect(ddl(onCluster.schema.createView('ids').ifNotExists().materialized().as(select))).toBe(
      'create materialized view if not exists `ids` on cluster `main` as select `id` from `users`',
    )
    expect(ddl(onCluster.schema.dropView('ids').ifExists())).toBe(
      'drop table if exists `ids` on cluster `main`',
    )
    expect(ddl(onCluster.schema.dropView('ids').materialized())).toBe('drop table `ids` on cluster `main`')
    expect(ddl(onCluster.schema.createSchema('analytics').ifNotExists())).toBe(
      'create database if not exists `analytics` on cluster `main`',
    )
    expect(ddl(onCluster.schema.dropSchema('analytics'))).toBe('drop database `analytics` on cluster `main`')
  })

  it('quotes the cluster name as an identifier', () => {
    const odd = compileDb('18.16.1', { cluster: 'my`cluster' })
    expect(ddl(odd.schema.dropTable('t'))).toBe('drop table `t` on cluster `my\\`cluster`')
    expect(() => ddl(compileDb('18.16.1', { cluster: '' }).schema.dropTable('t'))).toThrow(
      "cluster names a cluster of the servers' remote_servers; got an empty string",
    )
  })

  it('refuses CREATE/DROP INDEX, which has no ON CLUSTER form', () => {
    expect(() => ddl(onCluster.schema.createIndex('ix').on('users').column('name'))).toThrow(UsageError)
    expect(() => ddl(onCluster.schema.dropIndex('ix').on('users'))).toThrow(
      'ClickHouse has no DROP INDEX ... ON CLUSTER: use alterTable(t).dropIndex(...), which runs on the cluster',
    )
  })

  it("creates the Migrator's tables replicated to every node of the cluster", () => {
    // Exactly what Kysely's Migrator builds (migrator.js, #ensureMigrationTableExists / LockTableExists).
    expect(
      ddl(
        onCluster.schema
          .createTable('kysely_migration')
          .ifNotExists()
          .addColumn('name', 'varchar(255)', (col) => col.notNull().primaryKey())
          .addColumn('timestamp', 'varchar(255)', (col) => col.notNull()),
      ),
    ).toBe(
      'create table if not exists `kysely_migration` on cluster `main` (`name` String, `timestamp` String)' +
        " engine = ReplicatedMergeTree('/clickhouse/kysely/main/{database}/kysely_migration', '{shard}-{replica}') order by `name`",
    )
    expect(
      ddl(
        onCluster.schema
          .createTable('migrations.app_lock')
          .ifNotExists()
          .addColumn('id', 'varchar(255)', (col) => col.notNull().primaryKey())
          .addColumn('is_locked', 'integer', (col) => col.notNull().defaultTo(0)),
      ),
    ).toBe(
      'create table if not exists `migrations`.`app_lock` on cluster `main` (`id` String, `is_locked` Int32 default 0)' +
        " engine = ReplicatedMergeTree('/clickhouse/kysely/main/{database}/app_lock', '{shard}-{replica}') order by `id`",
    )
  })

  it('leaves DDL without ON CLUSTER when no cluster is configured, and raw SQL as written', () => {
    expect(ddl(old.schema.dropTable('users'))).toBe('drop table `users`')
    expect(ddl(old.schema.dropView('ids'))).toBe('drop table `ids`')
    expect(ddl(old.schema.createView('ids').as(old.selectFrom('users').select('id')))).toBe(
      'create view `ids` as select `id` from `users`',
    )
    expect(
      ddl(
        old.schema
          .createTable('kysely_migration')
          .ifNotExists()
          .addColumn('name', 'varchar(255)', (col) => col.notNull().primaryKey())
          .addColumn('timestamp', 'varchar(255)', (col) => col.notNull()),
      ),
    ).toBe(
      'create table if not exists `kysely_migration` (`name` String, `timestamp` String) engine = MergeTree order by `name`',
    )
    expect(sql`DROP TABLE local_only`.compile(onCluster).sql).toBe('DROP TABLE local_only')
  })
})
