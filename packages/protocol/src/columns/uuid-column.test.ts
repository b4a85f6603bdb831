import { describe, expect, it } from 'vitest'
import { checkCodec, encodeColumn } from '../../test/support/codec-checks.js'

describe('UUID', () => {
  it('writes two UInt64 halves, each byte-reversed: nil, max and a v1 UUID as ClickHouse does', () => {
    // chdb: toUUID('00000000-...'), toUUID('ffffffff-...'), toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0')
    checkCodec({
      type: 'UUID',
      values: [
        '00000000-0000-0000-0000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        '61f0c404-5cb3-11e7-907b-a6006ad3dba0',
      ],
      bytes:
        '00000000000000000000000000000000 ffffffffffffffffffffffffffffffff e711b35c04c4f061a0dbd36a00a67b90',
    })
  })

  it('accepts upper case, no dashes and braces, and prints lowercase', () => {
    checkCodec({
      type: 'UUID',
      values: [
        '61F0C404-5CB3-11E7-907B-A6006AD3DBA0',
        '61f0c4045cb311e7907ba6006ad3dba0',
        '{61f0c404-5cb3-11e7-907b-a6006ad3dba0}',
      ],
      decoded: new Array(3).fill('61f0c404-5cb3-11e7-907b-a6006ad3dba0'),
    })
  })

  it('rejects anything else with the row', () => {
    expect(() => encodeColumn('UUID', ['61f0c404-5cb3-11e7-907b-a6006ad3dba'])).toThrow(
      /row 0: .* is not a valid UUID/,
    )
    expect(() => encodeColumn('UUID', [123])).toThrow(/row 0: 123 is not a valid UUID/)
  })
})
