import { describe, expect, it } from 'vitest'
import { firstKeyword, isReadOnlyStatement } from './statement-kind.js'

describe('statement kinds', () => {
  it('finds the first keyword past comments and parentheses', () => {
    expect(firstKeyword('  -- note\n /* block */ (select 1)')).toBe('SELECT')
    expect(firstKeyword('# hash comment\nWITH 1 AS x SELECT x')).toBe('WITH')
    expect(firstKeyword('')).toBe('')
  })

  it('retries only statements that read', () => {
    for (const sql of [
      'SELECT 1',
      'with x as (select 1) select * from x',
      'SHOW TABLES',
      'DESCRIBE TABLE t',
      'DESC t',
      'EXISTS t',
      'EXPLAIN SELECT 1',
    ]) {
      expect(isReadOnlyStatement(sql), sql).toBe(true)
    }
    for (const sql of [
      'INSERT INTO t VALUES (1)',
      'CREATE TABLE t (x UInt8) ENGINE = Memory',
      'ALTER TABLE t DELETE WHERE 1',
      'KILL QUERY WHERE 1',
      'OPTIMIZE TABLE t',
      'SYSTEM FLUSH LOGS',
      'DROP TABLE t',
      'SET x = 1',
    ]) {
      expect(isReadOnlyStatement(sql), sql).toBe(false)
    }
  })
})
