// Inserted values and identifiers that try to break out. Random unicode strings (quotes,
// backslashes, NUL, newlines, placeholder look-alikes) inserted through client.insert come
// back unchanged on both transports; tables and columns with odd names, written with
// sql.id() / quoteSqlIdentifier(), are created, inserted into and read under exactly
// those names.
import { type Client, createClient, sql } from '@clickwire/client'
import { quoteSqlIdentifier } from '@clickwire/protocol'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { installProcessGuard } from '../src/guards/process-guard.js'
import { transports } from './support/proxied-client.js'
import { trickyPieces, trickyString } from './support/tricky-strings.js'

const server = inject('clickhouse')
const guard = installProcessGuard()
const longMode = process.env.CLICKWIRE_LONG === '1'
const runs = (ci: number) => (longMode ? ci * 50 : ci)
const suffix = Date.now().toString(36)
const clients: Client[] = []

afterAll(async () => {
  guard.dispose()
  for (const client of clients) await client.close()
})

function clientFor(transport: 'native' | 'http'): Client {
  const client = createClient({ url: transport === 'native' ? server.nativeUrl : server.httpUrl })
  clients.push(client)
  return client
}

const rowArbitrary = fc.record({
  s: trickyString,
  a: fc.array(trickyString, { maxLength: 4 }),
  n: fc.option(trickyString, { nil: null }),
})

/** Names with the characters identifier quoting must handle, and some that need none. */
const nameArbitrary = fc
  .array(
    fc.oneof(
      fc.constantFrom(...trickyPieces),
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 4 }),
      fc.constantFrom('.', ' ', '(', ')', ',', '=', '%', '/', '-', 'x'),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((pieces) => pieces.join(''))
  .filter((name) => name.trim() !== '' && Buffer.byteLength(name) <= 40)

describe('inserted values', () => {
  for (const transport of transports) {
    it(`${transport}: tricky strings, arrays and nullables come back exactly as inserted`, async () => {
      const client = clientFor(transport)
      const table = `reliability_values_${transport}_${suffix}`
      await client.command(
        `CREATE TABLE ${table} (id UInt32, s String, a Array(String), n Nullable(String)) ENGINE = Memory`,
      )
      try {
        await fc.assert(
          fc.asyncProperty(fc.array(rowArbitrary, { minLength: 1, maxLength: 30 }), async (rows) => {
            await client.command(`TRUNCATE TABLE ${table}`)
            const inserted = rows.map((row, id) => ({ id, ...row }))
            const result = await client.insert(table, inserted, { blockRows: 7 })
            expect(result.rowsWritten).toBe(rows.length)
            const back = await (await client.query(`SELECT id, s, a, n FROM ${table} ORDER BY id`)).rows()
            expect(back).toEqual(inserted)
          }),
          { numRuns: runs(40) },
        )
      } finally {
        await client.command(`DROP TABLE IF EXISTS ${table}`)
      }
      expect(guard.events).toEqual([])
    })
  }
})

describe('identifiers', () => {
  // A database of the server's default engine, not the run's default database: the modern
  // engine is clickhouse-local, whose `default` is an Overlay with a Filesystem database in
  // it, which takes a table name with braces for a file glob (CREATE TABLE `a{b}` fails there
  // with 636 CANNOT_EXTRACT_TABLE_STRUCTURE, EXISTS TABLE `a{b}` says 1): a quirk of that
  // engine, not of a 26.x server. 18.16 creates it Ordinary, 26.x Atomic.
  const database = `reliability_identifiers_${suffix}`
  beforeAll(async () => {
    await clientFor('http').command(`CREATE DATABASE IF NOT EXISTS ${database}`)
  })
  afterAll(async () => {
    await clientFor('http').command(`DROP DATABASE IF EXISTS ${database}`)
  })

  for (const transport of transports) {
    it(`${transport}: tables and columns with odd names are used under exactly those names`, async () => {
      const client = clientFor(transport)
      let index = 0
      await fc.assert(
        fc.asyncProperty(nameArbitrary, nameArbitrary, async (tableName, columnName) => {
          // A prefix of our own keeps the names apart from other tests' tables.
          const table = `rel ${transport} ${suffix} ${index++} ${tableName}`
          await client.command(
            sql`CREATE TABLE ${sql.id(database, table)} (id UInt32, ${sql.id(columnName)} String) ENGINE = Memory`,
          )
          try {
            const row = { id: 1, [columnName]: `${columnName}!` }
            await client.insert(`${quoteSqlIdentifier(database)}.${quoteSqlIdentifier(table)}`, [row])
            const back = await (
              await client.query(sql`SELECT id, ${sql.id(columnName)} FROM ${sql.id(database, table)}`)
            ).rows()
            expect(back).toEqual([row])
            const columns = await (
              await client.query(
                sql`SELECT name FROM system.columns WHERE database = ${database} AND table = ${table}`,
              )
            ).arrays()
            expect(columns.map(([name]) => name).sort()).toEqual(['id', columnName].sort())
          } finally {
            await client.command(sql`DROP TABLE IF EXISTS ${sql.id(database, table)}`)
          }
        }),
        { numRuns: runs(40) },
      )
      expect(guard.events).toEqual([])
    })
  }
})
