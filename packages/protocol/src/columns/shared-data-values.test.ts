// Values Dynamic's shared variant and JSON's shared data keep as binary type + RowBinary:
// the type codes 26.7 adds (Time64 0x34, QBit 0x36) and JSON values (0x30), in the
// structure versions a 26.7 server sends (V1 at revision 0, V2 from revision 54473).
import { describe, expect, it } from 'vitest'
import {
  decodeColumn,
  encodeColumn,
  expectTruncationsReported,
  fromHex,
} from '../../test/support/codec-checks.js'

// SELECT arrayJoin([toTime64('01:02:03.004', 3)::Dynamic(max_types=0),
//   CAST('{"a":1,"b":{"c":[{"d":"x"}]}}'::JSON(a UInt8) AS Dynamic(max_types=0)),
//   CAST([1.5, -2]::QBit(Float32, 2) AS Dynamic(max_types=0))])  -- FORMAT Native, 26.7
const dynamicShared =
  '0100000000000000 00 00 0000000000000000 000000' +
  '0a 3403 fcce380000000000' +
  '23 3000800820010161010000 02 016101 03622e63 1e30008002100000 00 01 01 0164 150178' +
  '0c 360d02 02 0000c03f 000000c0'

// SELECT CAST('{"a":1,"b":[{"c":"x"}]}' AS JSON(max_dynamic_paths=0)): every path in shared data.
const sharedData =
  '00 0200000000000000 0161 0162 09 0a01000000000000 00 0f 1e30000010000000 01 01 0163 150178'
const jsonV1 = `0000000000000000 00 ${sharedData}`
// The same with client_protocol_version=54488: V2 has no max_dynamic_paths field.
const jsonV2 = `0200000000000000 ${sharedData}`

describe('shared variant and shared data values', () => {
  it('reads Time64, JSON and QBit values from the shared variant', () => {
    const bytes = fromHex(dynamicShared)
    const column = decodeColumn('Dynamic(max_types=0)', bytes, 3)
    expect(column.values()).toEqual(['01:02:03.004', { a: 1, b: { c: [{ d: 'x' }] } }, [1.5, -2]])
    expectTruncationsReported('Dynamic(max_types=0)', bytes, 3)
  })

  it('reads JSON shared data holding Array(JSON), in V1 and V2', () => {
    for (const text of [jsonV1, jsonV2]) {
      const bytes = fromHex(text)
      const column = decodeColumn('JSON(max_dynamic_paths=0)', bytes, 1)
      expect(column.values()).toEqual([{ a: 1n, b: [{ c: 'x' }] }])
      expectTruncationsReported('JSON(max_dynamic_paths=0)', bytes, 1)
    }
  })

  it('reads zero rows of both', () => {
    for (const type of ['Dynamic(max_types=0)', 'JSON(max_dynamic_paths=0)'])
      expect(decodeColumn(type, encodeColumn(type, []), 0).length).toBe(0)
  })
})
