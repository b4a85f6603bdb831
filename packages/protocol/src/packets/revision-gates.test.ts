// Every field gated between 54461 and 54492, as exact bytes, round trip and truncation, and
// absent one revision below its gate. The 26.7 Hello is bytes captured from the embedded
// ClickHouse 26.7.2.1 answering a client that announced 54488; the 26.9 one from 26.9.2.1
// (PyPI's chdb-core) answering 54492, run with the harness's config.
import { describe, expect, it } from 'vitest'
import { captured267, captured269, hello267, hello269 } from '../../test/support/captured-hellos.js'
import {
  bytesOf,
  checkClientPacket,
  checkServerPacket,
  decodeAll,
  expectTruncationsReported,
  hex,
  str,
} from '../../test/support/packets-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { checkChunkedFraming, decodeAddendum, encodeAddendum } from './client-hello-packet.js'
import { initialClientInfo, readClientInfo, writeClientInfo } from './client-info.js'
import { clientRevision, Revision } from './protocol-revision.js'
import { writeSettings } from './query-settings.js'
import { encodeServerPacket } from './server-packet.js'
import { serverBodyCompressed } from './simple-packets.js'

describe('server Hello at 54488 and 54492', () => {
  it('decodes the captured 26.7 Hello exactly, and encodes it back', () => {
    checkServerPacket(hello267, 54488, captured267)
  })

  it('decodes the captured 26.9 Hello exactly at the revision clickwire announces', () => {
    expect(clientRevision).toBe(54492)
    // 54489-54492 add no Hello field: the same fields as 26.7's, in the same order.
    checkServerPacket(hello269, clientRevision, captured269)
  })

  it('leaves out each field one revision below its gate', () => {
    const at = (revision: number) => bytesOf((writer) => encodeServerPacket(writer, hello267, revision))
    const full = at(54488)
    const settings = bytesOf((writer) => writeSettings(writer, hello267.settings, 54488))
    expect(at(54478).length).toBe(full.length - 1)
    expect(at(54476).length).toBe(full.length - 2)
    expect(at(54473).length).toBe(full.length - 2 - settings.length)
    expect(at(54470).length).toBe(full.length - 3 - settings.length)
    expect(at(54469).length).toBe(full.length - 3 - settings.length - 22)
  })
})

describe('addendum (54458 / 54470 / 54471)', () => {
  it('writes the quota key, notchunked both ways, the parallel-replicas version', () => {
    const bytes = bytesOf((writer) => encodeAddendum(writer, { quotaKey: 'k' }, 54488))
    expect(hex(bytes)).toBe(str('k') + str('notchunked') + str('notchunked') + '08')
    expect(decodeAll(bytes, (reader) => decodeAddendum(reader, 54488))).toEqual({
      quotaKey: 'k',
      chunkedSend: 'notchunked',
      chunkedReceive: 'notchunked',
      parallelReplicasProtocolVersion: 8,
    })
    expectTruncationsReported(bytes, (reader) => decodeAddendum(reader, 54488))
    expect(hex(bytesOf((writer) => encodeAddendum(writer, { quotaKey: 'k' }, 54470)))).toBe(
      str('k') + str('notchunked') + str('notchunked'),
    )
    expect(hex(bytesOf((writer) => encodeAddendum(writer, { quotaKey: 'k' }, 54469)))).toBe(str('k'))
    expect(hex(bytesOf((writer) => encodeAddendum(writer, { quotaKey: 'k' }, 54412)))).toBe('')
  })

  it('refuses a server that requires chunked packets', () => {
    expect(() => checkChunkedFraming({ chunkedSend: 'chunked', chunkedReceive: 'notchunked' })).toThrow(
      ProtocolError,
    )
    expect(() => checkChunkedFraming({ chunkedSend: 'notchunked', chunkedReceive: 'chunked' })).toThrow(
      /proto_caps.recv/,
    )
    expect(() =>
      checkChunkedFraming({ chunkedSend: 'chunked_optional', chunkedReceive: 'notchunked_optional' }),
    ).not.toThrow()
  })
})

describe('ClientInfo tail (54475, 54476, 54485, 54486, 54488)', () => {
  const info = initialClientInfo({
    clientName: 'c',
    versionMajor: 1,
    versionMinor: 0,
    versionPatch: 0,
    revision: 54488,
  })
  const at = (revision: number) => bytesOf((writer) => writeClientInfo(writer, info, revision))

  it('appends script numbers, no JWT, an empty agent, not internal, no roles', () => {
    const full = at(54488)
    const base = at(54474)
    expect(hex(full.subarray(base.length))).toBe('0000' + '00' + '00' + '00' + '00')
    expect(at(54487).length).toBe(full.length - 1)
    expect(at(54485).length).toBe(full.length - 2)
    expect(at(54484).length).toBe(full.length - 3)
    expect(at(54475).length).toBe(full.length - 4)
    expect(decodeAll(full, (reader) => readClientInfo(reader, 54488))).toEqual(info)
    expectTruncationsReported(full, (reader) => readClientInfo(reader, 54488))
  })

  it('round-trips forwarded values (JWT, agent, roles)', () => {
    const forwarded = {
      ...info,
      scriptQueryNumber: 3,
      scriptLineNumber: 7,
      jwt: 't',
      clientAgent: 'a',
      isInternal: true,
      currentRoles: ['r1', 'r2'],
    }
    const bytes = bytesOf((writer) => writeClientInfo(writer, forwarded, 54488))
    expect(hex(bytes.subarray(at(54474).length))).toBe(
      '0307' + '01' + str('t') + str('a') + '01' + '01' + '02' + str('r1') + str('r2'),
    )
    expect(decodeAll(bytes, (reader) => readClientInfo(reader, 54488))).toEqual(forwarded)
  })
})

describe('Query packet externally granted roles (54472)', () => {
  it('writes an empty roles string between the settings and the secret', () => {
    const clientInfo = initialClientInfo({
      clientName: 'c',
      versionMajor: 1,
      versionMinor: 0,
      versionPatch: 0,
      revision: 54488,
    })
    const query = { type: 'Query' as const, queryId: 'q', clientInfo, compression: false, query: 'SELECT 1' }
    const full = checkClientPacket(query, 54488, undefined, {
      ...query,
      settings: [],
      externalRoles: '',
      interserverSecret: '',
      stage: 2,
      parameters: [],
    })
    const withoutRoles = checkClientPacket(query, 54471, undefined, {
      ...query,
      clientInfo: decodeAll(
        bytesOf((w) => writeClientInfo(w, clientInfo, 54471)),
        (r) => readClientInfo(r, 54471),
      ),
      settings: [],
      externalRoles: '',
      interserverSecret: '',
      stage: 2,
      parameters: [],
    })
    // The roles string (1 byte) and the ClientInfo tail from 54475 (6 bytes).
    expect(full.length - withoutRoles.length).toBe(1 + 6)
  })
})

describe('compressed bodies (54481)', () => {
  it('compresses Log, ProfileEvents and TableColumns only from 54481', () => {
    for (const type of ['Log', 'ProfileEvents', 'TableColumns'] as const) {
      expect(serverBodyCompressed(type, Revision.withCompressedLogsProfileEventsColumns - 1)).toBe(false)
      expect(serverBodyCompressed(type, Revision.withCompressedLogsProfileEventsColumns)).toBe(true)
    }
    expect(serverBodyCompressed('Data', 54412)).toBe(true)
  })
})
