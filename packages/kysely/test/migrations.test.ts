/* biome-ignore-all lint/suspicious/noExplicitAny: migrations work on a schema that changes under them, as in Kysely's docs */
import { TimeoutError } from '@clickwire/client'
import { type Kysely, type Migration, type MigrationResultSet, Migrator, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ClickHouseTableMetadata } from '../src/index.js'
import { expectLockExcludes } from './support/lock-spans.js'
import { kyselyFor, type TransportName, transports } from './support/transports.js'

/** The app's migrations: DDL and a data change (a mutation) with their way back. */
const migrations: Record<string, Migration> = {
  '001_people': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('people')
        .addColumn('id', sql`UInt32`, (col) => col.primaryKey())
        .addColumn('name', 'text')
        .execute()
      await db
        .insertInto('people')
        .values([
          { id: 1, name: 'ada' },
          { id: 2, name: 'bob' },
        ])
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('people').execute()
    },
  },
  '002_email': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('people')
        .addColumn('email', 'text', (col) => col.defaultTo(''))
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('people').dropColumn('email').execute()
    },
  },
  '003_backfill': {
    async up(db: Kysely<any>) {
      await db.updateTable('people').set({ email: sql`concat(name, '@example.com')` }).execute()
    },
    async down(db: Kysely<any>) {
      await db.updateTable('people').set({ email: '' }).execute()
    },
  },
}

function migrator(db: Kysely<any>, provided = migrations): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => provided } })
}

function outcome(result: MigrationResultSet) {
  if (result.error) throw result.error
  return result.results?.map((step) => `${step.direction} ${step.migrationName} ${step.status}`)
}

async function freshDatabase(name: string, transport: TransportName): Promise<string> {
  const database = `kysely_${name}_${transport}`
  const admin = kyselyFor(transport)
  await admin.schema.dropSchema(database).ifExists().execute()
  await admin.schema.createSchema(database).execute()
  await admin.destroy()
  return database
}

