// The packet codecs against a live ClickHouse, 18.16 (revision 54412), 26.7 (54488) or 26.9 (54492),
// through a small hand-rolled packet loop over node:net. It is not a transport: it only sends what the
// protocol requires and records what the server answers.

import { connect, type Socket } from 'node:net'
import { modernHandshakeAbort, startClickHouse } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { NativeBlock } from '../src/blocks/native-block.js'
import { NativeBlockReader } from '../src/blocks/native-block-reader.js'
import { type ColumnToWrite, NativeBlockWriter } from '../src/blocks/native-block-writer.js'
import type { CodecContext } from '../src/columns/column-codec.js'
import { loadCodecs } from '../src/columns/rare-codec-loader.js'
import { ClickHouseError } from '../src/errors/clickhouse-error.js'
import { ByteReader } from '../src/io/byte-reader.js'
import { ByteWriter } from '../src/io/byte-writer.js'
import { encodeAddendum } from '../src/packets/client-hello-packet.js'
import { initialClientInfo } from '../src/packets/client-info.js'
import { type ClientPacketInput, encodeClientPacket } from '../src/packets/client-packet.js'
import { clientRevision, revision18_16 } from '../src/packets/protocol-revision.js'
import type { QuerySetting } from '../src/packets/query-settings.js'
import { negotiatedRevision, type ServerHelloPacket } from '../src/packets/server-hello-packet.js'
import { decodeServerPacket, type ServerPacket } from '../src/packets/server-packet.js'
import { defaultValueMapping } from '../src/types/value-mapping.js'
import { hello267, hello269 } from './support/captured-hellos.js'

const server = inject('clickhouse')
const modern = server.generation === 'modern'
const latest = server.line === '26.9'
/** The revision the server announces: 18.16's, 26.7's or 26.9's. */
const serverRevision = !modern ? revision18_16 : latest ? 54492 : 54488

interface Received {
  readonly packet: ServerPacket
  readonly block?: NativeBlock
}

/** One native connection: writes packets, and reads whole packets (with their blocks) as they arrive. */
class Wire {
  private buffer: Buffer = Buffer.alloc(0)
  private wake: (() => void) | undefined
  private closed = false
  revision = clientRevision
  context: CodecContext = { revision: clientRevision, timezone: 'UTC', mapping: defaultValueMapping }

