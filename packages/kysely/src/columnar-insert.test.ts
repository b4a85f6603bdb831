import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { compileDb } from '../test/support/compile-fixtures.js'
import { settings } from './clickhouse-clauses.js'
import { columnarInsert } from './columnar-insert.js'
import { typed } from './typed-value.js'

const db = compileDb()

describe('columnarInsert', () => {
  it('lays plain rows out as columns', () => {
    const node = db
      .insertInto('accounts')
      .values([
        { id: 1, balance: 10, version: 1 },
        { id: 2, balance: typed(20, 'Int32'), version: 1 },
      ])
      .toOperationNode()
    expect(columnarInsert(node)).toEqual({
      table: '`accounts`',
      batches: [
        {
          columns: ['id', 'balance', 'version'],
          values: { id: [1, 2], balance: [10, 20], version: [1, 1] },
          rows: 2,
        },
      ],
      settings: {},
    })
    expect(columnarInsert(node)).toBe(columnarInsert(node))
  })

  it('groups rows by the columns they give, keeps the database, passes settings on', () => {
    const node = db
      .insertInto('analytics.hits')
      .values([
        { url: 'a', counter_id: 1, hits: 1n },
        { url: 'b', counter_id: 2 },
        { url: 'c', counter_id: 3, hits: 3n },
      ] as never)
      .$call(settings({ insert_quorum: 0, log_comment: 'x' }))
      .toOperationNode()
    expect(columnarInsert(node)).toEqual({
      table: '`analytics`.`hits`',
      batches: [
        {
          columns: ['url', 'counter_id', 'hits'],
          values: { url: ['a', 'c'], counter_id: [1, 3], hits: [1n, 3n] },
          rows: 2,
        },
        { columns: ['url', 'counter_id'], values: { url: ['b'], counter_id: [2] }, rows: 1 },
      ],
      settings: { insert_quorum: 0, log_comment: 'x' },
    })
  })

  it('leaves expressions, INSERT ... SELECT, RETURNING and other statements to SQL', () => {
    expect(
      columnarInsert(
        db.insertInto('accounts').values({ id: 1, balance: sql`1`, version: 1 }).toOperationNode(),
      ),
    ).toBeUndefined()
    expect(
      columnarInsert(
        db
          .insertInto('accounts')
          .columns(['id'])
          .expression(db.selectFrom('users').select('id'))
          .toOperationNode(),
      ),
    ).toBeUndefined()
    expect(
      columnarInsert(
        db.insertInto('accounts').values({ id: 1, balance: 1, version: 1 }).returningAll().toOperationNode(),
      ),
    ).toBeUndefined()
    expect(columnarInsert(db.selectFrom('accounts').selectAll().toOperationNode())).toBeUndefined()
    expect(
      columnarInsert(
        db
          .insertInto('accounts')
          .values({ id: 1, balance: 1, version: 1 })
          .modifyEnd(sql`-- x`)
          .toOperationNode(),
      ),
    ).toBeUndefined()
  })
})
