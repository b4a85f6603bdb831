import { describe, expect, it } from 'vitest'
import { describeSubquery } from './describe-subquery.js'

describe('describeSubquery', () => {
  it('drops trailing comments, semicolons and a FORMAT clause, nothing else', () => {
    expect(describeSubquery('SELECT 1 -- note')).toBe('SELECT 1')
    expect(describeSubquery('SELECT 1 FORMAT Native')).toBe('SELECT 1')
    expect(describeSubquery('SELECT 1\nformat Native ; /* ) */ -- x')).toBe('SELECT 1')
    expect(describeSubquery("SELECT '-- FORMAT Native' AS s")).toBe("SELECT '-- FORMAT Native' AS s")
    expect(describeSubquery('SELECT 1 -- c\nWHERE 1;;')).toBe('SELECT 1 -- c\nWHERE 1')
    expect(describeSubquery('SELECT `format` FROM t')).toBe('SELECT `format` FROM t')
    expect(describeSubquery("SELECT 'it''s' AS format")).toBe("SELECT 'it''s' AS format")
  })
})
