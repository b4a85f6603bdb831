// The Kysely dialect's runtime-neutral conformance checks: the public API of @clickwire/kysely,
// kysely and @clickwire/client only, no Node module, so the same file runs on Node, Bun and
// Deno. Each gives a string the test compares with what the server renders.
import { type Client, type ClientOptions, createClient } from '@clickwire/client'
import { arrayJoin, ClickHouseDialect, final, prewhere } from '@clickwire/kysely'
import { Kysely, sql } from 'kysely'

/** What `createClient` a runtime's entry gives. */
export type CreateClient = (options: ClientOptions) => Client

interface Posts {
  id: number
  author: string
  tags: string[]
  version: number
}
interface DB {
  posts: Posts
}

type Check = (db: Kysely<DB>) => Promise<string>

const stringOf = (value: unknown): string =>
  JSON.stringify(value, (_key, each) => (typeof each === 'bigint' ? `${each}n` : each))

const checks: [string, Check][] = [
  [
    'create, insert and select with clauses',
    async (db) => {
      await db.schema
        .createTable('posts')
        .addColumn('id', sql`UInt32`)
        .addColumn('author', 'text')
        .addColumn('tags', sql`Array(String)`)
        .addColumn('version', sql`UInt32`)
        .modifyEnd(sql`engine = ReplacingMergeTree(version) order by id`)
        .execute()
      const inserted = await db
        .insertInto('posts')
        .values([
          { id: 1, author: 'ada', tags: ['sql', 'olap'], version: 1 },
          { id: 2, author: 'o\'brien \\ "q"', tags: [], version: 1 },
          { id: 1, author: 'ada', tags: ['sql', 'olap', 'tsdb'], version: 2 },
        ])
        .executeTakeFirst()
      const rows = await db
        .selectFrom('posts')
        .$call(final())
        .$call(arrayJoin('tags', 'tag'))
        .$call(prewhere('author', '=', 'ada'))
        .select(['id', 'tag'])
        .orderBy('tag')
        .execute()
      return `inserted ${inserted.numInsertedOrUpdatedRows}; ${stringOf(rows)}`
    },
  ],
  [
    'values with quotes and aggregates',
    async (db) => {
      const quoted = await db
        .selectFrom('posts')
        .select(['id', 'author'])
        .where('author', '=', 'o\'brien \\ "q"')
        .execute()
      // FINAL: 26.x already merges the two versions of id 1 on insert (optimize_on_insert), 18.16 does not.
      const counts = await db
        .selectFrom('posts')
        .$call(final())
        .select(['author', db.fn.countAll<bigint>().as('n'), db.fn.max('version').as('v')])
        .groupBy('author')
        .orderBy('author')
        .execute()
      return `${stringOf(quoted)} ${stringOf(counts)}`
    },
  ],
  [
    'streaming',
    async (db) => {
      let rows = 0
      let sum = 0n
      const stream = db
        .selectNoFrom(sql<bigint>`number`.as('n'))
        .modifyEnd(sql`from numbers(100000)`)
        .stream()
      for await (const row of stream) {
        rows++
        sum += BigInt(row.n)
      }
      return `${rows} rows, sum ${sum}`
    },
  ],
]

/**
 * Runs every check with a Kysely over a client of `url`, in a database of this run's own (so
 * the checks can say `posts`); a check that throws gives its error's name and message.
 */
export async function runKyselyConformance(
  create: CreateClient,
  url: string,
): Promise<Record<string, string>> {
  const database = `kysely_conformance_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const admin = create({ url })
  await admin.command(`CREATE DATABASE ${database}`)
  const db = new Kysely<DB>({ dialect: new ClickHouseDialect({ client: create({ url, database }) }) })
  const results: Record<string, string> = {}
  try {
    for (const [name, check] of checks) {
      try {
        results[name] = await check(db)
      } catch (error) {
        results[name] = `threw ${(error as Error).name}: ${(error as Error).message}`
      }
    }
  } finally {
    await db.destroy()
    await admin.command(`DROP DATABASE IF EXISTS ${database}`)
    await admin.close()
  }
  return results
}

/** Node's (and Bun's, Deno's) `createClient`. */
export const defaultCreate: CreateClient = createClient
