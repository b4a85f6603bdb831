import { describe, expect, it } from 'vitest'
import { operationOf } from './call-observer.js'

describe('operationOf', () => {
  it('names the statement by its first keyword, past comments and parentheses', () => {
    expect(operationOf({ sql: 'select 1' })).toBe('SELECT')
    expect(operationOf({ sql: '  -- why\n/* note */ (SELECT 1) UNION ALL (SELECT 2)' })).toBe('SELECT')
    expect(operationOf({ sql: 'WITH x AS (SELECT 1) SELECT * FROM x' })).toBe('WITH')
    expect(operationOf({ sql: 'ALTER TABLE t DELETE WHERE 1' })).toBe('ALTER')
    expect(operationOf({ sql: '' })).toBe('QUERY')
    expect(operationOf({ table: 'events' })).toBe('INSERT')
  })
})
