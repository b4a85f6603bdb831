/* biome-ignore-all lint/suspicious/noExplicitAny: migrations work on a schema that changes under them, as in Kysely's docs */
// Kysely's Migrator on a real 2-shard × 2-replica cluster (its own, not the injected server):
// DDL ON CLUSTER reaches every node, the history is the same on every node, and the lock
// keeps two migrators on two different nodes from running at once. One migrator of each
// pair talks native, the other HTTP.
import { createClient, TimeoutError } from '@clickwire/client'
import { type ClickHouseServer, clusterSkipReason, startClickHouse } from '@clickwire/testing'
import { Kysely, type Migration, type MigrationResultSet, Migrator, NO_MIGRATIONS, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseDialect, type ClickHouseDialectConfig } from '../src/index.js'
import { expectLockExcludes } from './support/lock-spans.js'
import { server, type TransportName } from './support/transports.js'

const skipReason = clusterSkipReason(server, { replicated: true })

function outcome(result: MigrationResultSet) {
  if (result.error) throw result.error
  return result.results?.map((step) => `${step.direction} ${step.migrationName} ${step.status}`)
}

describe.skipIf(skipReason !== undefined)(
  `migrations on a 2-shard × 2-replica cluster${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let cluster: ClickHouseServer
    const open: Kysely<any>[] = []
    beforeAll(async () => {
      cluster = await startClickHouse({ local: true, shards: 2, replicas: 2 })
    }, 120_000)
    afterAll(async () => {
      await Promise.all(open.map((db) => db.destroy()))
      await cluster?.stop()
    })

    const node = (index: number) => cluster.nodes![index]!

    /** A Kysely on node `index` (0-based: 0, 1 shard 1; 2, 3 shard 2) running DDL on the cluster. */
    function kyselyOn(
      index: number,
      transport: TransportName,
      database = 'default',
      dialect: Omit<ClickHouseDialectConfig, 'client'> = {},
      settings: Record<string, number> = {},
    ): Kysely<any> {
      const url = transport === 'native' ? node(index).nativeUrl : node(index).httpUrl
      const db = new Kysely<any>({
        dialect: new ClickHouseDialect({
          client: createClient({ url, database, settings }),
          cluster: cluster.clusterName!,
          ...dialect,
        }),
      })
      open.push(db)
      return db
    }

    const migrator = (db: Kysely<any>, migrations: Record<string, Migration>) =>
      new Migrator({ db, provider: { getMigrations: async () => migrations } })

    async function freshDatabase(name: string): Promise<string> {
      const admin = kyselyOn(0, 'native')
      await admin.schema.dropSchema(name).ifExists().execute()
      await admin.schema.createSchema(name).execute()
      return name
    }

    /** `[node, name, engine]` of the tables of `database`, as each of the four nodes lists them. */
    async function tablesEverywhere(database: string): Promise<string[][]> {
      const seen: string[][] = []
      for (const [index] of cluster.nodes!.entries()) {
        const { rows } = await sql<{ name: string; engine: string }>`
          SELECT name, engine FROM system.tables WHERE database = ${database} ORDER BY name`.execute(
          kyselyOn(index, 'native', database),
        )
        for (const row of rows) seen.push([`node ${index + 1}`, row.name, row.engine])
      }
      return seen
    }

    const everyNode = (rows: readonly [string, string][]) =>
      [1, 2, 3, 4].flatMap((index) => rows.map(([name, engine]) => [`node ${index}`, name, engine]))

    const migrations: Record<string, Migration> = {
      '001_people': {
        async up(db: Kysely<any>) {
          await db.schema
            .createTable('people')
            .addColumn('id', sql`UInt32`, (col) => col.primaryKey())
            .addColumn('name', 'text')
            .execute()
        },
        async down(db: Kysely<any>) {
          await db.schema.dropTable('people').execute()
        },
      },
      '002_email': {
        async up(db: Kysely<any>) {
          await db.schema.alterTable('people').addColumn('email', 'text').execute()
        },
        async down(db: Kysely<any>) {
          await db.schema.alterTable('people').dropColumn('email').execute()
        },
      },
    }

    it('creates the tables on every node, and a migrator on another shard sees them applied; down drops them everywhere', async () => {
      const database = await freshDatabase('kysely_cluster_up')
      const first = kyselyOn(0, 'native', database)
      expect(outcome(await migrator(first, migrations).migrateToLatest())).toEqual([
        'Up 001_people Success',
        'Up 002_email Success',
      ])
      expect(await tablesEverywhere(database)).toEqual(
        everyNode([
          ['kysely_migration', 'ReplicatedMergeTree'],
          ['kysely_migration_lock', 'ReplicatedMergeTree'],
          ['people', 'ReplicatedMergeTree'],
        ]),
      )
      for (const index of [0, 1, 2, 3]) {
        const { rows } = await sql<{ name: string }>`
          SELECT name FROM system.columns WHERE database = ${database} AND table = 'people'`.execute(
          kyselyOn(index, 'native', database),
        )
        expect(rows.map((row) => row.name)).toEqual(['id', 'name', 'email'])
      }

      // Node 3 (shard 2), over HTTP: the history written through node 1 is there.
      const third = kyselyOn(2, 'http', database)
      expect(outcome(await migrator(third, migrations).migrateToLatest())).toEqual([])
      const listed = await migrator(third, migrations).getMigrations()
      expect(listed.map((migration) => [migration.name, migration.executedAt instanceof Date])).toEqual([
        ['001_people', true],
        ['002_email', true],
      ])

      // Down through node 4: DROP COLUMN and DROP TABLE on the cluster, history emptied everywhere.
      const fourth = kyselyOn(3, 'native', database)
      expect(outcome(await migrator(fourth, migrations).migrateDown())).toEqual(['Down 002_email Success'])
      const { rows: columns } = await sql<{ name: string }>`
        SELECT name FROM system.columns WHERE database = ${database} AND table = 'people'`.execute(
        kyselyOn(1, 'native', database),
      )
      expect(columns.map((row) => row.name)).toEqual(['id', 'name'])
      expect(outcome(await migrator(first, migrations).migrateTo(NO_MIGRATIONS))).toEqual([
        'Down 001_people Success',
      ])
      expect(await tablesEverywhere(database)).toEqual(
        everyNode([
          ['kysely_migration', 'ReplicatedMergeTree'],
          ['kysely_migration_lock', 'ReplicatedMergeTree'],
        ]),
      )
      for (const index of [0, 1, 2, 3]) {
        const db = kyselyOn(index, 'native', database)
        await sql`SYSTEM SYNC REPLICA kysely_migration`.execute(db)
        expect(await db.selectFrom('kysely_migration').select('name').execute()).toEqual([])
      }
    }, 90_000)

    it('lets exactly one of two migrators on two shards run; the other waits and finds nothing to do', async () => {
      const database = await freshDatabase('kysely_cluster_lock')
      const runners = [kyselyOn(0, 'native', database), kyselyOn(2, 'http', database)]
      // A log replicated to all four nodes: each run of a migration body adds a row. The
      // runner column keeps two runs of one migration from being one deduplicated block.
      await runners[0]!.schema
        .createTable('runs')
        .addColumn('name', 'text')
        .addColumn('runner', sql`UInt8`)
        .modifyEnd(
          sql`engine = ReplicatedMergeTree(${sql.lit(`/clickhouse/tables/kysely_test/${database}/runs`)}, '{shard}-{replica}') order by tuple()`,
        )
        .execute()
      const logged = (runner: number): Record<string, Migration> =>
        Object.fromEntries(
          ['a', 'b', 'c'].map((name) => [
            name,
            {
              async up(db: Kysely<any>) {
                await sql`SELECT sleep(0.2)`.execute(db)
                await db.insertInto('runs').values({ name, runner }).execute()
              },
            },
          ]),
        )
      const results = await Promise.all(
        runners.map((runner, index) => migrator(runner, logged(index)).migrateToLatest()),
      )
      const outcomes = results.map(outcome)
      expect(outcomes.map((steps) => steps?.length).sort()).toEqual([0, 3])
      const winner = outcomes.findIndex((steps) => steps?.length === 3)
      expect(outcomes[winner]).toEqual(['Up a Success', 'Up b Success', 'Up c Success'])
      const reader = kyselyOn(3, 'native', database)
      await sql`SYSTEM SYNC REPLICA runs`.execute(reader)
      expect(await reader.selectFrom('runs').select(['name', 'runner']).orderBy('name').execute()).toEqual(
        ['a', 'b', 'c'].map((name) => ({ name, runner: winner })),
      )
      expect(await tablesEverywhere(database)).toEqual(
        everyNode([
          ['kysely_migration', 'ReplicatedMergeTree'],
          ['kysely_migration_lock', 'ReplicatedMergeTree'],
          ['runs', 'ReplicatedMergeTree'],
        ]),
      )
    }, 90_000)

    it('times out with a TimeoutError behind a lock held through another shard, naming the holder', async () => {
      const database = await freshDatabase('kysely_cluster_wait')
      const holder = kyselyOn(1, 'native', database)
      const options = { lockTable: 'kysely_migration_lock', lockRowId: 'migration_lock' }
      await holder.connection().execute(async (connection) => {
        const adapter = connection.getExecutor().adapter
        await adapter.acquireMigrationLock(connection, options)
        try {
          const waiter = kyselyOn(3, 'http', database, { migrationLockTimeoutMs: 500 })
          const started = Date.now()
          const result = await migrator(waiter, migrations).migrateToLatest()
          expect(Date.now() - started).toBeGreaterThanOrEqual(500)
          expect(TimeoutError.isInstance(result.error)).toBe(true)
          expect(String(result.error)).toMatch(
            new RegExp(
              `the migration lock \\(table kysely_migration_lock_holder on cluster ${cluster.clusterName}\\) is held by [0-9a-f-]{36} since \\d{4}-\\d\\d-\\d\\dT`,
            ),
          )
          expect(String(result.error)).toContain(
            `DROP TABLE ${database}.kysely_migration_lock_holder ON CLUSTER ${cluster.clusterName}`,
          )
          expect(result.results).toBeUndefined()
        } finally {
          await adapter.releaseMigrationLock(connection, options)
        }
      })
      // Released on every node: a migrator on yet another node goes ahead.
      expect(outcome(await migrator(kyselyOn(2, 'native', database), migrations).migrateToLatest())).toEqual([
        'Up 001_people Success',
        'Up 002_email Success',
      ])
      expect((await tablesEverywhere(database)).filter(([, name]) => name?.endsWith('_holder'))).toEqual([])
    }, 60_000)

    it('excludes when the client asks ON CLUSTER statements not to wait (distributed_ddl_task_timeout = 0)', async () => {
      const database = await freshDatabase('kysely_cluster_nowait')
      // With 0 the server returns before any node ran the statement; the lock sets its own.
      const runners = [0, 2, 3].map((index) =>
        kyselyOn(index, index === 2 ? 'http' : 'native', database, {}, { distributed_ddl_task_timeout: 0 }),
      )
      const options = { lockTable: 'queue_lock', lockRowId: 'migration_lock' }
      await expectLockExcludes(runners, options)
    }, 60_000)

    it('reads the outcome of a lock request from ZooKeeper when the initiator stops waiting for the DDL queue', async () => {
      const database = await freshDatabase('kysely_cluster_slow')
      // An entry ahead in the queue keeps every node busy for 3 s; the lock request behind it
      // outlasts its distributed_ddl_task_timeout (1 s, the time left to wait for the lock).
      const slow =
        sql`CREATE TABLE slow ON CLUSTER ${sql.id(cluster.clusterName!)} ENGINE = Memory AS SELECT sleep(3) AS s`.execute(
          kyselyOn(1, 'native', database),
        )
      await new Promise((resolve) => setTimeout(resolve, 300))
      const db = kyselyOn(0, 'native', database, { migrationLockTimeoutMs: 1000 })
      const options = { lockTable: 'slow_lock', lockRowId: 'migration_lock' }
      await db.connection().execute(async (connection) => {
        const adapter = connection.getExecutor().adapter
        const started = Date.now()
        await adapter.acquireMigrationLock(connection, options)
        // Taken once the nodes ran the request, past the 1 s the initiator waited for it.
        expect(Date.now() - started).toBeGreaterThan(1500)
        const { rows } = await sql<{ name: string }>`
          SELECT name FROM system.tables WHERE database = ${database} AND name = 'slow_lock_holder'`.execute(
          connection,
        )
        expect(rows).toEqual([{ name: 'slow_lock_holder' }])
        await adapter.releaseMigrationLock(connection, options)
      })
      await slow
      expect((await tablesEverywhere(database)).filter(([, name]) => name?.endsWith('_holder'))).toEqual([])
    }, 60_000)
  },
)
