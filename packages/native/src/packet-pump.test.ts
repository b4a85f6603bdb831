// The packet pump over a constructed server byte stream (what a server sends, written by
// protocol's encoders), cut into chunks at every offset: the packets must come out the
// same whatever the network did. Covers raw and compressed blocks, Log blocks (always
// raw), ProfileEvents, TableColumns and an unknown packet id.
import {
  ByteWriter,
  ClickHouseError,
  type CompressionCodecs,
  defaultValueMapping,
  InputArena,
  ProtocolError,
} from '@clickwire/protocol'
import { nodeCompression } from '@clickwire/protocol/compression-node'
import { FrameWriter } from '@clickwire/protocol/frames'
import { NativeBlockWriter } from '@clickwire/protocol/insert'
import { encodeServerPacket, type ServerPacket } from '@clickwire/protocol/internal'
import { beforeAll, describe, expect, it } from 'vitest'
import { logEntries } from './native-query-stream.js'
import { type IncomingPacket, PacketPump } from './packet-pump.js'
import type { SocketChannel } from './socket-channel.js'

let codecs: CompressionCodecs

beforeAll(async () => {
  codecs = await nodeCompression()
})

/** A stand-in for the socket: hands the pump one chunk per wait, as a socket would. */
const seen: string[] = []
function channelOf(chunks: Uint8Array[]): SocketChannel {
  seen.length = 0
  let next = 0
  const channel = {
    arena: new InputArena(1024),
    readAheadBytes: 1 << 20,
    wanted: 1 << 20,
    lastReadDrained: true,
    async more() {
      const chunk = chunks[next++]
      if (chunk === undefined)
        throw new Error(
          `the stream ended (chunk ${next} of ${chunks.length}, arena ${channel.arena.length}, seen ${seen.join(',')})`,
        )
      channel.arena.push(chunk.slice())
    },
  }
  return channel as unknown as SocketChannel
}

const logColumns = (rows: number) => [
  { name: 'event_time', type: 'DateTime', values: Array(rows).fill(1_600_000_000) },
  { name: 'event_time_microseconds', type: 'UInt32', values: Array(rows).fill(42) },
  { name: 'host_name', type: 'String', values: Array(rows).fill('vm') },
  { name: 'query_id', type: 'String', values: Array(rows).fill('q1') },
  { name: 'thread_number', type: 'UInt32', values: Array(rows).fill(7) },
  { name: 'priority', type: 'Int8', values: Array(rows).fill(3) },
  { name: 'source', type: 'String', values: Array(rows).fill('executeQuery') },
  { name: 'text', type: 'String', values: Array.from({ length: rows }, (_, i) => `line ${i}`) },
]

/** A server's answer to a query at `revision`, with blocks compressed or not. */
function serverStream(revision: number, compressed: boolean): Uint8Array {
  const writer = new ByteWriter(1024)
  const context = { revision, timezone: 'UTC', mapping: defaultValueMapping }
  const packet = (value: ServerPacket) => encodeServerPacket(writer, value, revision)
  const block = (
    columns: { name: string; type: string; values: unknown[] }[],
    rows: number,
    compress: boolean,
  ) => {
    const blocks = new NativeBlockWriter(context, true)
    if (!compress) return blocks.write(writer, columns, rows)
    const frames = new FrameWriter(writer, codecs, { method: 'lz4', frameSize: 4096 })
    blocks.write(frames.input, columns, rows)
    frames.flush()
  }
  const numbers = (rows: number, from: number) => [
    { name: 'n', type: 'UInt64', values: Array.from({ length: rows }, (_, i) => BigInt(from + i)) },
    { name: 's', type: 'String', values: Array.from({ length: rows }, (_, i) => `value ${from + i}`) },
  ]
  packet({ type: 'TableColumns', table: '', columns: 'columns format version: 1\n0 columns:\n' })
  packet({ type: 'Data', table: '' })
  block(numbers(0, 0), 0, compressed)
  packet({ type: 'Log', table: '' })
  block(logColumns(2), 2, false)
  packet({
    type: 'Progress',
    rows: 10,
    bytes: 80,
    totalRows: 2000,
    totalBytes: 0,
    writtenRows: 0,
    writtenBytes: 0,
    elapsedNs: 5,
  })
  packet({ type: 'Data', table: '' })
  // Big enough to span several 4 KiB frames.
  block(numbers(400, 0), 400, compressed)
  if (revision >= 54451) {
    packet({ type: 'ProfileEvents', table: '' })
    block(
      [
        { name: 'name', type: 'String', values: ['SelectedRows'] },
        { name: 'value', type: 'UInt64', values: [400n] },
      ],
      1,
      false,
    )
  }
  packet({ type: 'Data', table: '' })
  block(numbers(3, 400), 3, compressed)
  packet({
    type: 'ProfileInfo',
    rows: 403,
    blocks: 2,
    bytes: 9,
    appliedLimit: false,
    rowsBeforeLimit: 0,
    calculatedRowsBeforeLimit: false,
    appliedAggregation: false,
    rowsBeforeAggregation: 0,
  })
  packet({
    type: 'Exception',
    error: new ClickHouseError({ code: 395, type: 'DB::Exception', message: 'it failed' }),
  })
  return writer.copy()
}

