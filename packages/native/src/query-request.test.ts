// Where {name:Type} values travel: as protocol parameters in the Query packet from revision
// 54459 (checked here on the encoded bytes, at the client's own 54460), substituted into
// the SQL below it (the 18.16 path, also run live in test/query-features.test.ts).
import { ByteReader, ByteWriter, clientRevision, revision18_16 } from '@clickwire/protocol'
import { decodeClientPacket } from '@clickwire/protocol/internal'
import { parameterCases } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { prepareQuery, type QueryRequest, writeQueryRequest } from './query-request.js'

function request(
  revision: number,
  sql: string,
  params: Record<string, unknown>,
): { bytes: Uint8Array; request: QueryRequest } {
  const prepared = prepareQuery(revision, sql, params)
  const built: QueryRequest = {
    ...prepared,
    queryId: 'q',
    settings: [{ name: 'max_threads', value: 2 }],
    compression: true,
    clientName: 'clickwire',
    quotaKey: '',
  }
  const writer = new ByteWriter(256)
  writeQueryRequest(writer, built, revision)
  return { bytes: writer.copy(), request: built }
}

function decode(bytes: Uint8Array, revision: number) {
  const reader = new ByteReader(bytes)
  const packet = decodeClientPacket(reader, revision)
  expect(reader.offset).toBe(bytes.length)
  if (packet?.type !== 'Query') throw new Error(`decoded ${packet?.type}`)
  return packet
}

const utf8 = (text: string) => Array.from(new TextEncoder().encode(text))

describe('{name:Type} parameters in the Query packet', () => {
  it('travel as protocol parameters at 54460, the SQL untouched', () => {
    expect(clientRevision).toBe(54492)
    const sql = 'SELECT {s:String} AS s, {n:Nullable(UInt8)} AS n'
    const { bytes } = request(54460, sql, { s: "it's", n: null })
    const packet = decode(bytes, 54460)
    expect(packet.query).toBe(sql)
    expect(packet.parameters).toEqual([
      { name: 's', value: "it's" },
      { name: 'n', value: '\\N' },
    ])
    expect(packet.settings).toEqual([{ name: 'max_threads', value: '2', important: false, custom: false }])
    // The packet ends with the SQL, then each parameter as a custom setting (name, flag
    // 0x02, the text single-quoted), then an empty name.
    const tail = [
      sql.length,
      ...utf8(sql),
      1,
      ...utf8('s'),
      0x02,
      7,
      ...utf8("'it\\'s'"),
      1,
      ...utf8('n'),
      0x02,
      5,
      ...utf8("'\\\\N'"),
      0,
    ]
    expect(Array.from(bytes.subarray(bytes.length - tail.length))).toEqual(tail)
  })

  it('are substituted into the SQL below 54459, and the packet carries none', () => {
    const { bytes } = request(revision18_16, 'SELECT {s:String} AS s', { s: "it's" })
    const packet = decode(bytes, revision18_16)
    expect(packet.query).toBe("SELECT 'it\\'s' AS s")
    expect(packet.parameters).toEqual([])
    // No parameter section: the packet ends with the SQL.
    const tail = [packet.query.length, ...utf8(packet.query)]
    expect(Array.from(bytes.subarray(bytes.length - tail.length))).toEqual(tail)
  })

  it('carry the same value both ways for every shared case', () => {
    for (const each of parameterCases) {
      const sql = `SELECT {v:${each.type}} AS v`
      const modern = decode(request(54460, sql, { v: each.value }).bytes, 54460)
      expect([each.type, modern.parameters]).toEqual([each.type, [{ name: 'v', value: each.text }]])
      if (each.legacy === undefined) continue
      const legacy = decode(request(revision18_16, sql, { v: each.value }).bytes, revision18_16)
      expect([each.type, legacy.query]).toEqual([each.type, `SELECT ${each.sql} AS v`])
    }
  })

  it('leave a query without parameters alone', () => {
    expect(prepareQuery(54460, 'SELECT 1', undefined)).toEqual({ sql: 'SELECT 1', parameters: [] })
    expect(prepareQuery(54412, 'SELECT 1', {})).toEqual({ sql: 'SELECT 1', parameters: [] })
  })
})
