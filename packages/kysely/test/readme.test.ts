import { createClient } from '@clickwire/client'
import { Kysely, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { arrayJoin, ClickHouseDialect, final, prewhere } from '../src/index.js'
import { transports, urlFor } from './support/transports.js'

/** The README's opening example, as written there (only the URL and database differ). */
describe.each(transports)('README example over %s', (transport) => {
  it('runs and prints what the README says', async () => {
    interface DB {
      posts: { id: number; author: string; tags: string[]; version: number }
    }
    const database = `kysely_readme_${transport}`
    const admin = createClient(urlFor(transport))
    await admin.command(`DROP DATABASE IF EXISTS ${database}`)
    await admin.command(`CREATE DATABASE ${database}`)
    await admin.close()

    const db = new Kysely<DB>({
      dialect: new ClickHouseDialect({ client: createClient({ url: urlFor(transport), database }) }),
    })

    await db.schema
      .createTable('posts')
      .ifNotExists()
      .addColumn('id', sql`UInt32`)
      .addColumn('author', 'text')
      .addColumn('tags', sql`Array(String)`)
      .addColumn('version', sql`UInt32`)
      .modifyEnd(sql`engine = ReplacingMergeTree(version) order by id`)
      .execute()

    await db
      .insertInto('posts')
      .values([
        { id: 1, author: 'ada', tags: ['sql', 'olap'], version: 1 },
        { id: 2, author: "o'brien", tags: [], version: 1 },
      ])
      .execute()

    const query = db
      .selectFrom('posts')
      .$call(final())
      .$call(arrayJoin('tags', 'tag'))
      .$call(prewhere('author', '=', 'ada'))
      .select(['id', 'tag'])
      .orderBy('tag')
    expect(query.compile().sql).toBe(
      'select `id`, `tag` from `posts` final array join `tags` as `tag` prewhere `author` = {p0:String} order by `tag`',
    )
    const rows = await query.execute()
    expect(rows).toEqual([
      { id: 1, tag: 'olap' },
      { id: 1, tag: 'sql' },
    ])
    await db.destroy()
  })
})
