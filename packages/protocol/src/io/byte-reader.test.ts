import { describe, expect, it } from 'vitest'
import { ClickHouseError } from '../errors/clickhouse-error.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { exceptionCodec } from '../packets/exception-packet.js'
import { decodeServerPacket } from '../packets/server-packet.js'
import { ByteReader } from './byte-reader.js'
import { ByteWriter } from './byte-writer.js'

describe('ByteReader', () => {
  it('reads little-endian values and VarUInts', () => {
    const reader = new ByteReader(
      Uint8Array.of(0x01, 0x02, 0x03, 0x04, 0xac, 0x02, 0x05, 0x61, 0x62, 0x63, 0x64, 0x65),
    )
    expect(reader.u16()).toBe(0x0201)
    expect(reader.u16()).toBe(0x0403)
    expect(reader.varUInt()).toBe(300)
    expect(reader.string()).toBe('abcde')
    expect(reader.missing).toBe(0)
    expect(reader.remaining).toBe(0)
  })

  it('records how far the input must reach and stops reading after a short read', () => {
    const reader = new ByteReader(Uint8Array.of(1, 2, 3), 0, 3)
    expect(reader.u32()).toBe(0)
    expect(reader.missing).toBe(4)
    expect(reader.offset).toBe(3)
    // Later reads of the same attempt do not parse bytes out of place.
    expect(reader.u8()).toBe(0)
    expect(reader.missing).toBe(4)
  })

  it('reports the true end of a packet whose fixed-width field was cut', () => {
    const writer = new ByteWriter()
    exceptionCodec.encode(
      writer,
      { error: new ClickHouseError({ code: 60, type: 'DB::Exception', message: 'no table' }) },
      54412,
    )
    const bytes = writer.copy()
    for (let cut = 0; cut < bytes.length; cut++) {
      const reader = new ByteReader(bytes, 0, cut)
      expect(decodeServerPacket(reader, 54412)).toBeUndefined()
      expect(reader.missing, `cut at ${cut}`).toBeGreaterThan(cut)
      expect(reader.missing, `cut at ${cut}`).toBeLessThanOrEqual(bytes.length)
    }
  })

  it('rejects an overlong VarUInt and an impossible length', () => {
    expect(() => new ByteReader(new Uint8Array(11).fill(0xff)).varUInt()).toThrow(ProtocolError)
    expect(() => new ByteReader(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f)).length()).toThrow(/larger than/)
  })
})
