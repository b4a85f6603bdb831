import { describe, expect, it } from 'vitest'
import { checkCodec } from '../../test/support/codec-checks.js'

describe('Nested', () => {
  it('is Array(Tuple(...)) on the wire, rows of objects (bytes from ClickHouse)', () => {
    // chdb: SELECT [(1,'a'),(2,'b')]::Nested(x UInt8, y String)
    const column = checkCodec({
      type: 'Nested(x UInt8, y String)',
      values: [
        [
          { x: 1, y: 'a' },
          { x: 2, y: 'b' },
        ],
      ],
      bytes: '0200000000000000 0102 0161 0162',
    })
    expect(column.type.name).toBe('Nested')
  })

  it('handles empty rows and nested arrays', () => {
    checkCodec({ type: 'Nested(a Array(UInt8), b Nullable(String))', values: [[], [{ a: [1], b: null }]] })
  })
})