  private constructor(private readonly socket: Socket) {
    socket.on('data', (data: Buffer) => {
      this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data])
      this.wake?.()
    })
    socket.on('close', () => {
      this.closed = true
      this.wake?.()
    })
    socket.on('error', () => {})
  }

  static open(
    to: { readonly host: string; readonly ports: { readonly tcp: number } } = server,
  ): Promise<Wire> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: to.host, port: to.ports.tcp })
      socket.once('connect', () => resolve(new Wire(socket)))
      socket.once('error', reject)
    })
  }

  send(...packets: (ClientPacketInput | ((writer: ByteWriter) => void))[]): void {
    const writer = new ByteWriter(256)
    for (const packet of packets) {
      if (typeof packet === 'function') packet(writer)
      else encodeClientPacket(writer, packet, this.revision)
    }
    this.socket.write(writer.copy())
  }

  /** Decodes the next value once enough bytes have arrived; consumes exactly its bytes. */
  async read<T>(decode: (reader: ByteReader) => T | undefined): Promise<T> {
    for (;;) {
      const reader = new ByteReader(this.buffer)
      const value = decode(reader)
      if (value !== undefined) {
        this.buffer = this.buffer.subarray(reader.offset)
        return value
      }
      if (this.closed) throw new Error(`connection closed with ${this.buffer.length} bytes pending`)
      await new Promise<void>((resolve) => {
        this.wake = resolve
      })
      this.wake = undefined
    }
  }

  /** The next server packet; for block-carrying ones also the block, read uncompressed. */
  next(blocks: NativeBlockReader): Promise<Received> {
    return this.read((reader) => {
      const packet = decodeServerPacket(reader, this.revision)
      if (packet === undefined) return undefined
      if (
        packet.type !== 'Data' &&
        packet.type !== 'Totals' &&
        packet.type !== 'Extremes' &&
        packet.type !== 'Log' &&
        packet.type !== 'ProfileEvents'
      ) {
        return { packet }
      }
      const block = blocks.read(reader)
      return block && { packet, block }
    })
  }

  /** Hello exchange as `user`; returns the server's Hello or its Exception. */
  async hello(user = 'default', password = '', database = ''): Promise<ServerPacket> {
    this.send({
      type: 'Hello',
      clientName: 'clickwire test',
      versionMajor: 0,
      versionMinor: 1,
      revision: clientRevision,
      database,
      user,
      password,
    })
    const packet = await this.read((reader) => decodeServerPacket(reader, clientRevision))
    if (packet.type === 'Hello') {
      this.revision = negotiatedRevision(clientRevision, packet.revision)
      this.context = { ...this.context, revision: this.revision, timezone: packet.timezone }
      this.send((writer) => encodeAddendum(writer, { quotaKey: '' }, this.revision))
    }
    return packet
  }

  /** Sends a query and the empty Data block that ends its external tables. */
  sendQuery(query: string, settings: QuerySetting[] = []): void {
    const clientInfo = initialClientInfo({
      clientName: 'clickwire test',
      versionMajor: 0,
      versionMinor: 1,
      versionPatch: 0,
      revision: clientRevision,
      osUser: 'tester',
      hostname: 'localhost',
    })
    this.send({ type: 'Query', queryId: '', clientInfo, settings, compression: false, query }, (writer) =>
      this.writeBlock(writer, [], 0),
    )
  }

  /** A Data packet: header, then the block body, uncompressed. */
  writeBlock(writer: ByteWriter, columns: readonly ColumnToWrite[], rows: number): void {
    encodeClientPacket(writer, { type: 'Data', table: '' }, this.revision)
    new NativeBlockWriter(this.context).write(writer, columns, rows)
  }

  /** Every packet up to EndOfStream or Exception. */
  async untilEnd(): Promise<Received[]> {
    const blocks = new NativeBlockReader(this.context)
    const seen: Received[] = []
    for (;;) {
      const received = await this.next(blocks)
      seen.push(received)
      if (received.packet.type === 'EndOfStream' || received.packet.type === 'Exception') return seen
    }
  }

  close(): void {
    this.socket.destroy()
  }
}

/**
 * `Data(columns x rows)` / packet type, for comparing sequences. A ProfileEvents block has
 * one row per counter that moved, which varies from run to run: only its columns count.
 */
function summary(seen: readonly Received[]): string[] {
  return seen.map(({ packet, block }) => {
    if (!block) return packet.type
    const rows = packet.type === 'ProfileEvents' ? 'n' : block.rows
    return `${packet.type}(${block.columns.length}x${rows})`
  })
}

/** The columns of a ProfileEvents block (26.x). */
const EVENTS = [
  ['host_name', 'String'],
  ['current_time', 'DateTime'],
  ['thread_id', 'UInt64'],
  ['type', "Enum8('increment' = 1, 'gauge' = 2)"],
  ['name', 'String'],
  ['value', 'Int64'],
]

function errorOf(seen: readonly Received[]): ClickHouseError {
  const last = seen.at(-1)!.packet
  if (last.type !== 'Exception') throw new Error(`expected an Exception, got ${last.type}`)
  return last.error
}

