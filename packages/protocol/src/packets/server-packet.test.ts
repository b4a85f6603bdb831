import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bytesOf, checkServerPacket, fromHex, hex, str } from '../../test/support/packets-checks.js'
import { ClickHouseError } from '../errors/clickhouse-error.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import { ByteReader } from '../io/byte-reader.js'
import { exceptionCodec } from './exception-packet.js'
import { clientRevision } from './protocol-revision.js'
import { negotiatedRevision, type ServerHelloPacket } from './server-hello-packet.js'
import { decodeServerPacket, encodeServerPacket, type ServerPacket } from './server-packet.js'

// Captured from clickhouse-server 18.16.1 (revision 54412) answering clickhouse-client 18.16.1
// for `SELECT 1` with compression on: Hello, Pong, Data (header), Data (1 row), ProfileInfo,
// Progress, Data (empty), EndOfStream. Block bodies are compressed frames.
const select1From1816 =
  '000a436c69636b486f75736512108ca903074574632f55544302766d01' +
  '04' +
  '0100e80245bd3f7a43eb3fdfb7156dba82af821d00000012000000f003010002ffffffff00010001310555496e7438' +
  '0100d6e8cdd01d16290aa1292d4d15712d67821e00000013000000f004010002ffffffff00010101310555496e743801' +
  '06010109000001' +
  '03010100' +
  '0100a783ac6cd55c7a7cb5ac46bddb86e21482140000000a000000a0010002ffffffff000000' +
  '05'

const hello1816: ServerHelloPacket = {
  type: 'Hello',
  name: 'ClickHouse',
  versionMajor: 18,
  versionMinor: 16,
  revision: 54412,
  timezone: 'Etc/UTC',
  displayName: 'vm',
  versionPatch: 1,
  passwordComplexityRules: [],
  nonce: undefined,
  chunkedSend: '',
  chunkedReceive: '',
  parallelReplicasProtocolVersion: 0,
  settings: [],
  queryPlanSerializationVersion: 0,
  clusterFunctionProtocolVersion: 0,
}

describe('server Hello', () => {
  it('decodes the 18.16 Hello, gated on the revision it announces', () => {
    checkServerPacket(hello1816, clientRevision, '000a436c69636b486f75736512108ca903074574632f55544302766d01')
    expect(negotiatedRevision(clientRevision, hello1816.revision)).toBe(54412)
  })

  it('has the same fields up to revision 54460, whatever the server announces', () => {
    const modern: ServerHelloPacket = {
      ...hello1816,
      versionMajor: 24,
      versionMinor: 8,
      revision: 54472,
      versionPatch: 3,
    }
    checkServerPacket(
      modern,
      54460,
      '00' + str('ClickHouse') + '18 08 c8a903' + str('Etc/UTC') + str('vm') + '03',
    )
  })

  it('adds password rules (54461) and the nonce (54462)', () => {
    const hello: ServerHelloPacket = {
      ...hello1816,
      revision: 54462,
      passwordComplexityRules: [{ pattern: '.{12}', message: 'be longer' }],
      nonce: 0x0102030405060708n,
    }
    checkServerPacket(
      hello,
      54462,
      '00' +
        str('ClickHouse') +
        '1210bea903' +
        str('Etc/UTC') +
        str('vm') +
        '01' +
        '01' +
        str('.{12}') +
        str('be longer') +
        '0807060504030201',
    )
  })

  it('reports the revision as the patch number below 54401, as clickhouse-client does', () => {
    const old = fromHex('00' + str('ClickHouse') + '01 01 b8a803' + str('UTC') + str('x'))
    const packet = decodeServerPacket(new ByteReader(old), clientRevision) as ServerHelloPacket
    expect(packet.revision).toBe(54328)
    expect(packet.versionPatch).toBe(54328)
    expect(packet.displayName).toBe('')
  })
})

describe('block headers', () => {
  it.each([
    ['Data', '01'],
    ['Totals', '07'],
    ['Extremes', '08'],
    ['Log', '0a'],
    ['ProfileEvents', '0e'],
  ] as const)('%s carries the table name', (type, id) => {
    for (const revision of type === 'ProfileEvents' ? [54460] : [54412, 54460]) {
      checkServerPacket({ type, table: '' }, revision, `${id}00`)
      checkServerPacket({ type, table: 'ext' }, revision, id + str('ext'))
    }
  })

  it('refuses a block packet the revision does not have', () => {
    expect(() =>
      bytesOf((writer) => encodeServerPacket(writer, { type: 'ProfileEvents', table: '' }, 54412)),
    ).toThrow(UsageError)
  })
})

