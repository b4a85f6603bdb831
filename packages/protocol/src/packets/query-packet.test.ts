import { describe, expect, it } from 'vitest'
import {
  bytesOf,
  checkClientPacket,
  decodeAll,
  fromHex,
  hex,
  str,
} from '../../test/support/packets-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import { ByteReader } from '../io/byte-reader.js'
import {
  type ClientInfo,
  ClientInterface,
  initialClientInfo,
  readClientInfo,
  writeClientInfo,
} from './client-info.js'
import { decodeClientPacket, encodeClientPacket } from './client-packet.js'
import type { QueryPacket } from './query-packet.js'

/** What clickhouse-client 18.16.1 (revision 54412) sends as ClientInfo, captured on the wire. */
const client1816 = initialClientInfo({
  clientName: 'ClickHouse client',
  versionMajor: 18,
  versionMinor: 16,
  versionPatch: 1,
  revision: 54412,
  hostname: 'vm',
})

const clickwire = initialClientInfo({
  clientName: 'clickwire',
  versionMajor: 1,
  versionMinor: 2,
  versionPatch: 3,
  revision: 54460,
  osUser: 'me',
  hostname: 'host',
  quotaKey: 'q',
})

describe('Query', () => {
  it('matches the bytes clickhouse-client 18.16 sends for SELECT 1 (revision 54412)', () => {
    // Captured between clickhouse-client 18.16.1 and clickhouse-server 18.16.1.
    const captured =
      '01 00' + // Query, query id ''
      '01 00 00 09302e302e302e303a30' + // initial query, user '', query id '', address 0.0.0.0:0
      '01 00 02766d 11436c69636b486f75736520636c69656e74 12 10 8ca903' + // TCP, os user, host, name, 18.16, 54412
      '00 01' + // quota key '', patch 1
      '00' + // no settings
      '02 01 0853454c4543542031' // stage Complete, compression on, query
    checkClientPacket(
      { type: 'Query', queryId: '', clientInfo: client1816, compression: true, query: 'SELECT 1' },
      54412,
      captured,
      {
        type: 'Query',
        queryId: '',
        clientInfo: client1816,
        settings: [],
        externalRoles: '',
        interserverSecret: '',
        stage: 2,
        compression: true,
        query: 'SELECT 1',
        parameters: [],
      },
    )
  })

  const full: QueryPacket = {
    type: 'Query',
    queryId: 'id-1',
    clientInfo: clickwire,
    settings: [{ name: 'max_threads', value: '2', important: false, custom: false }],
    externalRoles: '',
    interserverSecret: '',
    stage: 2,
    compression: false,
    query: 'SELECT {x:String}',
    parameters: [{ name: 'x', value: "it's" }],
  }

  it('lays out every field of revision 54460', () => {
    checkClientPacket(
      full,
      54460,
      '01' +
        str('id-1') +
        '01 00 00' +
        str('0.0.0.0:0') +
        '0000000000000000' + // initial query start time (54449)
        '01' +
        str('me') +
        str('host') +
        str('clickwire') +
        '01 02 bca903' + // 1.2, revision 54460
        str('q') + // quota key (54060)
        '00' + // distributed depth (54448)
        '03' + // version patch (54401)
        '00' + // no OpenTelemetry trace (54442)
        '00 00 00' + // parallel replicas (54453)
        str('max_threads') +
        '00' +
        str('2') +
        '00' + // settings as strings with flags (54429), then the end
        '00' + // inter-server secret '' (54441)
        '02 00' +
        str('SELECT {x:String}') +
        str('x') +
        '02' +
        str("'it\\'s'") +
        '00', // parameters (54459): custom flag, quoted value
    )
  })

  it('drops the fields a revision does not have', () => {
    const at54412 = bytesOf((writer) => encodeClientPacket(writer, { ...full, parameters: [] }, 54412))
    // No start time, depth, OpenTelemetry, replicas, secret; binary settings (max_threads = VarUInt 2).
    expect(hex(at54412)).toBe(
      '01' +
        str('id-1') +
        '010000' +
        str('0.0.0.0:0') +
        '01' +
        str('me') +
        str('host') +
        str('clickwire') +
        '0102bca903' +
        str('q') +
        '03' +
        str('max_threads') +
        '02' +
        '00' +
        '0200' +
        str('SELECT {x:String}'),
    )
  })

  it('refuses server-side parameters below revision 54459', () => {
    expect(() => bytesOf((writer) => encodeClientPacket(writer, full, 54458))).toThrow(UsageError)
    expect(() => bytesOf((writer) => encodeClientPacket(writer, full, 54458))).toThrow(
      'server-side query parameters need revision 54459; this server speaks 54458',
    )
  })

  it('refuses revisions without ClientInfo', () => {
    expect(() => bytesOf((writer) => encodeClientPacket(writer, full, 54031))).toThrow(UsageError)
  })

  it('rejects a compression flag other than 0 or 1', () => {
    const bytes = bytesOf((writer) => encodeClientPacket(writer, { ...full, parameters: [] }, 54412))
    const bad = Uint8Array.from(bytes)
    const at = bad.length - 1 - str('SELECT {x:String}').length / 2
    expect(bad[at]).toBe(0)
    bad[at] = 2
    expect(() => decodeClientPacket(new ByteReader(bad), 54412)).toThrow(ProtocolError)
  })
})