describe(`native packets against ClickHouse ${server.version}`, () => {
  let wire: Wire
  let hello: ServerHelloPacket

  beforeAll(async () => {
    // From 54492 (26.9) String columns take the size-stream codec, which loads on demand; this
    // packet loop is no transport, so it loads it up front, as a transport does on first use.
    await loadCodecs()
    wire = await Wire.open()
    const packet = await wire.hello()
    if (packet.type !== 'Hello') throw new Error(`expected Hello, got ${packet.type}`)
    hello = packet
  })

  afterAll(() => wire?.close())

  it(`answers our Hello (revision ${clientRevision}) with its own, gated on revision ${serverRevision}`, () => {
    const common = {
      type: 'Hello',
      name: 'ClickHouse',
      // The harness configures `UTC`; the server reports the zone under its canonical name.
      timezone: 'Etc/UTC',
      displayName: hello.displayName,
      passwordComplexityRules: [],
    }
    if (latest) {
      // The fields of the captured 26.9 Hello; the Python entry point of the wheel also sets
      // the format of the keeper query (TabSeparated), hence its default_format.
      expect(hello).toEqual({ ...hello269, ...common, nonce: hello.nonce })
      expect(typeof hello.nonce).toBe('bigint')
    } else if (modern) {
      // chDB's own profile changes, which the server asks clients to apply (as captured).
      expect(hello).toEqual({ ...hello267, ...common, nonce: hello.nonce })
      expect(typeof hello.nonce).toBe('bigint')
    } else {
      expect(hello).toEqual({
        ...common,
        versionMajor: 18,
        versionMinor: 16,
        revision: revision18_16,
        versionPatch: 1,
        nonce: undefined,
        // Fields of revisions above 54412: 18.16 sends none of them.
        chunkedSend: '',
        chunkedReceive: '',
        parallelReplicasProtocolVersion: 0,
        clusterFunctionProtocolVersion: 0,
        queryPlanSerializationVersion: 0,
        settings: [],
      })
    }
    expect(hello.displayName.length).toBeGreaterThan(0)
    expect(wire.revision).toBe(Math.min(clientRevision, serverRevision))
  })

  it('runs SELECT 1: header block, the row, ProfileInfoPacket, ProgressPacket, empty block, EndOfStream', async () => {
    wire.sendQuery('SELECT 1')
    const seen = await wire.untilEnd()
    // 26.x also sends the query's ProfileEvents (a block) and a last Progress with the elapsed time.
    expect(summary(seen)).toEqual(
      modern
        ? [
            'Data(1x0)',
            'Data(1x1)',
            'ProfileInfo',
            'Progress',
            'ProfileEvents(6xn)',
            'Data(0x0)',
            'Progress',
            'EndOfStream',
          ]
        : ['Data(1x0)', 'Data(1x1)', 'ProfileInfo', 'Progress', 'Data(0x0)', 'EndOfStream'],
    )
    const [header, row, profile, progress] = seen
    expect(header!.block!.columns.map((c) => [c.name, c.typeName])).toEqual([['1', 'UInt8']])
    expect(row!.block!.columns[0]!.column.get(0)).toBe(1)
    expect(profile!.packet).toEqual({
      type: 'ProfileInfo',
      rows: 1,
      blocks: 1,
      // 26.x counts the bytes allocated for the block, 18.16 the bytes of its values.
      bytes: modern ? 4104 : 9,
      appliedLimit: false,
      rowsBeforeLimit: 0,
      calculatedRowsBeforeLimit: true,
      appliedAggregation: false,
      rowsBeforeAggregation: 0,
    })
    // 26.x knows the row count ahead (totalRows) and reports the elapsed time (54460+).
    const elapsedNs = (progress!.packet as { elapsedNs: number }).elapsedNs
    expect(progress!.packet).toEqual({
      type: 'Progress',
      rows: 1,
      bytes: 1,
      totalRows: modern ? 1 : 0,
      totalBytes: 0,
      writtenRows: 0,
      writtenBytes: 0,
      elapsedNs: modern ? elapsedNs : 0,
    })
    if (!modern) return
    expect(elapsedNs).toBeGreaterThan(0)
    const events = seen[4]!.block!
    expect(events.columns.map((c) => [c.name, c.typeName])).toEqual(EVENTS)
    expect(events.rows).toBeGreaterThan(0)
    expect(seen[6]!.packet).toMatchObject({ type: 'Progress', rows: 0, bytes: 0, writtenRows: 0 })
  })

  it('turns a failing query into ClickHouseError 60 and keeps the connection usable', async () => {
    wire.sendQuery('SELECT * FROM missing_table')
    const seen = await wire.untilEnd()
    expect(summary(seen)).toEqual(['Exception'])
    const error = errorOf(seen)
    expect(ClickHouseError.isInstance(error)).toBe(true)
    expect([error.code, error.codeName, error.type, error.message]).toEqual([
      60,
      'UNKNOWN_TABLE',
      'DB::Exception',
      // 26.x's analyzer reports the identifier it could not resolve.
      latest
        ? "Unknown table expression identifier 'missing_table'. In scope SELECT * FROM missing_table"
        : modern
          ? "Unknown table expression identifier 'missing_table' in scope SELECT * FROM missing_table"
          : "Table default.missing_table doesn't exist.",
    ])
    // chDB's library has no symbols: its frames are bare addresses.
    if (modern) expect(error.serverStackTrace).toMatch(/^0\. \? @ 0x[0-9a-f]+\n/)
    else expect(error.serverStackTrace).toContain('DB::Context::getTable')
    expect(error.nested).toBeUndefined()

    wire.sendQuery('SELECT 2')
    const again = await wire.untilEnd()
    expect(again[1]!.block!.columns[0]!.column.get(0)).toBe(2)
  })

  it('answers Ping with Pong', async () => {
    wire.send({ type: 'Ping' })
    const packet = await wire.read((reader) => decodeServerPacket(reader, wire.revision))
    expect(packet).toEqual({ type: 'Pong' })
  })

  it('applies settings sent in the binary format of revision 54412', async () => {
    wire.sendQuery(
      "SELECT name, value FROM system.settings WHERE name IN ('max_block_size', 'network_zstd_compression_level', " +
        "'totals_auto_threshold', 'load_balancing', 'max_execution_time', 'format_csv_delimiter') ORDER BY name",
      [
        { name: 'max_block_size', value: 1234 },
        { name: 'network_zstd_compression_level', value: -3 },
        { name: 'totals_auto_threshold', value: 0.25 },
        { name: 'load_balancing', value: 'in_order' },
        { name: 'max_execution_time', value: 7n },
        { name: 'format_csv_delimiter', value: ';' },
      ],
    )
    const seen = await wire.untilEnd()
    const rows = seen.find((r) => r.block && r.block.rows > 0)!.block!
    const [names, values] = rows.columns.map((c) => Array.from(c.column.values()))
    expect(Object.fromEntries(names!.map((name, i) => [name, values![i]]))).toEqual({
      format_csv_delimiter: ';',
      load_balancing: 'in_order',
      max_block_size: '1234',
      max_execution_time: '7',
      network_zstd_compression_level: '-3',
      totals_auto_threshold: '0.25',
    })
  })

  it('answers a tables status request', async () => {
    wire.send({
      type: 'TablesStatusRequest',
      tables: [
        { database: 'system', table: 'one' },
        { database: 'default', table: 'missing_table' },
      ],
    })
    const packet = await wire.read((reader) => decodeServerPacket(reader, wire.revision))
    expect(packet).toEqual({
      type: 'TablesStatusResponse',
      tables: [
        { database: 'system', table: 'one', isReplicated: false, absoluteDelay: 0, isReadonly: false },
      ],
    })
  })

  it('runs an INSERT: the server sends the table header, takes the rows, ends the stream', async () => {
    wire.sendQuery(
      "CREATE TABLE IF NOT EXISTS default.packets_insert (a UInt8, s String DEFAULT 'x') ENGINE = Memory",
    )
    expect(summary(await wire.untilEnd())).toEqual(['EndOfStream'])

    wire.sendQuery('INSERT INTO default.packets_insert VALUES')
    const blocks = new NativeBlockReader(wire.context)
    if (modern) {
      // 26.x first describes the table's columns and their defaults (revision 54410+).
      const described = await wire.next(blocks)
      expect(described.packet).toEqual({
        type: 'TableColumns',
        table: '',
        columns: "columns format version: 1\n2 columns:\n`a` UInt8\n`s` String\tDEFAULT\t\\'x\\'\n",
      })
    }
    const header = await wire.next(blocks)
    expect(summary([header])).toEqual(['Data(2x0)'])
    expect(header.block!.columns.map((c) => [c.name, c.typeName])).toEqual([
      ['a', 'UInt8'],
      ['s', 'String'],
    ])
    wire.send(
      (writer) =>
        wire.writeBlock(
          writer,
          [
            { name: 'a', type: 'UInt8', values: [7, 8] },
            { name: 's', type: 'String', values: ['seven', 'eight'] },
          ],
          2,
        ),
      (writer) => wire.writeBlock(writer, [], 0),
    )
    // 26.x reports ProfileEvents for the inserted block and for the end of the insert (54456+).
    expect(summary(await wire.untilEnd())).toEqual(
      modern ? ['ProfileEvents(6xn)', 'ProfileEvents(6xn)', 'EndOfStream'] : ['EndOfStream'],
    )

    wire.sendQuery('SELECT a, s FROM default.packets_insert ORDER BY a')
    const seen = await wire.untilEnd()
    const data = seen.find((r) => r.block && r.block.rows > 0)!.block!
    expect(data.columns.map((c) => Array.from(c.column.values()))).toEqual([
      [7, 8],
      ['seven', 'eight'],
    ])
    wire.sendQuery('DROP TABLE default.packets_insert')
    expect(summary(await wire.untilEnd())).toEqual(['EndOfStream'])
  })
})

