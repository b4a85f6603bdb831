import type { Generated } from 'kysely'
import { type Kysely, sql } from 'kysely'
import { kyselyFor, type TransportName } from './transports.js'

/*
 * The app the integration suites exercise: a hand-written `DB` in the shape clickwire-codegen
 * generates (one interface per table, values as the client returns them with its default
 * mapping: 64-bit integers as bigint, dates as ClickHouse's text, tuples as arrays).
 */

export interface AppDB {
  users: {
    id: number
    name: string
    email: string
    tags: string[]
    scores: number[]
    created: string
  }
  events: {
    event_id: Generated<bigint>
    user_id: number
    kind: string
    value: number
    day: string
    props: string[]
    point: [number, number]
  }
  /** ReplacingMergeTree(version): FINAL shows the last version per id. */
  accounts: {
    id: number
    balance: number
    version: number
  }
  /** ReplacingMergeTree with SAMPLE BY: both FINAL and SAMPLE apply. */
  hits: {
    counter_id: number
    user_id: bigint
    url: string
  }
  bulk: {
    id: number
    name: string
    value: number
    flag: number
  }
}

export const users: AppDB['users'][] = [
  {
    id: 1,
    name: 'ada',
    email: 'ada@x',
    tags: ['admin', 'dev'],
    scores: [1.5, 2.5],
    created: '2024-01-01 10:00:00',
  },
  { id: 2, name: 'bob', email: 'bob@x', tags: [], scores: [], created: '2024-01-02 11:00:00' },
  { id: 3, name: 'cy', email: 'cy@x', tags: ['dev'], scores: [3], created: '2024-01-03 12:00:00' },
]

export const events: Omit<AppDB['events'], 'event_id'>[] = [
  { user_id: 1, kind: 'view', value: 1, day: '2024-02-01', props: ['a'], point: [1, 2] },
  { user_id: 1, kind: 'buy', value: 10, day: '2024-02-01', props: ['a', 'b'], point: [3, 4] },
  { user_id: 1, kind: 'view', value: 2, day: '2024-02-02', props: [], point: [5, 6] },
  { user_id: 2, kind: 'view', value: 3, day: '2024-02-02', props: ['c'], point: [7, 8] },
  { user_id: 3, kind: 'buy', value: 20, day: '2024-02-03', props: ['b'], point: [9, 10] },
]

/**
 * A database of its own for one suite and transport (files run in parallel), with the app's
 * tables created through Kysely's schema builder and filled through the dialect.
 */
export async function appDatabase(suite: string, transport: TransportName): Promise<Kysely<AppDB>> {
  const database = `kysely_${suite}_${transport}`
  const admin = kyselyFor<AppDB>(transport)
  await admin.schema.dropSchema(database).ifExists().execute()
  await admin.schema.createSchema(database).execute()
  await admin.destroy()
  const db = kyselyFor<AppDB>(transport, {}, { client: { database } })
  await db.schema
    .createTable('users')
    .addColumn('id', sql`UInt32`, (col) => col.primaryKey())
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('tags', sql`Array(String)`)
    .addColumn('scores', sql`Array(Float64)`)
    .addColumn('created', 'timestamp')
    .execute()
  await db.schema
    .createTable('events')
    .addColumn('event_id', sql`UInt64`)
    .addColumn('user_id', sql`UInt32`)
    .addColumn('kind', sql`LowCardinality(String)`)
    .addColumn('value', 'float8')
    .addColumn('day', 'date')
    .addColumn('props', sql`Array(String)`)
    .addColumn('point', sql`Tuple(Float64, Float64)`)
    .addPrimaryKeyConstraint('events_pk', ['user_id', 'event_id'])
    .execute()
  await db.schema
    .createTable('accounts')
    .addColumn('id', sql`UInt32`)
    .addColumn('balance', sql`Int32`)
    .addColumn('version', sql`UInt32`)
    .modifyEnd(sql`engine = ReplacingMergeTree(version) order by id`)
    .execute()
  await db.schema
    .createTable('hits')
    .addColumn('counter_id', sql`UInt32`)
    .addColumn('user_id', sql`UInt64`)
    .addColumn('url', 'text')
    .modifyEnd(
      sql`engine = ReplacingMergeTree order by (counter_id, intHash32(user_id)) sample by intHash32(user_id)`,
    )
    .execute()
  await db.schema
    .createTable('bulk')
    .addColumn('id', sql`UInt32`, (col) => col.primaryKey())
    .addColumn('name', 'text')
    .addColumn('value', 'float8')
    .addColumn('flag', sql`UInt8`)
    .execute()
  await db.insertInto('users').values(users).execute()
  await db
    .insertInto('events')
    .values(events.map((event, index) => ({ ...event, event_id: BigInt(index + 1) })))
    .execute()
  // Two inserts, two parts: until a merge, both versions of id 1 are stored.
  await db
    .insertInto('accounts')
    .values([
      { id: 1, balance: 100, version: 1 },
      { id: 2, balance: 50, version: 1 },
    ])
    .execute()
  await db.insertInto('accounts').values({ id: 1, balance: 70, version: 2 }).execute()
  await db
    .insertInto('hits')
    .values(
      Array.from({ length: 1000 }, (_, index) => ({
        counter_id: index % 3,
        user_id: BigInt(index),
        url: `/page/${index % 10}`,
      })),
    )
    .execute()
  return db
}