describe('ClientInfo', () => {
  const http: ClientInfo = {
    ...clickwire,
    queryKind: 2,
    initialUser: 'alice',
    initialQueryId: 'q1',
    initialAddress: '[::1]:9000',
    initialQueryStartTime: 1_700_000_000_000_000n,
    interface: ClientInterface.HTTP,
    osUser: '',
    clientHostname: '',
    clientName: '',
    clientVersionMajor: 0,
    clientVersionMinor: 0,
    clientRevision: 0,
    clientVersionPatch: 0,
    httpMethod: 2,
    httpUserAgent: 'curl',
    forwardedFor: '10.0.0.1',
    httpReferer: 'r',
    distributedDepth: 1,
    traceContext: {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceState: 'k=v',
      traceFlags: 1,
    },
    collaborateWithInitiator: true,
    countParticipatingReplicas: 3,
    numberOfCurrentReplica: 2,
  }

  it('writes the HTTP fields and the trace context (high half of the trace id first, little-endian)', () => {
    const bytes = bytesOf((writer) => writeClientInfo(writer, http, 54460))
    expect(hex(bytes)).toBe(
      '02' +
        str('alice') +
        str('q1') +
        str('[::1]:9000') +
        '00401e18240a0600' + // 1.7e15 (0x00060a24181e4000) as Int64
        '0202' + // HTTP, POST
        str('curl') +
        str('10.0.0.1') + // X-Forwarded-For (54443)
        str('r') + // Referer (54447)
        str('q') +
        '01' + // distributed depth
        '01' +
        'dd43cd161965f70a' + // trace id 0af7651916cd43dd 8448eb211c80319c
        '9c31801c21eb4884' +
        '31332069716badb7' + // span id b7ad6b7169203331
        str('k=v') +
        '01' +
        '010302', // parallel replicas: collaborate, 3 replicas, this is number 2
    )
    expect(decodeAll(bytes, (reader) => readClientInfo(reader, 54460))).toEqual(http)
  })

  it('writes only the kind for a query of kind None', () => {
    const none: ClientInfo = { ...clickwire, queryKind: 0 }
    const bytes = bytesOf((writer) => writeClientInfo(writer, none, 54460))
    expect(hex(bytes)).toBe('00')
    expect(decodeAll(bytes, (reader) => readClientInfo(reader, 54460)).queryKind).toBe(0)
  })

  it('takes the client revision as the patch number below revision 54401, as servers do', () => {
    const bytes = bytesOf((writer) => writeClientInfo(writer, clickwire, 54400))
    expect(decodeAll(bytes, (reader) => readClientInfo(reader, 54400)).clientVersionPatch).toBe(54460)
  })

  it('rejects an unknown query kind and a malformed trace id', () => {
    expect(() => readClientInfo(new ByteReader(Uint8Array.of(3)), 54460)).toThrow(ProtocolError)
    const bad: ClientInfo = {
      ...clickwire,
      traceContext: { traceId: 'xyz', spanId: '00', traceState: '', traceFlags: 0 },
    }
    expect(() => bytesOf((writer) => writeClientInfo(writer, bad, 54460))).toThrow(UsageError)
  })
})

