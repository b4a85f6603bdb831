import { describe, expect, it } from 'vitest'
import { columnDefaultExpressionOf, columnDefaultKindOf, tableKindOf } from './schema-metadata.js'

describe('tableKindOf', () => {
  it('reads views, dictionaries and the engines that refuse writes as read-only', () => {
    for (const engine of ['View', 'MaterializedView', 'LiveView', 'WindowView', 'Dictionary'])
      expect(tableKindOf(engine)).toBe('view')
    // 26.7: "Method write is not supported by storage Merge" (and GenerateRandom).
    expect(tableKindOf('Merge')).toBe('view')
    expect(tableKindOf('GenerateRandom')).toBe('view')
  })

  it('reads the engines an INSERT goes through as tables', () => {
    for (const engine of [
      'MergeTree',
      'ReplacingMergeTree',
      'Memory',
      'Log',
      'Buffer',
      'Distributed',
      'Null',
      'Proxy',
    ])
      expect(tableKindOf(engine)).toBe('table')
  })
})

describe('columnDefaultExpressionOf', () => {
  it('drops the expression 26.x fills in for an EPHEMERAL column declared without one', () => {
    expect(columnDefaultExpressionOf('EPHEMERAL', "defaultValueOfTypeName('String')")).toBe('')
    expect(columnDefaultExpressionOf('EPHEMERAL', "defaultValueOfTypeName('DateTime(\\'UTC\\')')")).toBe('')
  })

  it('keeps every expression someone wrote', () => {
    expect(columnDefaultExpressionOf('EPHEMERAL', "'x'")).toBe("'x'")
    expect(columnDefaultExpressionOf('EPHEMERAL', 'now()')).toBe('now()')
    expect(columnDefaultExpressionOf('DEFAULT', "defaultValueOfTypeName('String')")).toBe(
      "defaultValueOfTypeName('String')",
    )
    expect(columnDefaultExpressionOf('', '')).toBe('')
  })
})

describe('columnDefaultKindOf', () => {
  it('reads the known kinds and takes an unknown one as computed', () => {
    expect(columnDefaultKindOf('EPHEMERAL')).toBe('EPHEMERAL')
    expect(columnDefaultKindOf('')).toBe('')
    expect(columnDefaultKindOf('SOMETHING_NEW')).toBe('MATERIALIZED')
  })
})
