import { describe, expect, it } from 'vitest'
import { checkCodec, encodeColumn, fromHex } from '../../test/support/codec-checks.js'

describe('IPv4', () => {
  it('writes the address as a little-endian UInt32', () => {
    // chdb: toIPv4('0.0.0.0'), toIPv4('255.255.255.255'), toIPv4('1.2.3.4')
    checkCodec({
      type: 'IPv4',
      values: ['0.0.0.0', '255.255.255.255', '1.2.3.4'],
      bytes: '00000000 ffffffff 04030201',
    })
  })

  it('accepts UInt32 numbers and a Uint32Array as is', () => {
    checkCodec({ type: 'IPv4', values: [0x01020304], decoded: ['1.2.3.4'], bytes: '04030201' })
    expect(encodeColumn('IPv4', new Uint32Array([0x01020304]))).toEqual(fromHex('04030201'))
  })

  it('rejects malformed addresses with the row', () => {
    for (const bad of ['256.0.0.1', '1.2.3', '1.2.3.4.5', ' ', -1, 2 ** 32, '::1']) {
      expect(() => encodeColumn('IPv4', [bad])).toThrow(/row 0: .* is not a valid IPv4/)
    }
  })
})
