// alterTable(t).addIndex(...) as ClickHouse's data-skipping index: the server's own
// SHOW CREATE TABLE is the oracle for what was made, and the index is dropped again.
/* biome-ignore-all lint/suspicious/noExplicitAny: a schema of the test's own */
import { ClickHouseError } from '@clickwire/client'
import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, kyselyFor, server, transports } from './support/transports.js'

const modern = server.generation === 'modern'

describe.each(transports)('data-skipping indexes over %s', (transport) => {
  const table = `skip_index_${transport}_${Date.now().toString(36)}`
  let db: Kysely<any>
  const ch = clientFor(transport)

  beforeAll(async () => {
    db = kyselyFor(transport)
    await db.schema
      .createTable(table)
      .addColumn('id', sql`UInt32`, (col) => col.primaryKey())
      .addColumn('name', 'text')
      .execute()
  })

  afterAll(async () => {
    await db?.schema.dropTable(table).ifExists().execute()
    await db?.destroy()
    await ch.close()
  })

  async function indexes(): Promise<string[]> {
    const rows = await (await ch.query<{ statement: string }>(`SHOW CREATE TABLE ${table}`)).rows()
    return (rows[0]?.statement ?? '')
      .split('\n')
      .map((line) => line.trim().replace(/,$/, ''))
      .filter((line) => line.startsWith('INDEX '))
  }

  it.runIf(modern)('adds indexes with their type and granularity, and drops them', async () => {
    await db.schema
      .alterTable(table)
      .addIndex('by_name')
      .column('name')
      .using('bloom_filter GRANULARITY 2')
      .execute()
    await db.schema.alterTable(table).addIndex('by_id').column('id').using('minmax').execute()
    expect(await indexes()).toEqual([
      'INDEX by_name (name) TYPE bloom_filter GRANULARITY 2',
      'INDEX by_id (id) TYPE minmax GRANULARITY 1',
    ])
    await db.schema.alterTable(table).dropIndex('by_name').execute()
    expect(await indexes()).toEqual(['INDEX by_id (id) TYPE minmax GRANULARITY 1'])
  })

  // ClickHouse 18.16 has no data-skipping indexes: its parser stops at INDEX.
  it.skipIf(modern)('18.16 refuses the index with its own syntax error', async () => {
    const error = await db.schema
      .alterTable(table)
      .addIndex('by_id')
      .column('id')
      .using('minmax')
      .execute()
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ClickHouseError)
    expect((error as ClickHouseError).code).toBe(62)
    expect(await indexes()).toEqual([])
  })
})
