import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  bytesOf,
  checkClientPacket,
  decodeAll,
  expectTruncationsReported,
  hex,
  str,
} from '../../test/support/packets-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import { ByteReader } from '../io/byte-reader.js'
import { decodeAddendum, encodeAddendum } from './client-hello-packet.js'
import { type ClientPacket, decodeClientPacket, encodeClientPacket } from './client-packet.js'

describe('client Hello', () => {
  it('matches the Hello clickhouse-client 18.16 sends', () => {
    checkClientPacket(
      {
        type: 'Hello',
        clientName: 'ClickHouse client',
        versionMajor: 18,
        versionMinor: 16,
        revision: 54412,
        database: '',
        user: 'default',
        password: '',
      },
      0,
      '00 11436c69636b486f75736520636c69656e74 12 10 8ca903 00 0764656661756c74 00',
    )
  })

  it('announces our revision and credentials', () => {
    checkClientPacket(
      {
        type: 'Hello',
        clientName: 'clickwire',
        versionMajor: 0,
        versionMinor: 1,
        revision: 54460,
        database: 'db',
        user: 'u',
        password: 'p\u00e9',
      },
      54460,
      `00${str('clickwire')}00 01 bca903${str('db')}${str('u')}03 70c3a9`,
    )
  })

  it('refuses control characters in the database, user and password', () => {
    for (const field of ['database', 'user', 'password'] as const) {
      const hello = {
        type: 'Hello',
        clientName: 'c',
        versionMajor: 0,
        versionMinor: 0,
        revision: 54460,
        database: '',
        user: 'default',
        password: '',
        [field]: 'a\nb',
      } as const
      expect(() => bytesOf((writer) => encodeClientPacket(writer, hello, 54460))).toThrow(
        new UsageError(`the ${field} must not contain ASCII control characters`),
      )
    }
  })
})

describe('addendum', () => {
  it('is the quota key from revision 54458, nothing before', () => {
    const bytes = bytesOf((writer) => encodeAddendum(writer, { quotaKey: 'key' }, 54460))
    expect(hex(bytes)).toBe(str('key'))
    expect(decodeAll(bytes, (reader) => decodeAddendum(reader, 54460))).toEqual({
      quotaKey: 'key',
      chunkedSend: 'notchunked',
      chunkedReceive: 'notchunked',
      parallelReplicasProtocolVersion: 0,
    })
    expectTruncationsReported(bytes, (reader) => decodeAddendum(reader, 54460))
    expect(bytesOf((writer) => encodeAddendum(writer, { quotaKey: 'key' }, 54457)).length).toBe(0)
    expect(decodeAll(new Uint8Array(0), (reader) => decodeAddendum(reader, 54412))).toEqual({
      quotaKey: '',
      chunkedSend: 'notchunked',
      chunkedReceive: 'notchunked',
      parallelReplicasProtocolVersion: 0,
    })
  })
})

describe('other client packets', () => {
  const cases: [string, ClientPacket, number[], string][] = [
    ['Data (the end marker header)', { type: 'Data', table: '' }, [54412, 54460], '02 00'],
    ['Data of an external table', { type: 'Data', table: 'ext' }, [54412, 54460], `02${str('ext')}`],
    ['Cancel', { type: 'Cancel' }, [54412, 54460], '03'],
    ['Ping', { type: 'Ping' }, [54412, 54460], '04'],
    [
      'TablesStatusRequest',
      { type: 'TablesStatusRequest', tables: [{ database: 'db', table: 't' }] },
      [54412, 54460],
      `05 01${str('db')}${str('t')}`,
    ],
    ['Scalar', { type: 'Scalar', name: '_subquery1' }, [54429, 54460], `07${str('_subquery1')}`],
    [
      'IgnoredPartUUIDs',
      {
        type: 'IgnoredPartUUIDs',
        uuids: ['00000000-0000-0001-0000-000000000002', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
      },
      [54412, 54460],
      '08 02 0100000000000000 0200000000000000 ffffffffffffffff ffffffffffffffff',
    ],
    [
      'ReadTaskResponse',
      { type: 'ReadTaskResponse', version: 1, response: 'file.csv' },
      [54412, 54460],
      `09 01${str('file.csv')}`,
    ],
    ['SSHChallengeRequest', { type: 'SSHChallengeRequest' }, [54466], '0b'],
    ['SSHChallengeResponse', { type: 'SSHChallengeResponse', signature: 'sig' }, [54466], `0c${str('sig')}`],
  ]

  it.each(cases)('%s', (_name, packet, revisions, bytes) => {
    for (const revision of revisions) checkClientPacket(packet, revision, bytes)
  })

  it('refuses packets the revision does not have', () => {
    const scalar = { type: 'Scalar', name: 'x' } as const
    expect(() => bytesOf((writer) => encodeClientPacket(writer, scalar, 54412))).toThrow(
      'a Scalar packet needs revision 54429; this connection speaks 54412',
    )
    const ssh = { type: 'SSHChallengeRequest' } as const
    expect(() => bytesOf((writer) => encodeClientPacket(writer, ssh, 54460))).toThrow(UsageError)
    const status = { type: 'TablesStatusRequest', tables: [] } as const
    expect(() => bytesOf((writer) => encodeClientPacket(writer, status, 54225))).toThrow(UsageError)
    const uuids = { type: 'IgnoredPartUUIDs', uuids: ['nope'] } as const
    expect(() => bytesOf((writer) => encodeClientPacket(writer, uuids, 54460))).toThrow(UsageError)
  })

  it('has no encoder for KeepAlive, which no server handles', () => {
    const keepAlive = { type: 'KeepAlive' } as unknown as ClientPacket
    expect(() => bytesOf((writer) => encodeClientPacket(writer, keepAlive, 54460))).toThrow(UsageError)
    expect(() => decodeClientPacket(new ByteReader(Uint8Array.of(6)), 54460)).toThrow(
      new ProtocolError('unknown or unsupported client packet KeepAlive (6)'),
    )
  })

  it('rejects an absurd UUID count without allocating', () => {
    const bytes = Uint8Array.of(8, 0xff, 0xff, 0xff, 0xff, 0x0f)
    expect(() => decodeClientPacket(new ByteReader(bytes), 54460)).toThrow(ProtocolError)
  })
})

describe('decodeClientPacket', () => {
  it('meets arbitrary bytes with a packet, a short read or a ProtocolError, nothing else', () => {
    // Mostly Query packets (id 1), the richest body.
    const packet = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.uint8Array({ maxLength: 96 }).map((body) => Uint8Array.of(1, ...body)),
    )
    fc.assert(
      fc.property(packet, fc.constantFrom(54412, 54460), (bytes, revision) => {
        try {
          decodeClientPacket(new ByteReader(bytes), revision)
        } catch (error) {
          if (!ProtocolError.isInstance(error)) throw error
        }
      }),
      { numRuns: 2000 },
    )
  })
})
