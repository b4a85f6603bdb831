import { describe, expect, it } from 'vitest'
import { UsageError } from '../errors/usage-error.js'
import { requirePlaceholderValues } from './parameter-binding.js'

describe('requirePlaceholderValues', () => {
  it('names the first placeholder of a query sent without params, with its type', () => {
    expect(() => requirePlaceholderValues('SELECT {a:UInt8}, {b:String}')).toThrow(
      new UsageError('no value for placeholder {a:UInt8} at offset 7'),
    )
  })

  it('lets through queries without placeholders: braces in strings, comments, maps and bad types', () => {
    for (const sql of [
      'SELECT 1',
      "SELECT '{a:UInt8}'",
      'SELECT 1 -- {a:UInt8}',
      "SELECT map('k', 1) AS m, {'k': 1}",
      'SELECT {a:NoSuchType(}',
      'INSERT INTO t FORMAT JSONEachRow {"id": 1, "name": "x"}',
      'INSERT INTO t FORMAT JSONEachRow {"a":"UInt8"}',
    ]) {
      expect(() => requirePlaceholderValues(sql), sql).not.toThrow()
    }
  })
})
