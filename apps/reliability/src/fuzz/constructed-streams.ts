import {
  ByteWriter,
  type CodecContext,
  type CompressionCodecs,
  clientRevision,
  defaultValueMapping,
} from '@clickwire/protocol'
import { compressFrames } from '@clickwire/protocol/frames'
import { NativeBlockWriter } from '@clickwire/protocol/insert'
import { encodeServerPacket, type ServerPacket } from '@clickwire/protocol/internal'

/**
 * What a server at the client's own revision (`clientRevision`) sends for one query, built with the
 * protocol package's encoders because no such server runs here: its Hello, the header
 * block, two data blocks of types 18.16 lacks (Bool, Date32, DateTime64, Map, IPv4/IPv6,
 * 128/256-bit integers, LowCardinality(Nullable)), Progress with elapsed time,
 * ProfileEvents, ProfileInfo, and EndOfStream. It seeds the fuzzer at the revision 18.16
 * cannot reach (custom-serialization bytes, the newer Progress and Hello fields).
 */
export function modernNativeStream(frames?: CompressionCodecs): Uint8Array {
  const revision = clientRevision
  const context: CodecContext = { revision, timezone: 'Europe/Berlin', mapping: defaultValueMapping }
  const writer = new ByteWriter()
  const packet = (value: ServerPacket) => encodeServerPacket(writer, value, revision)
  packet({
    type: 'Hello',
    name: 'ClickHouse',
    versionMajor: 24,
    versionMinor: 8,
    revision,
    timezone: 'Europe/Berlin',
    displayName: 'modern',
    versionPatch: 1,
    passwordComplexityRules: [],
    nonce: undefined,
    chunkedSend: 'notchunked',
    chunkedReceive: 'notchunked',
    parallelReplicasProtocolVersion: 0,
    settings: [],
    queryPlanSerializationVersion: 0,
    clusterFunctionProtocolVersion: 0,
  })
  const blocks = new NativeBlockWriter(context, true)
  const data = (columns: Parameters<NativeBlockWriter['write']>[1], rows: number) => {
    packet({ type: 'Data', table: '' })
    if (!frames) {
      blocks.write(writer, columns, rows)
      return
    }
    const block = new ByteWriter()
    blocks.write(block, columns, rows)
    writer.raw(compressFrames(block.finish(), 'lz4', frames))
  }
  const columns = (rows: number, first: number) => {
    const ids = Array.from({ length: rows }, (_, index) => first + index)
    return [
      { name: 'id', type: 'UInt64', values: ids.map(BigInt) },
      { name: 'flag', type: 'Bool', values: ids.map((id) => id % 2 === 0) },
      { name: 'day', type: 'Date32', values: ids.map((id) => new Date(Date.UTC(1950, 0, 1 + id))) },
      {
        name: 'at',
        type: 'DateTime64(3)',
        values: ids.map((id) => new Date(Date.UTC(2024, 0, 1, 0, 0, id, id))),
      },
      {
        name: 'tags',
        type: 'Map(String, UInt64)',
        values: ids.map((id) => new Map([[`k${id}`, BigInt(id)]])),
      },
      { name: 'v4', type: 'IPv4', values: ids.map((id) => `10.0.0.${id}`) },
      { name: 'v6', type: 'IPv6', values: ids.map((id) => `2001:db8::${id.toString(16)}`) },
      { name: 'big', type: 'Int128', values: ids.map((id) => -(10n ** 30n) * BigInt(id + 1)) },
      { name: 'huge', type: 'UInt256', values: ids.map((id) => 2n ** 200n + BigInt(id)) },
      {
        name: 'label',
        type: 'LowCardinality(Nullable(String))',
        values: ids.map((id) => (id % 3 ? `l${id % 2}` : null)),
      },
    ]
  }
  data(columns(0, 0), 0)
  data(columns(5, 0), 5)
  packet({
    type: 'Progress',
    rows: 5,
    bytes: 400,
    totalRows: 10,
    totalBytes: 0,
    writtenRows: 0,
    writtenBytes: 0,
    elapsedNs: 1_500_000,
  } as ServerPacket)
  data(columns(5, 5), 5)
  packet({ type: 'ProfileEvents', table: '' })
  // From revision 54481 a profile-events block is compressed like data, when compression is on.
  const events = new ByteWriter()
  new NativeBlockWriter(context, true).write(
    events,
    [
      { name: 'host_name', type: 'String', values: ['modern'] },
      { name: 'current_time', type: "DateTime('UTC')", values: [new Date(Date.UTC(2024, 0, 1))] },
      { name: 'thread_id', type: 'UInt64', values: [1n] },
      { name: 'type', type: "Enum8('increment' = 1, 'gauge' = 2)", values: ['increment'] },
      { name: 'name', type: 'String', values: ['SelectedRows'] },
      { name: 'value', type: 'Int64', values: [10n] },
    ],
    1,
  )
  writer.raw(frames ? compressFrames(events.finish(), 'lz4', frames) : events.finish())
  packet({
    type: 'ProfileInfo',
    rows: 10,
    blocks: 2,
    bytes: 800,
    appliedLimit: false,
    rowsBeforeLimit: 0,
    calculatedRowsBeforeLimit: false,
    appliedAggregation: false,
    rowsBeforeAggregation: 0,
  })
  packet({ type: 'EndOfStream' })
  return writer.finish()
}