describe('Progress', () => {
  const progress = {
    type: 'Progress',
    rows: 1,
    bytes: 300,
    totalRows: 0,
    totalBytes: 0,
    writtenRows: 0,
    writtenBytes: 0,
    elapsedNs: 0,
  } as const

  it('has rows, bytes and total rows at 54412 (as 18.16 sent it)', () => {
    checkServerPacket({ ...progress, bytes: 1 }, 54412, '03 01 01 00')
  })

  it('adds written rows and bytes (54420) and elapsed nanoseconds (54460)', () => {
    checkServerPacket(
      { ...progress, writtenRows: 5, writtenBytes: 40, elapsedNs: 1_000_000 },
      54460,
      '03 01 ac02 00 05 28 c0843d',
    )
  })

  it('matches the ch-go golden Progress of revision 54460', () => {
    checkServerPacket(
      { ...progress, rows: 100, bytes: 608_120, totalRows: 1000, writtenRows: 441, writtenBytes: 91_023 },
      54460,
      '03 64f88e25e807b9038fc70500',
    )
  })

  it('puts total bytes (54463) before the written counters', () => {
    checkServerPacket(
      { ...progress, totalBytes: 7, writtenRows: 5, writtenBytes: 40, elapsedNs: 1 },
      54463,
      '03 01 ac02 00 07 05 28 01',
    )
  })
})

describe('ProfileInfo', () => {
  const info = {
    type: 'ProfileInfo',
    rows: 1,
    blocks: 1,
    bytes: 9,
    appliedLimit: false,
    rowsBeforeLimit: 0,
    calculatedRowsBeforeLimit: true,
    appliedAggregation: false,
    rowsBeforeAggregation: 0,
  } as const

  it('is the same at 54412 (as 18.16 sent it) and 54460', () => {
    checkServerPacket(info, 54412, '06 01 01 09 00 00 01')
    checkServerPacket({ ...info, appliedLimit: true, rowsBeforeLimit: 1000 }, 54460, '06 01 01 09 01 e807 01')
  })

  it('adds rows before aggregation at 54469', () => {
    checkServerPacket(
      { ...info, appliedAggregation: true, rowsBeforeAggregation: 3 },
      54469,
      '06 01 01 09 00 00 01 01 03',
    )
  })
})

describe('Exception', () => {
  const error = new ClickHouseError({
    code: 60,
    type: 'DB::Exception',
    message: "Table default.missing_table doesn't exist.",
    serverStackTrace: '0. trace\n',
  })

  it('decodes code, class, message without the class prefix, and stack trace', () => {
    const bytes = checkServerPacket(
      { type: 'Exception', error },
      54412,
      '02 3c000000' +
        str('DB::Exception') +
        str("DB::Exception: Table default.missing_table doesn't exist.") +
        str('0. trace\n') +
        '00',
    )
    const packet = decodeServerPacket(new ByteReader(bytes), 54412)
    expect(packet?.type).toBe('Exception')
    const decoded = (packet as { error: ClickHouseError }).error
    expect(ClickHouseError.isInstance(decoded)).toBe(true)
    expect(decoded.code).toBe(60)
    expect(decoded.codeName).toBe('UNKNOWN_TABLE')
    expect(decoded.type).toBe('DB::Exception')
    expect(decoded.message).toBe("Table default.missing_table doesn't exist.")
    expect(decoded.serverStackTrace).toBe('0. trace\n')
    expect(decoded.nested).toBeUndefined()
  })

  it('follows the nested chain old servers wrote', () => {
    const nested = new ClickHouseError({
      code: 210,
      type: 'DB::NetException',
      message: 'Connection refused',
      nested: new ClickHouseError({ code: 1000, type: 'Poco::Exception', message: 'refused' }),
    })
    const outer = new ClickHouseError({
      code: 279,
      type: 'DB::Exception',
      message: 'All tries failed',
      nested,
    })
    const bytes = checkServerPacket(
      { type: 'Exception', error: outer },
      54460,
      '02 17010000' +
        str('DB::Exception') +
        str('DB::Exception: All tries failed') +
        '00 01' +
        'd2000000' +
        str('DB::NetException') +
        str('DB::NetException: Connection refused') +
        '00 01' +
        'e8030000' +
        str('Poco::Exception') +
        str('Poco::Exception: refused') +
        '00 00',
    )
    const decoded = (decodeServerPacket(new ByteReader(bytes), 54460) as { error: ClickHouseError }).error
    expect([decoded.code, decoded.nested?.code, decoded.nested?.nested?.code]).toEqual([279, 210, 1000])
    expect(decoded.nested?.nested?.message).toBe('refused')
  })

  it('keeps a message that lacks the class prefix as it is', () => {
    const bytes = fromHex('3c000000' + str('DB::Exception') + str('no prefix') + '00' + '00')
    const decoded = exceptionCodec.decodeBody(new ByteReader(bytes), 54460)
    expect(decoded?.error.message).toBe('no prefix')
  })

  it('refuses a chain deeper than 64', () => {
    const frame = '01000000' + str('E') + str('E: x') + '00'
    const bytes = fromHex('02' + `${frame}01`.repeat(64) + `${frame}00`)
    expect(() => decodeServerPacket(new ByteReader(bytes), 54460)).toThrow(ProtocolError)
  })
})