describe('against ClickHouse/ch-go golden bytes (an independent implementation)', () => {
  // proto/_golden/*.raw of ClickHouse/ch-go, written by its encoders at the revisions noted.
  const goldens = {
    clientInfo54450:
      '01002432336164326330372d326636382d343030352d396261632d64613866343637626464336209302e302e302e303a3000' +
      '00000000000000010665726e61646f056e657875730b436c69636b486f75736520150bb2a90300000400',
    clientInfoOtel54460:
      '01002434306332363861642d646535302d343334642d613339312d38303064613961613730633309302e302e302e303a3000' +
      '0000000000000001047573657208686f73746e616d65044e616d65150b9da903000004010807060504030201100f0e0d0c0b' +
      '0a0908070605040302010000000000',
    queryOtel54460:
      '012461376534633839302d646632312d346365612d623461312d39623836386535313433363601036e656f24363866363037' +
      '66622d353965342d346363372d623535642d3730653664633465376339330c312e312e312e313a3134343800000000000000' +
      '0001056167656e74056e65787573064d6174726978150ee3990306752d3937646300c0530100000000040302010000000000' +
      '0000000000000a090807060001000000000673656372657402011543524541544520444154414241534520746573743b00',
  }

  it('reads and rewrites ClientInfo of revision 54450', () => {
    const bytes = fromHex(goldens.clientInfo54450)
    const info = decodeAll(bytes, (reader) => readClientInfo(reader, 54450))
    expect(info).toMatchObject({
      initialQueryId: '23ad2c07-2f68-4005-9bac-da8f467bdd3b',
      initialAddress: '0.0.0.0:0',
      osUser: 'ernado',
      clientHostname: 'nexus',
      clientName: 'ClickHouse ',
      clientVersionMajor: 21,
      clientVersionMinor: 11,
      clientRevision: 54450,
      clientVersionPatch: 4,
      traceContext: undefined,
    })
    expect(hex(bytesOf((writer) => writeClientInfo(writer, info, 54450)))).toBe(goldens.clientInfo54450)
  })

  it('reads and rewrites ClientInfo with an OpenTelemetry trace at 54460', () => {
    const bytes = fromHex(goldens.clientInfoOtel54460)
    const info = decodeAll(bytes, (reader) => readClientInfo(reader, 54460))
    expect(info.traceContext).toEqual({
      traceId: '0102030405060708090a0b0c0d0e0f10',
      spanId: '0102030405060708',
      traceState: '',
      traceFlags: 0,
    })
    expect(hex(bytesOf((writer) => writeClientInfo(writer, info, 54460)))).toBe(goldens.clientInfoOtel54460)
  })

  it('reads and rewrites a Query of revision 54460', () => {
    const bytes = fromHex(goldens.queryOtel54460)
    const query = decodeAll(bytes, (reader) => decodeClientPacket(reader, 54460)) as QueryPacket
    expect(query).toMatchObject({
      queryId: 'a7e4c890-df21-4cea-b4a1-9b868e514366',
      settings: [],
      interserverSecret: 'secret',
      stage: 2,
      compression: true,
      query: 'CREATE DATABASE test;',
      parameters: [],
    })
    expect(query.clientInfo).toMatchObject({
      initialUser: 'neo',
      initialAddress: '1.1.1.1:1448',
      clientRevision: 52451,
      clientVersionPatch: 10688,
      quotaKey: 'u-97dc',
      traceContext: {
        traceId: '01020304000000000000000000000000',
        spanId: '060708090a000000',
        traceFlags: 1,
      },
    })
    checkClientPacket(query, 54460, goldens.queryOtel54460)
  })
})
