import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Kysely, sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import {
  arrayJoin,
  final,
  globalIn,
  globalJoin,
  limitBy,
  prewhere,
  sample,
  settings,
  withTotals,
} from '../src/index.js'
import { compileDb, type DB, modern } from './support/compile-fixtures.js'

/*
 * The forms only newer servers have (lightweight DELETE, WITH name AS (subquery), Bool and
 * DateTime64 parameters, SETTINGS on INSERT and ALTER, LIMIT m, n BY) cannot run on the 18.16
 * server of the other suites. chdb, ClickHouse 26.7 in-process (a devDependency of the
 * protocol package, the project's oracle for modern servers), runs the SQL this dialect
 * compiles for a current server, with its parameters bound server-side.
 */

interface Chdb {
  Session: new (
    path: string,
  ) => {
    queryBind(query: string, params: Record<string, unknown>, format: string): string
    query(query: string, format: string): string
    cleanup?(): void
  }
}

function loadChdb(): Chdb | undefined {
  try {
    return createRequire(new URL('../../protocol/package.json', import.meta.url))('chdb') as Chdb
  } catch {
    return undefined
  }
}

const chdb = loadChdb()

describe.runIf(chdb)('SQL compiled for a current server, on ClickHouse 26.7 (chdb)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'clickwire-kysely-chdb-'))
  const session = new chdb!.Session(folder)
  const db = compileDb(modern) as unknown as Kysely<DB & { flags: { id: number; ok: boolean; at: string } }>

  afterAll(() => {
    session.cleanup?.()
    rmSync(folder, { recursive: true, force: true })
  })

  function run(query: {
    compile(): { sql: string; parameters: readonly unknown[] }
  }): Record<string, unknown>[] {
    const { sql: text, parameters } = query.compile()
    const params = Object.fromEntries(parameters.map((value, index) => [`p${index}`, value]))
    const out = session.queryBind(text, params, 'JSONEachRow').trim()
    return out === '' ? [] : out.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
  }

  it('creates tables with the mapped types and the default engine, inserts, updates and deletes', () => {
    run(db.schema.dropTable('flags').ifExists())
    run(
      db.schema
        .createTable('flags')
        .addColumn('id', 'integer', (col) => col.primaryKey())
        .addColumn('ok', 'boolean')
        .addColumn('at', 'timestamp(3)'),
    )
    expect(
      session.query("SELECT name, type FROM system.columns WHERE table = 'flags' ORDER BY position", 'CSV'),
    ).toBe('"id","Int32"\n"ok","Bool"\n"at","DateTime64(3)"\n')
    run(
      db
        .insertInto('flags')
        .values([
          { id: 1, ok: true, at: sql`now64(3)` },
          { id: 2, ok: false, at: sql`now64(3)` },
          { id: 3, ok: true, at: sql`now64(3)` },
        ])
        .$call(settings({ max_insert_threads: 1 })),
    )
    run(
      db
        .updateTable('flags')
        .set({ ok: false })
        .where('id', '=', 1)
        .$call(settings({ mutations_sync: 2 })),
    )
    const deletion = db.deleteFrom('flags').where('ok', '=', false).where('id', '>', 1)
    expect(deletion.compile().sql).toBe('delete from `flags` where `ok` = {p0:Bool} and `id` > {p1:Int64}')
    run(deletion)
    expect(run(db.selectFrom('flags').select(['id', 'ok']).orderBy('id'))).toEqual([
      { id: 1, ok: false },
      { id: 3, ok: true },
    ])
  })

  it('runs named subqueries, LIMIT m, n BY and the clauses', () => {
    run(db.schema.dropTable('events').ifExists())
    run(
      db.schema
        .createTable('events')
        .addColumn('user_id', sql`UInt32`)
        .addColumn('kind', 'text')
        .addColumn('value', 'float8')
        .addColumn('props', sql`Array(String)`)
        .modifyEnd(
          sql`engine = ReplacingMergeTree order by (user_id, kind, intHash32(user_id)) sample by intHash32(user_id)`,
        ),
    )
    run(
      db.insertInto('events').values([
        { user_id: 1, kind: 'view', value: 1, props: ['a', 'b'] },
        { user_id: 1, kind: 'buy', value: 10, props: ['c'] },
        { user_id: 2, kind: 'view', value: 3, props: [] },
      ] as never),
    )
    const cte = db
      .with('buyers', (qb) => qb.selectFrom('events').select('user_id').where('kind', '=', 'buy'))
      .selectFrom('events')
      .select(['kind'])
      .where('user_id', 'in', (eb) => eb.selectFrom('buyers').select('user_id'))
      .orderBy('kind')
    expect(cte.compile().sql).toMatch(/^with `buyers` as \(select/)
    expect(run(cte)).toEqual([{ kind: 'buy' }, { kind: 'view' }])
    expect(
      run(
        db
          .selectFrom('events')
          .select(['user_id', 'value'])
          .orderBy('value')
          .$call(limitBy(1, 'user_id', { offset: 1 })),
      ),
    ).toEqual([{ user_id: 1, value: 10 }])
    const everything = db
      .selectFrom('events as e')
      .$call(final())
      .$call(sample(1))
      .$call(arrayJoin('e.props', 'prop'))
      .innerJoin(
        db.selectFrom('events').select('user_id as uid').where('kind', '=', 'buy').as('b'),
        'b.uid',
        'e.user_id',
      )
      .$call(globalJoin())
      .$call(prewhere('e.value', '>', 0))
      .select((eb) => ['prop', eb.fn.countAll<number>().as('n')])
      .where('e.user_id', globalIn, [1, 2])
      .where('e.kind', globalIn, db.selectNoFrom(sql<string>`'view'`.as('k')))
      .groupBy('prop')
      .$call(withTotals())
      .orderBy('prop')
      .$call(settings({ max_threads: 1 }))
    expect(everything.compile().sql).toContain(
      ' final sample 1 array join `e`.`props` as `prop` global inner join ',
    )
    expect(run(everything)).toEqual([
      { prop: 'a', n: 1 },
      { prop: 'b', n: 1 },
    ])
  })
})