/** What the consumer sees of a packet, comparable across runs. */
function summary(packet: IncomingPacket): unknown {
  if ('block' in packet) {
    const rows = packet.block.rows
    return {
      type: packet.type,
      rows,
      columns: packet.block.columns.map((column) => [
        column.name,
        column.typeName,
        Array.from({ length: rows }, (_, i) => column.column.get(i)),
      ]),
    }
  }
  if (packet.type === 'Exception')
    return { type: 'Exception', code: packet.error.code, message: packet.error.message }
  return packet
}

async function readAll(chunks: Uint8Array[], revision: number, compressed: boolean): Promise<unknown[]> {
  const channel = channelOf(chunks)
  const pump = new PacketPump(
    channel,
    revision,
    { revision, timezone: 'UTC', mapping: defaultValueMapping },
    compressed ? codecs : undefined,
  )
  const packets: unknown[] = []
  for (;;) {
    const packet = await pump.next()
    seen.push(packet.type)
    packets.push(summary(packet))
    if (packet.type === 'Exception') break
  }
  expect(channel.arena.length).toBe(0)
  expect(pump.received).toBe(packets.length)
  return packets
}

describe('PacketPump', () => {
  for (const revision of [54412, 54460]) {
    for (const compressed of [false, true]) {
      it(`reads the same packets however the stream is cut (revision ${revision}, ${compressed ? 'LZ4' : 'raw'} blocks)`, async () => {
        const bytes = serverStream(revision, compressed)
        const whole = await readAll([bytes], revision, compressed)
        const types = whole.map((packet) => (packet as { type: string }).type)
        expect(types).toEqual([
          'TableColumns',
          'Data',
          'Log',
          'Progress',
          'Data',
          ...(revision >= 54451 ? ['ProfileEvents'] : []),
          'Data',
          'ProfileInfo',
          'Exception',
        ])
        expect(whole[2]).toEqual({
          type: 'Log',
          rows: 2,
          columns: logColumns(2).map((column) => [
            column.name,
            column.type,
            column.type === 'DateTime' ? ['2020-09-13 12:26:40', '2020-09-13 12:26:40'] : column.values,
          ]),
        })
        expect(whole.at(-1)).toEqual({ type: 'Exception', code: 395, message: 'it failed' })
        // Split in two at every offset (a stride keeps the count modest on long streams).
        const stride = Math.max(1, Math.floor(bytes.length / 200))
        for (let cut = 1; cut < bytes.length; cut += cut < 64 ? 1 : stride) {
          expect(await readAll([bytes.subarray(0, cut), bytes.subarray(cut)], revision, compressed)).toEqual(
            whole,
          )
        }
        // And in small pieces throughout.
        for (const size of [1, 7, 100, 4099]) {
          const pieces: Uint8Array[] = []
          for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size))
          expect(await readAll(pieces, revision, compressed)).toEqual(whole)
        }
      })
    }
  }

  it('turns Log blocks into log entries', async () => {
    const writer = new ByteWriter(256)
    encodeServerPacket(writer, { type: 'Log', table: '' }, 54412)
    new NativeBlockWriter({ revision: 54412, timezone: 'UTC', mapping: defaultValueMapping }, true).write(
      writer,
      logColumns(1),
      1,
    )
    const pump = new PacketPump(
      channelOf([writer.copy()]),
      54412,
      { revision: 54412, timezone: 'UTC', mapping: defaultValueMapping },
      undefined,
    )
    const packet = await pump.next()
    expect(packet.type).toBe('Log')
    expect(logEntries((packet as { block: Parameters<typeof logEntries>[0] }).block)).toEqual([
      {
        time: '2020-09-13 12:26:40.000042',
        hostName: 'vm',
        queryId: 'q1',
        threadId: 7,
        priority: 3,
        source: 'executeQuery',
        text: 'line 0',
      },
    ])
  })

  it('refuses an unknown packet id', async () => {
    const pump = new PacketPump(
      channelOf([new Uint8Array([99])]),
      54412,
      { revision: 54412, timezone: 'UTC', mapping: defaultValueMapping },
      undefined,
    )
    await expect(pump.next()).rejects.toThrow(ProtocolError)
    const again = new PacketPump(
      channelOf([new Uint8Array([99])]),
      54412,
      { revision: 54412, timezone: 'UTC', mapping: defaultValueMapping },
      undefined,
    )
    await expect(again.next()).rejects.toThrow('unknown server packet 99')
  })
})
