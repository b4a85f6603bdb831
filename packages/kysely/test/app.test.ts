import { AbortError, ClickHouseError, UsageError } from '@clickwire/client'
import { CompiledQuery, type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  arrayJoin,
  type ClickHouseConnection,
  executeWithTotals,
  typed,
  withSignal,
  withTotals,
} from '../src/index.js'
import { type AppDB, appDatabase, users } from './support/app-schema.js'
import { kyselyFor, server, transports } from './support/transports.js'

const modern = server.generation === 'modern'

describe.each(transports)('app over %s', (transport) => {
  let db: Kysely<AppDB>

  beforeAll(async () => {
    db = await appDatabase('app', transport)
  })

  afterAll(async () => {
    await db?.destroy()
  })

  it('joins', async () => {
    const rows = await db
      .selectFrom('events as e')
      .innerJoin('users as u', 'u.id', 'e.user_id')
      .select(['u.name', 'e.kind', 'e.value'])
      .where('e.kind', '=', 'buy')
      .orderBy('e.value')
      .execute()
    expect(rows).toEqual([
      { name: 'ada', kind: 'buy', value: 10 },
      { name: 'cy', kind: 'buy', value: 20 },
    ])
    const left = await db
      .selectFrom('users as u')
      .leftJoin(
        db
          .selectFrom('events')
          .select(['user_id', (eb) => eb.fn.countAll<bigint>().as('n')])
          .where('kind', '=', 'buy')
          .groupBy('user_id')
          .as('b'),
        'b.user_id',
        'u.id',
      )
      .select(['u.name', 'b.n'])
      .orderBy('u.id')
      .execute()
    // ClickHouse fills the missing side of a LEFT JOIN with defaults, not NULL (join_use_nulls = 0).
    expect(left).toEqual([
      { name: 'ada', n: 1n },
      { name: 'bob', n: 0n },
      { name: 'cy', n: 1n },
    ])
  })

  it('groups with aggregates', async () => {
    const rows = await db
      .selectFrom('events')
      .select((eb) => [
        'kind',
        eb.fn.countAll<bigint>().as('n'),
        eb.fn.sum<number>('value').as('total'),
        eb.fn.avg<number>('value').as('mean'),
        eb.fn.min<number>('value').as('low'),
        eb.fn.max<string>('day').as('last'),
        eb.fn<bigint>('uniqExact', ['user_id']).as('users'),
      ])
      .groupBy('kind')
      .having((eb) => eb.fn.countAll(), '>=', 2)
      .orderBy('kind')
      .execute()
    expect(rows).toEqual([
      { kind: 'buy', n: 2n, total: 30, mean: 15, low: 10, last: '2024-02-03', users: 2n },
      { kind: 'view', n: 3n, total: 6, mean: 2, low: 1, last: '2024-02-02', users: 2n },
    ])
  })

  it('subqueries in FROM, WHERE and SELECT', async () => {
    // ClickHouse has no correlated subqueries: a scalar subquery stands alone.
    const rows = await db
      .selectFrom((eb) =>
        eb.selectFrom('events').select(['user_id', 'value']).where('kind', '=', 'view').as('v'),
      )
      .select((eb) => [
        'v.user_id',
        eb.fn.sum<number>('v.value').as('total'),
        eb
          .selectFrom('users')
          .select((u) => u.fn.max<string>('name').as('m'))
          .as('last_name'),
      ])
      .where('v.user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('name', '!=', 'cy'))
      .groupBy('v.user_id')
      .orderBy('v.user_id')
      .execute()
    expect(rows).toEqual([
      { user_id: 1, total: 3, last_name: 'cy' },
      { user_id: 2, total: 3, last_name: 'cy' },
    ])
  })

  it('common table expressions (inlined before 20.10)', async () => {
    const rows = await db
      .with('buyers', (qb) => qb.selectFrom('events').select('user_id').where('kind', '=', 'buy'))
      .with('named', (qb) =>
        qb
          .selectFrom('users')
          .innerJoin('buyers', 'buyers.user_id', 'users.id')
          .select(['users.id', 'users.name']),
      )
      .selectFrom('named')
      .select(['named.name'])
      .where('named.id', 'in', (eb) => eb.selectFrom('buyers').select('user_id'))
      .orderBy('named.name')
      .execute()
    expect(rows).toEqual([{ name: 'ada' }, { name: 'cy' }])
  })

  it('arrays and tuples', async () => {
    const rows = await db
      .selectFrom('users')
      .select((eb) => [
        'id',
        'tags',
        'scores',
        eb.fn<number>('length', ['tags']).as('n'),
        eb.fn<number>('has', ['tags', eb.val('dev')]).as('is_dev'),
      ])
      .where('tags', '!=', sql.val([] as string[]))
      .orderBy('id')
      .execute()
    expect(rows).toEqual([
      { id: 1, tags: ['admin', 'dev'], scores: [1.5, 2.5], n: 2n, is_dev: 1 },
      { id: 3, tags: ['dev'], scores: [3], n: 1n, is_dev: 1 },
    ])
    const tuples = await db
      .selectFrom('events')
      .select(['event_id', 'point', (eb) => eb.fn<number>('tupleElement', ['point', sql.lit(2)]).as('y')])
      .where(sql`point`, '=', typed([3, 4], 'Tuple(Float64, Float64)'))
      .execute()
    expect(tuples).toEqual([{ event_id: 2n, point: [3, 4], y: 4 }])
    const unfolded = await db
      .selectFrom('users')
      .$call(arrayJoin({ tag: 'tags', score: 'scores' }))
      .select(['id', 'tag', 'score'])
      .where('tag', '=', 'admin')
      .execute()
    expect(unfolded).toEqual([{ id: 1, tag: 'admin', score: 1.5 }])
    const inList = await db
      .selectFrom('users')
      .select('name')
      .where('id', 'in', [1, 3])
      .orderBy('name')
      .execute()
    expect(inList).toEqual([{ name: 'ada' }, { name: 'cy' }])
  })

  it('inserts 100k rows through the columnar insert', async () => {
    await sql`TRUNCATE TABLE bulk`.execute(db)
    const rows = Array.from({ length: 100_000 }, (_, id) => ({
      id,
      name: `row ${id}`,
      value: id / 2,
      flag: id % 2,
    }))
    const started = performance.now()
    const [result] = await db.insertInto('bulk').values(rows).execute()
    const elapsed = performance.now() - started
    expect(result?.numInsertedOrUpdatedRows).toBe(100_000n)
    const [check] = await db
      .selectFrom('bulk')
      .select((eb) => [
        eb.fn.countAll<bigint>().as('n'),
        eb.fn.sum<number>('value').as('total'),
        eb.fn.sum<bigint>('flag').as('flags'),
        eb.fn.max<string>('name').as('last'),
      ])
      .execute()
    expect(check).toEqual({ n: 100_000n, total: (99_999 * 100_000) / 4, flags: 50_000n, last: 'row 99999' })
    console.log(`[kysely ${transport}] insertInto(bulk).values(100k rows): ${elapsed.toFixed(0)} ms`)
  })

  it('falls back to SQL for inserts with expressions, rows with missing columns go columnar per group', async () => {
    const [inserted] = await db
      .insertInto('accounts')
      .values([
        { id: 10, balance: sql<number>`2 * 21`, version: 1 },
        { id: 11, balance: 7, version: 1 },
      ])
      .execute()
    // The rows the server wrote (18.16 counts none: the VALUES list's rows, written all or none).
    expect(inserted?.numInsertedOrUpdatedRows).toBe(2n)
    const [grouped] = await db
      .insertInto('users')
      .values([
        { id: 10, name: 'x', email: 'x@x', tags: [], scores: [], created: '2024-03-01 00:00:00' },
        { id: 11, name: 'y' } as AppDB['users'],
      ])
      .execute()
    expect(grouped?.numInsertedOrUpdatedRows).toBe(2n)
    expect(await db.selectFrom('accounts').selectAll().where('id', '>=', 10).orderBy('id').execute()).toEqual(
      [
        { id: 10, balance: 42, version: 1 },
        { id: 11, balance: 7, version: 1 },
      ],
    )
    expect(
      await db
        .selectFrom('users')
        .select(['id', 'name', 'email', 'tags', 'created'])
        .where('id', '>=', 10)
        .orderBy('id')
        .execute(),
    ).toEqual([
      { id: 10, name: 'x', email: 'x@x', tags: [], created: '2024-03-01 00:00:00' },
      { id: 11, name: 'y', email: '', tags: [], created: '1970-01-01 00:00:00' },
    ])
    // INSERT ... SELECT, with a common table expression (inlined on 18.16).
    const [copied] = await db
      .with('rich', (qb) => qb.selectFrom('accounts').select(['id', 'balance']).where('id', 'in', [10, 11]))
      .insertInto('accounts')
      .columns(['id', 'balance', 'version'])
      .expression((eb) =>
        eb
          .selectFrom('rich')
          .select([sql<number>`id + 10`.as('id'), 'balance', sql<number>`2`.as('version')]),
      )
      .execute()
    // 18.16 reports no written rows for INSERT ... SELECT (native: Progress has them from
    // revision 54420; HTTP: no X-ClickHouse-Summary yet), and Kysely turns unknown into 0n;
    // 26.x reports them on both transports.
    expect(copied?.numInsertedOrUpdatedRows).toBe(modern ? 2n : 0n)
    expect(await db.selectFrom('accounts').selectAll().where('id', '>=', 20).orderBy('id').execute()).toEqual(
      [
        { id: 20, balance: 42, version: 2 },
        { id: 21, balance: 7, version: 2 },
      ],
    )
    await db.deleteFrom('users').where('id', '>=', 10).execute()
    await db.deleteFrom('accounts').where('id', '>=', 10).execute()
  })

  it('streams rows block by block, stops the query when the loop ends early, passes abort signals', async () => {
    let count = 0
    let sum = 0n
    for await (const row of db
      .selectFrom(sql<{ number: bigint }>`numbers(200000)`.as('n'))
      .select('n.number')
      .stream()) {
      count++
      sum += row.number
    }
    expect(count).toBe(200_000)
    expect(sum).toBe((199_999n * 200_000n) / 2n)
    let seen = 0
    for await (const _ of db
      .selectFrom(sql<{ number: bigint }>`system.numbers`.as('n'))
      .select('n.number')
      .stream()) {
      if (++seen === 10) break
    }
    expect(seen).toBe(10)
    const controller = new AbortController()
    const infinite = db
      .selectFrom(sql<{ number: bigint }>`system.numbers`.as('n'))
      .select('n.number')
      .withPlugin(withSignal(controller.signal))
    let read = 0
    await expect(
      (async () => {
        for await (const _ of infinite.stream()) if (++read === 1000) controller.abort(new Error('enough'))
      })(),
    ).rejects.toSatisfy(AbortError.isInstance)
    expect(read).toBeGreaterThanOrEqual(1000)
    // The client still works after both early endings.
    expect(await db.selectFrom('users').select('id').where('id', '=', 2).execute()).toEqual([{ id: 2 }])
    // A signal that already fired stops a query before it starts.
    const aborted = AbortSignal.abort()
    await expect(
      db.selectFrom('users').selectAll().withPlugin(withSignal(aborted)).execute(),
    ).rejects.toSatisfy(AbortError.isInstance)
  })

  it('kills its running query on request (Kysely 0.29 inflightQueryAbortStrategy: cancel query)', async () => {
    const executor = db.getExecutor()
    const connection = (await executor.provideConnection(async (each) => each)) as ClickHouseConnection
    const running = connection
      .executeQuery(CompiledQuery.raw('SELECT sum(number) AS s FROM system.numbers'))
      .catch((error: unknown) => error)
    const started = Date.now()
    for (;;) {
      const { rows } = await sql<{
        n: bigint
      }>`SELECT count() AS n FROM system.processes WHERE query LIKE 'SELECT sum(number) AS s FROM system.numbers%'`.execute(
        db,
      )
      if (rows[0]!.n > 0n) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await connection.cancelQuery((consumer) => executor.provideConnection(consumer))
    const error = await running
    expect(ClickHouseError.isInstance(error) && error.code).toBe(394) // QUERY_WAS_CANCELLED
    expect(Date.now() - started).toBeLessThan(30_000)
  })

  it('returns the WITH TOTALS row', async () => {
    const { rows, totals, queryId } = await executeWithTotals(
      db,
      db
        .selectFrom('events')
        .select((eb) => ['kind', eb.fn.countAll<bigint>().as('n')])
        .groupBy('kind')
        .orderBy('kind')
        .$call(withTotals()),
    )
    expect(rows).toEqual([
      { kind: 'buy', n: 2n },
      { kind: 'view', n: 3n },
    ])
    // The native protocol sends the totals block; the HTTP interface's Native format drops it
    // (NativeOutputFormat writes main chunks only, on 18.16 and on current servers alike).
    expect(totals).toEqual(transport === 'native' ? { kind: '', n: 5n } : undefined)
    expect(queryId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('updates and deletes as mutations, waited for when asked', async () => {
    const waiting = kyselyFor<AppDB>(
      transport,
      { waitForMutations: true },
      { client: { database: `kysely_app_${transport}` } },
    )
    try {
      const [updated] = await waiting
        .updateTable('users')
        .set({ email: 'ada@new' })
        .where('id', '=', 1)
        .execute()
      // Mutations report no row count.
      expect(updated?.numUpdatedRows).toBe(0n)
      expect(await waiting.selectFrom('users').select('email').where('id', '=', 1).execute()).toEqual([
        { email: 'ada@new' },
      ])
      await waiting
        .insertInto('users')
        .values({ ...users[1]!, id: 99 })
        .execute()
      await waiting.deleteFrom('users').where('id', '=', 99).execute()
      expect(await waiting.selectFrom('users').select('id').where('id', '=', 99).execute()).toEqual([])
    } finally {
      await waiting.destroy()
    }
  })

  it('compiles for the server it finds: a query compiled before the first one runs is compiled again', async () => {
    await db.insertInto('accounts').values({ id: 77, balance: 1, version: 1 }).execute()
    const fresh = kyselyFor<AppDB>(
      transport,
      { waitForMutations: true },
      { client: { database: `kysely_app_${transport}` } },
    )
    try {
      const query = fresh.deleteFrom('accounts').where('id', '=', 77)
      // Before the server is known the compiler writes for a current server ...
      expect(query.compile().sql).toBe('delete from `accounts` where `id` = {p0:Int64}')
      // ... and the driver compiles it again for 18.16, which has only ALTER TABLE ... DELETE;
      // 26.x has lightweight DELETE, so there it stays as it is.
      expect(await fresh.selectFrom('accounts').select('id').where('id', '=', 77).execute()).toEqual([
        { id: 77 },
      ])
      await query.execute()
      expect(query.compile().sql).toBe(
        modern
          ? 'delete from `accounts` where `id` = {p0:Int64}'
          : 'alter table `accounts` delete where `id` = {p0:Int64}',
      )
      expect(await fresh.selectFrom('accounts').select('id').where('id', '=', 77).execute()).toEqual([])
    } finally {
      await fresh.destroy()
    }
  })

  it.runIf(modern)(
    'updates and deletes lightweight where the server has them (skipped on 18.16: it has neither lightweight UPDATE nor DELETE)',
    async () => {
      const lightweight = kyselyFor<AppDB>(
        transport,
        { updateStatement: 'auto' },
        { client: { database: `kysely_app_${transport}` } },
      )
      try {
        // Lightweight UPDATE writes patch parts, which need the block number and offset columns.
        await sql`CREATE TABLE wallets (id UInt32, balance Int32, version UInt32) ENGINE = MergeTree ORDER BY id
          SETTINGS enable_block_number_column = 1, enable_block_offset_column = 1`.execute(lightweight)
        const wallets = lightweight.withTables<{ wallets: AppDB['accounts'] }>()
        await wallets
          .insertInto('wallets')
          .values([
            { id: 1, balance: 10, version: 1 },
            { id: 2, balance: 20, version: 1 },
            { id: 3, balance: 30, version: 1 },
          ])
          .execute()
        const mutations = async (where = '') =>
          (
            await sql<{ n: bigint }>`SELECT count() AS n FROM system.mutations
              WHERE database = currentDatabase() AND table = 'wallets' ${sql.raw(where)}`.execute(lightweight)
          ).rows
        const update = wallets
          .updateTable('wallets')
          .set((eb) => ({ balance: eb('balance', '+', 5), version: 2 }))
          .where('id', '>=', 2)
        await update.execute()
        expect(update.compile().sql).toBe(
          'update `wallets` set `balance` = `balance` + {p0:Int64}, `version` = {p1:Int64} where `id` >= {p2:Int64}',
        )
        // A lightweight UPDATE writes patch parts, not a mutation.
        expect(await mutations()).toEqual([{ n: 0n }])
        const deletion = wallets.deleteFrom('wallets').where('id', '=', 3)
        await deletion.execute()
        expect(deletion.compile().sql).toBe('delete from `wallets` where `id` = {p0:Int64}')
        // A lightweight DELETE is a mutation of _row_exists, finished when it returns
        // (lightweight_deletes_sync = 2 by default).
        expect(await mutations('AND is_done = 0')).toEqual([{ n: 0n }])
        expect(await wallets.selectFrom('wallets').selectAll().orderBy('id').execute()).toEqual([
          { id: 1, balance: 10, version: 1 },
          { id: 2, balance: 25, version: 2 },
        ])
        // A table without those columns refuses a lightweight UPDATE, naming the setting to change.
        const refused = await lightweight
          .updateTable('accounts')
          .set({ balance: 0 })
          .where('id', '=', 1)
          .execute()
          .catch((error: unknown) => error)
        expect(ClickHouseError.isInstance(refused) && refused.code).toBe(48) // NOT_IMPLEMENTED
        expect(String(refused)).toContain('enable_block_number_column')
      } finally {
        await sql`DROP TABLE IF EXISTS wallets`.execute(lightweight)
        await lightweight.destroy()
      }
    },
  )

  it('refuses transactions with the reason', async () => {
    const attempt = db.transaction().execute(async (trx) => trx.selectFrom('users').selectAll().execute())
    await expect(attempt).rejects.toSatisfy(UsageError.isInstance)
    await expect(attempt).rejects.toThrow(/ClickHouse has no multi-statement transactions/)
  })

  it('introspects databases, tables, views and columns', async () => {
    await sql`CREATE VIEW IF NOT EXISTS buyers AS SELECT user_id FROM events WHERE kind = 'buy'`.execute(db)
    await sql`CREATE TABLE IF NOT EXISTS defaults (id UInt32, n Nullable(String), d UInt8 DEFAULT 7, m UInt8 MATERIALIZED d, s String ALIAS toString(id)) ENGINE = Memory`.execute(
      db,
    )
    const schemas = await db.introspection.getSchemas()
    expect(schemas.map((schema) => schema.name)).toEqual(
      expect.arrayContaining(['system', `kysely_app_${transport}`]),
    )
    const tables = await db.introspection.getTables()
    expect(tables.map((table) => [table.name, table.isView])).toEqual([
      ['accounts', false],
      ['bulk', false],
      ['buyers', true],
      ['defaults', false],
      ['events', false],
      ['hits', false],
      ['users', false],
    ])
    const defaults = tables.find((table) => table.name === 'defaults')
    expect(defaults).toMatchObject({ schema: `kysely_app_${transport}`, engine: 'Memory', isForeign: false })
    expect(defaults?.columns).toEqual([
      {
        name: 'id',
        dataType: 'UInt32',
        isNullable: false,
        isAutoIncrementing: false,
        hasDefaultValue: false,
        defaultKind: '',
        defaultExpression: '',
      },
      {
        name: 'n',
        dataType: 'Nullable(String)',
        isNullable: true,
        isAutoIncrementing: false,
        hasDefaultValue: false,
        defaultKind: '',
        defaultExpression: '',
      },
      {
        name: 'd',
        dataType: 'UInt8',
        isNullable: false,
        isAutoIncrementing: false,
        hasDefaultValue: true,
        defaultKind: 'DEFAULT',
        defaultExpression: '7',
      },
      {
        name: 'm',
        dataType: 'UInt8',
        isNullable: false,
        isAutoIncrementing: false,
        hasDefaultValue: true,
        defaultKind: 'MATERIALIZED',
        defaultExpression: 'd',
      },
      {
        name: 's',
        dataType: 'String',
        isNullable: false,
        isAutoIncrementing: false,
        hasDefaultValue: true,
        defaultKind: 'ALIAS',
        defaultExpression: 'toString(id)',
      },
    ])
    expect(
      tables
        .find((table) => table.name === 'events')
        ?.columns.map((column) => [column.name, column.dataType]),
    ).toEqual([
      ['event_id', 'UInt64'],
      ['user_id', 'UInt32'],
      ['kind', 'LowCardinality(String)'],
      ['value', 'Float64'],
      ['day', 'Date'],
      ['props', 'Array(String)'],
      ['point', 'Tuple(Float64, Float64)'],
    ])
  })
})
