import { describe, expect, it } from 'vitest'
import { checkCodec, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import { ipv6Text, parseIPv6 } from './ip-text.js'

function text(address: string): string {
  const bytes = new Uint8Array(16)
  expect(parseIPv6(address, bytes, 0)).toBe(true)
  return ipv6Text(bytes, 0)
}

describe('IPv6', () => {
  it('writes 16 bytes in network order', () => {
    // chdb: toIPv6('::'), toIPv6('::ffff:1.2.3.4'), toIPv6('2001:db8::1:0:0:1'), toIPv6('::1.2.3.4')
    checkCodec({
      type: 'IPv6',
      values: ['::', '::ffff:1.2.3.4', '2001:db8::1:0:0:1', '::1.2.3.4'],
      bytes:
        '00000000000000000000000000000000 00000000000000000000ffff01020304 ' +
        '20010db8000000000001000000000001 00000000000000000000000001020304',
    })
  })

  it('prints every form the way ClickHouse does', () => {
    // chdb: SELECT toIPv6(x) for each input.
    const printed: [string, string][] = [
      ['::1', '::1'],
      ['1::', '1::'],
      ['64:ff9b::1.2.3.4', '64:ff9b::102:304'],
      ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
      ['2001:0db8:0000:0000:0000:0000:0002:0001', '2001:db8::2:1'],
      ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
      ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
      ['1.2.3.4', '::ffff:1.2.3.4'],
      ['::fffe:1.2.3.4', '::fffe:102:304'],
      ['::ffff:0:0', '::ffff:0.0.0.0'],
      ['::0.0.0.1', '::1'],
      ['::2', '::2'],
      ['::ffff', '::ffff'],
      ['::1:0', '::0.1.0.0'],
      ['::1:2:3:4', '::1:2:3:4'],
      ['0:0:0:0:0:ffff:102:304', '::ffff:1.2.3.4'],
      ['::ABCD:0:1.2.3.4', '::abcd:0:102:304'],
      ['1:0:0:0:0:0:0:0', '1::'],
      ['0:1:0:0:0:0:0:0', '0:1::'],
    ]
    for (const [input, output] of printed) expect([input, text(input)]).toEqual([input, output])
  })

  it('accepts 16 raw bytes', () => {
    checkCodec({
      type: 'IPv6',
      values: [fromHex('20010db8000000000000000000000001')],
      decoded: ['2001:db8::1'],
    })
  })

  it('rejects malformed addresses with the row', () => {
    for (const bad of [
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      '12345::',
      'fe80::1%eth0',
      '::1.2.3',
      1,
      new Uint8Array(4),
    ]) {
      expect(() => encodeColumn('IPv6', [bad])).toThrow(/row 0: .* is not a valid IPv6/)
    }
  })
})
