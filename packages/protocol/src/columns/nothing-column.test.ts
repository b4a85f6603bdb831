import { describe, expect, it } from 'vitest'
import { checkCodec, encodeColumn } from '../../test/support/codec-checks.js'

describe('Nothing', () => {
  it("writes the byte '0' per row, as ClickHouse writes it, and reads nulls", () => {
    // chdb: SELECT NULL is Nullable(Nothing): null map 01, then the Nothing byte 30.
    checkCodec({ type: 'Nothing', values: [null, null], bytes: '30 30' })
    checkCodec({ type: 'Nothing', values: [undefined], decoded: [null], bytes: '30' })
  })

  it('rejects any value', () => {
    expect(() => encodeColumn('Nothing', [0])).toThrow(/row 0: 0 is not a valid Nothing/)
  })
})
