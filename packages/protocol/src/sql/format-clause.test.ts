import { describe, expect, it } from 'vitest'
import { UsageError } from '../errors/usage-error.js'
import { checkQueryFormat, findFormatClause, subqueryText } from './format-clause.js'

const formatOf = (sql: string) => findFormatClause(sql)?.format

describe('the FORMAT clause of a statement', () => {
  it('is found at the end of the statement, with SETTINGS, semicolons and comments after it', () => {
    expect(formatOf('SELECT 1 FORMAT JSON')).toBe('JSON')
    expect(formatOf('select 1 format JSONEachRow')).toBe('JSONEachRow')
    expect(formatOf('SELECT 1 FORMAT JSON SETTINGS max_threads = 1')).toBe('JSON')
    expect(formatOf('SELECT 1 SETTINGS max_threads = 1 FORMAT CSV')).toBe('CSV')
    expect(formatOf('SELECT 1 FORMAT TSV;')).toBe('TSV')
    expect(formatOf('SELECT 1 FORMAT TSV ; ;')).toBe('TSV')
    expect(formatOf('SELECT 1 FORMAT TSV -- trailing comment')).toBe('TSV')
    expect(formatOf('SELECT 1 FORMAT TSV; -- trailing comment\n')).toBe('TSV')
    expect(formatOf('SELECT 1 FORMAT /* between */ Pretty')).toBe('Pretty')
    expect(formatOf('SELECT 1 FORMAT `JSON`')).toBe('JSON')
    expect(formatOf('SELECT 1 AS format FORMAT JSON')).toBe('JSON')
    expect(formatOf('SELECT format FROM t FORMAT JSON')).toBe('JSON')
    expect(formatOf("SELECT 1 INTO OUTFILE 'x.csv' FORMAT CSV")).toBe('CSV')
    expect(findFormatClause('SELECT 1 FORMAT JSON')).toEqual({ format: 'JSON', start: 9, end: 20 })
  })

  it('is not found in strings, comments, subqueries, or where format is a name', () => {
    for (const sql of [
      'SELECT 1',
      "SELECT 'FORMAT JSON'",
      "SELECT 1 AS x, 'a FORMAT JSON' AS s",
      'SELECT 1 -- FORMAT JSON',
      'SELECT 1 /* FORMAT JSON */',
      'SELECT 1 # FORMAT JSON',
      'SELECT * FROM (SELECT 1 FORMAT JSON)',
      'SELECT 1 AS format',
      'SELECT 1 format',
      'SELECT format FROM t',
      'SELECT format FROM t SETTINGS max_threads = 1',
      'SELECT t.format FROM t',
      "SELECT format('{} {}', 'a', 'b')",
      'SELECT * FROM t WHERE format = 1',
      'SELECT `FORMAT JSON` FROM t',
      'SELECT "format" FROM t',
      'SELECT 1 FORMAT',
      "SELECT 'unclosed FORMAT JSON",
      'WITH format AS (SELECT 1) SELECT * FROM format',
    ]) {
      expect(findFormatClause(sql), sql).toBeUndefined()
    }
  })
})

describe('checkQueryFormat', () => {
  it('refuses output formats other than Native, naming queryRaw', () => {
    expect(() => checkQueryFormat('SELECT 1 FORMAT JSON SETTINGS x = 1')).toThrow(
      new UsageError(
        "query() reads the rows itself and cannot return FORMAT JSON output: run the statement without its FORMAT clause through queryRaw(sql, { format: 'JSON' }), which returns the bytes of any format",
      ),
    )
    expect(() => checkQueryFormat('SHOW TABLES FORMAT TSV;')).toThrow(UsageError)
    expect(() => checkQueryFormat('SELECT 1 FORMAT CSV -- why')).toThrow(/FORMAT CSV/)
  })

  it('accepts FORMAT Native, no FORMAT clause, and INSERT statements', () => {
    for (const sql of [
      'SELECT 1 FORMAT Native',
      'SELECT 1 format native;',
      "SELECT 'FORMAT JSON' AS s",
      'SELECT 1 AS format',
      'INSERT INTO t FORMAT JSONEachRow',
      '/* c */ insert into t format CSV',
    ]) {
      expect(() => checkQueryFormat(sql), sql).not.toThrow()
    }
  })
})

describe('subqueryText', () => {
  it('drops trailing comments, semicolons and a FORMAT clause, nothing else', () => {
    expect(subqueryText('SELECT 1 -- note')).toBe('SELECT 1')
    expect(subqueryText('SELECT 1 FORMAT Native')).toBe('SELECT 1')
    expect(subqueryText('SELECT 1\nformat Native ; /* ) */ -- x')).toBe('SELECT 1')
    expect(subqueryText("SELECT '-- FORMAT Native' AS s")).toBe("SELECT '-- FORMAT Native' AS s")
    expect(subqueryText('SELECT 1 -- c\nWHERE 1;;')).toBe('SELECT 1 -- c\nWHERE 1')
    expect(subqueryText('SELECT `format` FROM t')).toBe('SELECT `format` FROM t')
    expect(subqueryText("SELECT 'it''s' AS format")).toBe("SELECT 'it''s' AS format")
    expect(subqueryText('SELECT 1 FORMAT Native SETTINGS max_threads = 1')).toBe(
      'SELECT 1  SETTINGS max_threads = 1',
    )
  })
})
