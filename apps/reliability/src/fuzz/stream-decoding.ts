import { ResultSet } from '@clickwire/client'
import { NativeResult } from '@clickwire/http/internal'
import {
  type NativeConnection,
  NativeQueryStream,
  PacketPump,
  type SocketChannel,
} from '@clickwire/native/internal'
import {
  type BlockStream,
  ClickHouseError,
  type CodecContext,
  type CompressionCodecs,
  ConnectionError,
  clientRevision,
  defaultValueMapping,
  emptyProgress,
  type NativeBlock,
  ProtocolError,
  rowObjects,
} from '@clickwire/protocol'
import { negotiatedRevision } from '@clickwire/protocol/internal'
import { ScriptedBody, ScriptedChannel } from './scripted-input.js'

/** What a stream decoded to, in order, and how it ended. */
export interface StreamShape {
  /** `Hello`, `columns ...`, `Data <rows>`, `Totals`, `Progress`, `EndOfStream`, `ClickHouseError <code>`, ... */
  readonly events: string[]
  /** Every decoded value, in order, as text (only when asked for: it costs). */
  readonly values: string[]
  /** The error the stream ended with, if any. */
  readonly error: unknown
}

let codecs: Promise<CompressionCodecs> | undefined

/** The LZ4/ZSTD codecs the native transport uses in Node. */
export function nodeCodecs(): Promise<CompressionCodecs> {
  codecs ??= import('@clickwire/protocol/compression-node').then((module) => module.nodeCompression())
  return codecs
}

function text(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()
  if (value instanceof Uint8Array) return `bytes:${Array.from(value).join(',')}`
  if (value instanceof Map)
    return `Map{${Array.from(value, ([key, each]) => `${text(key)}:${text(each)}`).join(',')}}`
  if (Array.isArray(value) || ArrayBuffer.isView(value))
    return `[${Array.from(value as ArrayLike<unknown>, text).join(',')}]`
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, each]) => `${key}:${text(each)}`)
      .join(',')}}`
  }
  return String(value)
}

/** Touches every value of a block the way a consumer would (row objects). */
function consume(block: NativeBlock, values: string[] | undefined): void {
  const rows = rowObjects(block)
  if (values) for (const row of rows) values.push(text(row))
}

function errorEvent(error: unknown): string {
  if (ClickHouseError.isInstance(error)) return `ClickHouseError ${error.code}`
  return (error as Error)?.name ?? typeof error
}

/**
 * Reads a result the way `@clickwire/client` does: the stream's columns, then a ResultSet
 * over it, block by block, each block turned into row objects.
 */
async function readResult(
  stream: BlockStream,
  events: string[],
  values: string[] | undefined,
): Promise<void> {
  const meta = await stream.columns()
  events.push(`columns ${meta.map((column) => `${column.name} ${column.type}`).join(', ')}`)
  const result = new ResultSet(stream, { meta, timezone: 'UTC' })
  for await (const block of result.blocks()) {
    events.push(`Data ${block.rowCount}`)
    consume(block.native, values)
  }
}

/**
 * Decodes what a server sent on a native connection (its Hello, then the answer to one
 * query) the way the native transport does: NativeConnection's handshake steps, then a
 * PacketPump at the negotiated revision under a NativeQueryStream, read through a
 * ResultSet. The input comes from a ScriptedChannel instead of a socket.
 */
export async function decodeNativeStream(
  chunks: readonly Uint8Array[],
  compression: 'none' | 'lz4',
  script: { drained?: readonly boolean[]; end?: 'close' | 'reset'; values?: boolean } = {},
): Promise<StreamShape> {
  const events: string[] = []
  const values = script.values ? [] : undefined
  const channel = new ScriptedChannel(chunks, script.drained, script.end)
  const socket = channel as unknown as SocketChannel
  const frames = compression === 'lz4' ? await nodeCodecs() : undefined
  try {
    // NativeConnection.open: the Hello is read at the client's revision, without a time zone yet.
    const hello = await new PacketPump(
      socket,
      clientRevision,
      { revision: 0, timezone: 'UTC', mapping: defaultValueMapping },
      undefined,
    ).next()
    if (hello.type === 'Exception') throw hello.error
    if (hello.type !== 'Hello') throw new ProtocolError(`expected the server Hello, got ${hello.type}`)
    events.push('Hello')
    const revision = negotiatedRevision(clientRevision, hello.revision)
    const context: CodecContext = { revision, timezone: hello.timezone, mapping: defaultValueMapping }
    const pump = new PacketPump(socket, revision, context, frames)
    pump.reset()
    const connection = {
      pump,
      channel: socket,
      revision,
      async receive() {
        return pump.next()
      },
      finish() {},
      fail() {},
      async sendCancel() {},
    }
    const stream = new NativeQueryStream(
      connection as unknown as NativeConnection,
      'fuzz',
      {
        onProgress: () => void events.push('Progress'),
        onProfileInfo: () => void events.push('ProfileInfo'),
        onTotals: (block) => {
          events.push(`Totals ${block.rows}`)
          consume(block, values)
        },
        onExtremes: (block) => {
          events.push(`Extremes ${block.rows}`)
          consume(block, values)
        },
        onLog: (entries) => void events.push(`Log ${entries.length}`),
        onProfileEvents: (block) => consume(block, undefined),
      },
      () => {},
      undefined,
    )
    await stream.started()
    await readResult(stream, events, values)
    events.push('EndOfStream')
    return { events, values: values ?? [], error: undefined }
  } catch (error) {
    events.push(errorEvent(error))
    return { events, values: values ?? [], error }
  }
}

/**
 * Decodes a `FORMAT Native` HTTP body the way the HTTP transport does: a NativeResult
 * (AlignedNativeDecoder and the exception-trailer checks) read through a ResultSet. The
 * body comes from a ScriptedBody instead of the Node backend; a body that breaks off fails the way
 * the transport reports it (a ConnectionError).
 */
export async function decodeHttpBody(
  chunks: readonly Uint8Array[],
  script: {
    failure?: Error | undefined
    batches?: readonly number[]
    exceptionTag?: string | undefined
    values?: boolean
  } = {},
): Promise<StreamShape> {
  const events: string[] = []
  const values = script.values ? [] : undefined
  const body = new ScriptedBody(chunks, script.failure, script.batches ?? [1])
  const result = new NativeResult({
    queryId: 'fuzz',
    body,
    context: { revision: 0, timezone: 'UTC', mapping: defaultValueMapping },
    exceptionTag: script.exceptionTag,
    progress: emptyProgress,
    stop: async () => {},
    bodyError: (cause, detail) =>
      new ConnectionError(`${detail}: ${(cause as Error)?.message ?? String(cause)}`, { cause }),
    settle: () => {},
  })
  try {
    await readResult(result, events, values)
    events.push('End')
    return { events, values: values ?? [], error: undefined }
  } catch (error) {
    events.push(errorEvent(error))
    return { events, values: values ?? [], error }
  }
}
