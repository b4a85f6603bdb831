import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { typed } from '../src/index.js'
import { kyselyFor, transports } from './support/transports.js'

/*
 * Hostile text as values and as names must arrive unchanged: values travel as typed
 * parameters (sent to the server or substituted by the client as escaped literals), names are
 * backquoted with backslash escapes. Nothing may end a string, a name or the statement early.
 */

const values = [
  "it's",
  'double " quote',
  'back\\slash',
  'trailing backslash \\',
  "\\'",
  "'); DROP TABLE victims; --",
  'NUL \u0000 inside',
  'new\nline\r\n',
  'tab\there',
  '`backtick`',
  '{p0:String}',
  '$1 ? :name @x',
  'unicode ü € 😀 ∑ 日本語',
  '\u007f\u0001\u001f\b\f',
  '\\x41\\0\\n',
  '',
]

const names = [
  "it's",
  'back\\slash',
  '`tick`',
  'NUL\u0000x',
  'new\nline',
  'tab\tx',
  'ü € 😀 日本',
  'sp ace',
  '"dq"',
  '{p0:String}',
  '); DROP TABLE victims; --',
]

const tableName = "we`ird \\ 'table'\n😀"

type Victims = { victims: { id: number; text: string; list: string[] } }
type Weird = Record<string, Record<string, string | number>>

describe.each(transports)('injection over %s', (transport) => {
  let db: Kysely<Victims>
  const database = `kysely_injection_${transport}`

  beforeAll(async () => {
    const admin = kyselyFor(transport)
    await admin.schema.dropSchema(database).ifExists().execute()
    await admin.schema.createSchema(database).execute()
    await admin.destroy()
    db = kyselyFor<Victims>(transport, { waitForMutations: true }, { client: { database } })
    await db.schema
      .createTable('victims')
      .addColumn('id', sql`UInt32`, (col) => col.primaryKey())
      .addColumn('text', 'text')
      .addColumn('list', sql`Array(String)`)
      .execute()
  })

  afterAll(async () => {
    await db?.destroy()
  })

  it('values round-trip through the columnar insert, the SQL insert, WHERE, literals and mutations', async () => {
    await db
      .insertInto('victims')
      .values(values.map((text, id) => ({ id, text, list: [text, ...values] })))
      .execute()
    // An expression in each row sends these through INSERT ... SELECT with placeholders.
    await db
      .insertInto('victims')
      .values(values.map((text, id) => ({ id: sql<number>`${id + 100} + 0`, text, list: [text] })))
      .execute()
    const rows = await db.selectFrom('victims').select(['id', 'text', 'list']).orderBy('id').execute()
    expect(rows).toEqual([
      ...values.map((text, id) => ({ id, text, list: [text, ...values] })),
      ...values.map((text, id) => ({ id: id + 100, text, list: [text] })),
    ])
    for (const [index, text] of values.entries()) {
      expect(
        await db.selectFrom('victims').select('id').where('text', '=', text).orderBy('id').execute(),
      ).toEqual([{ id: index }, { id: index + 100 }])
      const [echo] = await db
        .selectNoFrom([
          sql.lit(text).as('literal'),
          sql<string>`${text}`.as('parameter'),
          typed(text, 'String').as('typed'),
          sql.val([text, text]).as('array'),
        ])
        .execute()
      expect(echo).toEqual({ literal: text, parameter: text, typed: text, array: [text, text] })
      expect(
        await db
          .selectFrom('victims')
          .select('id')
          .where('list', '=', sql.val([text]))
          .execute(),
      ).toEqual([{ id: index + 100 }])
    }
    await db.updateTable('victims').set({ text: values[5]! }).where('text', '=', values[0]!).execute()
    expect(
      await db.selectFrom('victims').select('id').where('text', '=', values[5]!).orderBy('id').execute(),
    ).toEqual([{ id: 0 }, { id: 5 }, { id: 100 }, { id: 105 }])
    const [count] = await db
      .selectFrom('victims')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .execute()
    expect(count).toEqual({ n: BigInt(values.length * 2) })
  })

  it('names round-trip as tables, columns and aliases', async () => {
    const weird = db as unknown as Kysely<Weird>
    await weird.schema.dropTable(tableName).ifExists().execute()
    let create = weird.schema.createTable(tableName).addColumn('id', sql`UInt32`, (col) => col.primaryKey())
    for (const name of names) create = create.addColumn(name, 'text')
    await create.execute()
    const row = Object.fromEntries([['id', 1], ...names.map((name) => [name, `value of ${name}`])])
    await weird.insertInto(tableName).values(row).execute()
    await weird
      .insertInto(tableName)
      .values({ ...row, id: sql<number>`2` })
      .execute()
    expect(await weird.selectFrom(tableName).selectAll().orderBy('id').execute()).toEqual([
      row,
      { ...row, id: 2 },
    ])
    for (const name of names) {
      const query = weird
        .selectFrom(`${tableName} as t`)
        .select((eb) => [eb.ref(`t.${name}`).as(name), eb.ref('t.id').as(`${name} id`)])
        .where(name, '=', `value of ${name}`)
        .orderBy('id')
      expect(await query.execute()).toEqual([
        { [name]: `value of ${name}`, [`${name} id`]: 1 },
        { [name]: `value of ${name}`, [`${name} id`]: 2 },
      ])
    }
    await weird
      .updateTable(tableName)
      .set({ [names[0]!]: names[1]! })
      .where('id', '=', 2)
      .execute()
    expect(await weird.selectFrom(tableName).select(names[0]!).where('id', '=', 2).execute()).toEqual([
      { [names[0]!]: names[1]! },
    ])
    const tables = await weird.introspection.getTables()
    const table = tables.find((candidate) => candidate.name === tableName)
    expect(table?.columns.map((column) => column.name)).toEqual(['id', ...names])
    await weird.schema.dropTable(tableName).execute()
    expect((await weird.introspection.getTables()).map((candidate) => candidate.name)).toEqual(['victims'])
  })
})