describe(`refused logins on ClickHouse ${server.version}`, () => {
  it.skipIf(modern)(
    `answers a wrong password with Exception 193 instead of Hello, without the password in it${modern ? ` (skipped: ${modernHandshakeAbort})` : ''}`,
    async () => {
      const wrong = 'wrong-Secret-9d1e'
      const wire = await Wire.open()
      try {
        const packet = await wire.hello(server.users.password.user, wrong)
        expect(packet.type).toBe('Exception')
        const error = (packet as { error: ClickHouseError }).error
        expect([error.code, error.codeName, error.message]).toEqual([
          193,
          'WRONG_PASSWORD',
          `Wrong password for user ${server.users.password.user}`,
        ])
        const text = `${error.message}\n${error.serverStackTrace}`
        expect(text).not.toContain(wrong)
        expect(text).not.toContain(server.users.password.password)
      } finally {
        wire.close()
      }
    },
  )

  it('lets the right password in', async () => {
    const wire = await Wire.open()
    try {
      const packet = await wire.hello(server.users.password.user, server.users.password.password)
      expect(packet.type).toBe('Hello')
    } finally {
      wire.close()
    }
  })

  it('answers an unknown database with Exception 81', async () => {
    // The modern engine answers, then aborts: on a server of its own, so that no other
    // test file meets the shared one restarting.
    const own = modern && server.source === 'local' ? await startClickHouse({ local: true }) : undefined
    const wire = await Wire.open(own)
    try {
      const packet = await wire.hello('default', '', 'no_such_db')
      expect(packet.type).toBe('Exception')
      const error = (packet as { error: ClickHouseError }).error
      expect([error.code, error.codeName, error.message]).toEqual([
        81,
        'UNKNOWN_DATABASE',
        modern ? 'Database no_such_db does not exist' : "Database no_such_db doesn't exist",
      ])
    } finally {
      wire.close()
      await own?.stop()
    }
  })
})
