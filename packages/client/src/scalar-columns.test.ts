import { describe, expect, it } from 'vitest'
import { rowsHoldNoViews } from './scalar-columns.js'

describe('rowsHoldNoViews', () => {
  it('takes scalar types, wrapped or with arguments', () => {
    expect(
      rowsHoldNoViews([
        'UInt64',
        'Nullable(String)',
        'LowCardinality(Nullable(String))',
        "DateTime64(3, 'Europe/Berlin')",
        'Decimal(38, 10)',
        "Enum8('a(' = 1, 'b' = 2)",
        'FixedString(16)',
        'UUID',
      ]),
    ).toBe(true)
  })

  it('refuses any column whose row values can be views or hold them', () => {
    for (const type of [
      'Array(UInt32)',
      'Tuple(UInt8, String)',
      'Map(String, UInt64)',
      'Nullable(Array(UInt8))',
      'Dynamic',
      'JSON',
      'Variant(UInt8, String)',
      'AggregateFunction(uniq, UInt64)',
      'Point',
      'Nested(a UInt8)',
    ])
      expect(rowsHoldNoViews(['UInt8', type]), type).toBe(false)
  })
})