describe.each(transports)('migrations over %s', (transport) => {
  let db: Kysely<any>
  let database: string

  beforeAll(async () => {
    database = await freshDatabase('migrations', transport)
    db = kyselyFor(transport, {}, { client: { database } })
  })

  afterAll(async () => {
    await db?.destroy()
  })

  const people = () => db.selectFrom('people').selectAll().orderBy('id').execute()
  const executed = async () =>
    (await db.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map((row) => row.name)

  it('go up to the latest and down one step at a time', async () => {
    expect(outcome(await migrator(db).migrateToLatest())).toEqual([
      'Up 001_people Success',
      'Up 002_email Success',
      'Up 003_backfill Success',
    ])
    // Migrations wait for their mutations: the backfill is visible at once.
    expect(await people()).toEqual([
      { id: 1, name: 'ada', email: 'ada@example.com' },
      { id: 2, name: 'bob', email: 'bob@example.com' },
    ])
    expect(await executed()).toEqual(['001_people', '002_email', '003_backfill'])
    const tables = (await db.introspection.getTables({
      withInternalKyselyTables: true,
    })) as ClickHouseTableMetadata[]
    expect(tables.map((table) => [table.name, table.engine])).toEqual([
      ['kysely_migration', 'MergeTree'],
      ['kysely_migration_lock', 'MergeTree'],
      ['people', 'MergeTree'],
    ])
    expect((await db.introspection.getTables()).map((table) => table.name)).toEqual(['people'])

    expect(outcome(await migrator(db).migrateDown())).toEqual(['Down 003_backfill Success'])
    expect(await people()).toEqual([
      { id: 1, name: 'ada', email: '' },
      { id: 2, name: 'bob', email: '' },
    ])
    // The migration table's own DELETE is a mutation too, waited for before the next step reads it.
    expect(await executed()).toEqual(['001_people', '002_email'])
    expect(outcome(await migrator(db).migrateDown())).toEqual(['Down 002_email Success'])
    expect(await people()).toEqual([
      { id: 1, name: 'ada' },
      { id: 2, name: 'bob' },
    ])
    expect(outcome(await migrator(db).migrateDown())).toEqual(['Down 001_people Success'])
    expect(await executed()).toEqual([])
    expect((await db.introspection.getTables()).map((table) => table.name)).toEqual([])

    expect(outcome(await migrator(db).migrateToLatest())).toEqual([
      'Up 001_people Success',
      'Up 002_email Success',
      'Up 003_backfill Success',
    ])
    const listed = await migrator(db).getMigrations()
    expect(listed.map((migration) => [migration.name, migration.executedAt instanceof Date])).toEqual([
      ['001_people', true],
      ['002_email', true],
      ['003_backfill', true],
    ])
    expect(outcome(await migrator(db).migrateToLatest())).toEqual([])
  })

  it('report a failing migration and keep the ones before it', async () => {
    const failing = {
      ...migrations,
      '004_broken': {
        async up(db: Kysely<any>) {
          await sql`SELECT no_such_function()`.execute(db)
        },
      },
    }
    const result = await migrator(db, failing).migrateToLatest()
    expect(result.results?.map((step) => `${step.migrationName} ${step.status}`)).toEqual([
      '004_broken Error',
    ])
    expect(String(result.error)).toMatch(/no_such_function/)
    expect(await executed()).toEqual(['001_people', '002_email', '003_backfill'])
    // The lock was released: the next run goes ahead.
    expect(outcome(await migrator(db).migrateToLatest())).toEqual([])
  })
})

describe.each(transports)('the migration lock over %s', (transport) => {
  it('lets one of two concurrent migrators run the migrations; the other waits and finds nothing to do', async () => {
    const database = await freshDatabase('lock', transport)
    const runners = [0, 1].map(() => kyselyFor<any>(transport, {}, { client: { database } }))
    try {
      await runners[0]!.schema
        .createTable('migration_log')
        .addColumn('name', 'text')
        .addColumn('at', sql`DateTime`, (col) => col.defaultTo(sql`now()`))
        .execute()
      // Each migration takes a while and logs every time its body runs.
      const logged: Record<string, Migration> = Object.fromEntries(
        ['a', 'b', 'c'].map((name) => [
          name,
          {
            async up(db: Kysely<any>) {
              await sql`SELECT sleep(0.2)`.execute(db)
              await db.insertInto('migration_log').values({ name }).execute()
            },
          },
        ]),
      )
      const results = await Promise.all(runners.map((runner) => migrator(runner, logged).migrateToLatest()))
      const outcomes = results.map(outcome)
      expect(outcomes.map((steps) => steps?.length).sort()).toEqual([0, 3])
      expect(outcomes.find((steps) => steps?.length === 3)).toEqual([
        'Up a Success',
        'Up b Success',
        'Up c Success',
      ])
      const log = await runners[0]!
        .selectFrom('migration_log')
        .select('name')
        .orderBy('at')
        .orderBy('name')
        .execute()
      expect(log).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }])
      const lockTables = await runners[0]!.introspection.getTables({ withInternalKyselyTables: true })
      expect(lockTables.map((table) => table.name)).not.toContain('kysely_migration_lock_holder')
    } finally {
      await Promise.all(runners.map((runner) => runner.destroy()))
    }
  })

  it('excludes: of several runners taking it at once, one holds it at a time', async () => {
    const database = await freshDatabase('mutex', transport)
    const runners = [0, 1, 2, 3].map(() => kyselyFor<any>(transport, {}, { client: { database } }))
    const options = { lockTable: 'mutex_lock', lockRowId: 'migration_lock' }
    try {
      await expectLockExcludes(runners, options)
      expect((await runners[0]!.introspection.getTables({ withInternalKyselyTables: true })).length).toBe(0)
    } finally {
      await Promise.all(runners.map((runner) => runner.destroy()))
    }
  })

  it('times out behind a lock nobody releases, naming the table to drop', async () => {
    const database = await freshDatabase('stale_lock', transport)
    const db = kyselyFor<any>(transport, { migrationLockTimeoutMs: 300 }, { client: { database } })
    try {
      await sql`CREATE TABLE kysely_migration_lock_holder (holder String, acquired_at DateTime) ENGINE = TinyLog`.execute(
        db,
      )
      await sql`INSERT INTO kysely_migration_lock_holder SELECT 'crashed-runner', toDateTime('2024-01-01 00:00:00')`.execute(
        db,
      )
      const started = Date.now()
      const result = await migrator(db).migrateToLatest()
      expect(Date.now() - started).toBeGreaterThanOrEqual(300)
      expect(TimeoutError.isInstance(result.error)).toBe(true)
      expect(String(result.error)).toContain(
        'the migration lock (table kysely_migration_lock_holder) is held by crashed-runner since 2024-01-01 00:00:00',
      )
      expect(String(result.error)).toContain('DROP TABLE kysely_migration_lock_holder')
      expect(result.results).toBeUndefined()
      await sql`DROP TABLE kysely_migration_lock_holder`.execute(db)
      expect(outcome(await migrator(db).migrateToLatest())).toEqual([
        'Up 001_people Success',
        'Up 002_email Success',
        'Up 003_backfill Success',
      ])
    } finally {
      await db.destroy()
    }
  })
})