describe('other server packets', () => {
  const cases: [string, ServerPacket, number[], string][] = [
    ['Pong', { type: 'Pong' }, [54412, 54460], '04'],
    ['EndOfStream', { type: 'EndOfStream' }, [54412, 54460], '05'],
    ['ReadTaskRequest', { type: 'ReadTaskRequest' }, [54412, 54460], '0d'],
    [
      'TableColumns',
      { type: 'TableColumns', table: '', columns: 'columns format version: 1\n1 columns:\n`a` UInt8\n' },
      [54412, 54460],
      '0b 00' + str('columns format version: 1\n1 columns:\n`a` UInt8\n'),
    ],
    [
      'PartUUIDs',
      { type: 'PartUUIDs', uuids: ['61f0c404-5cb3-11e7-907b-a6006ad3dba0'] },
      [54412, 54460],
      '0c 01 e711b35c04c4f061 a0dbd36a00a67b90',
    ],
    ['TimezoneUpdate', { type: 'TimezoneUpdate', timezone: 'Asia/Tokyo' }, [54464], `11${str('Asia/Tokyo')}`],
    ['SSHChallenge', { type: 'SSHChallenge', challenge: 'abc' }, [54466], `12${str('abc')}`],
    [
      'TablesStatusResponse up to 54466',
      {
        type: 'TablesStatusResponse',
        tables: [
          { database: 'db', table: 'local', isReplicated: false, absoluteDelay: 0, isReadonly: false },
          { database: 'db', table: 'replica', isReplicated: true, absoluteDelay: 300, isReadonly: false },
        ],
      },
      [54412, 54460],
      '09 02' + str('db') + str('local') + '00' + str('db') + str('replica') + '01 ac02',
    ],
    [
      'TablesStatusResponse at 54467',
      {
        type: 'TablesStatusResponse',
        tables: [
          { database: 'db', table: 'replica', isReplicated: true, absoluteDelay: 1, isReadonly: true },
        ],
      },
      [54467],
      '09 01' + str('db') + str('replica') + '01 01 01',
    ],
  ]

  it.each(cases)('%s', (_name, packet, revisions, bytes) => {
    for (const revision of revisions) checkServerPacket(packet, revision, bytes)
  })

  it('refuses TableColumnsPacket below 54410 and TimezoneUpdate below 54464', () => {
    const columns = { type: 'TableColumns', table: '', columns: '' } as const
    expect(() => bytesOf((writer) => encodeServerPacket(writer, columns, 54409))).toThrow(UsageError)
    const timezone = { type: 'TimezoneUpdate', timezone: 'UTC' } as const
    expect(() => bytesOf((writer) => encodeServerPacket(writer, timezone, 54460))).toThrow(UsageError)
  })
})

describe('decodeServerPacket', () => {
  it('follows the packet sequence 18.16 sent for SELECT 1, skipping the compressed blocks', () => {
    const bytes = fromHex(select1From1816)
    const reader = new ByteReader(bytes)
    const seen: string[] = []
    let revision = clientRevision
    while (reader.offset < bytes.length) {
      const packet = decodeServerPacket(reader, revision)
      expect(packet).toBeDefined()
      seen.push(packet!.type)
      if (packet!.type === 'Hello') revision = negotiatedRevision(revision, packet!.revision)
      if (packet!.type === 'Data') {
        // A compressed frame: 16-byte checksum, method, UInt32 size including the 9-byte header.
        const size = reader.view.getUint32(reader.offset + 17, true)
        reader.skip(16 + size)
      }
    }
    expect(seen).toEqual(['Hello', 'Pong', 'Data', 'Data', 'ProfileInfo', 'Progress', 'Data', 'EndOfStream'])
    expect(revision).toBe(54412)
  })

  it('rejects an unknown packet id and those it cannot read', () => {
    expect(() => decodeServerPacket(new ByteReader(Uint8Array.of(42)), clientRevision)).toThrow(
      new ProtocolError('unknown server packet 42'),
    )
    expect(() => decodeServerPacket(new ByteReader(Uint8Array.of(16)), clientRevision)).toThrow(
      'server packet MergeTreeReadTaskRequest (16) is not supported',
    )
  })

  it('reports an empty input as missing one byte', () => {
    const reader = new ByteReader(new Uint8Array(0))
    expect(decodeServerPacket(reader, clientRevision)).toBeUndefined()
    expect(reader.missing).toBe(1)
  })

  it('round-trips bytes written with encodeServerPacket', () => {
    const bytes = bytesOf((writer) => {
      encodeServerPacket(writer, hello1816, clientRevision)
      encodeServerPacket(writer, { type: 'EndOfStream' }, 54412)
    })
    expect(hex(bytes)).toBe('000a436c69636b486f75736512108ca903074574632f55544302766d0105')
  })

  it('meets arbitrary bytes with a packet, a short read or a ProtocolError, nothing else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.constantFrom(54412, 54460), (bytes, revision) => {
        try {
          decodeServerPacket(new ByteReader(bytes), revision)
        } catch (error) {
          if (!ProtocolError.isInstance(error)) throw error
        }
      }),
      { numRuns: 2000 },
    )
  })
})
