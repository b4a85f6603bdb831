import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls'
import {
  ByteWriter,
  CallDeadline,
  type CodecContext,
  type CompressionCodecs,
  loadCodecs,
  ProtocolError,
  Revision,
  type ServerInfo,
  type SettingValue,
  type TraceContext,
} from '@clickwire/protocol'
import { FrameWriter } from '@clickwire/protocol/frames'
import { type ColumnToWrite, NativeBlockWriter } from '@clickwire/protocol/insert'
import {
  cancelCodec,
  checkChunkedFraming,
  clientDataCodec,
  clientHelloCodec,
  encodeAddendum,
  negotiatedRevision,
  pingCodec,
} from '@clickwire/protocol/internal'
import { SocketChannel } from '#socket-channel'
import type { Poolable } from './connection-pool.js'
import { probeHttpPort } from './http-port-probe.js'
import type { HostAddress, NativeOptions } from './native-options.js'
import { type IncomingPacket, PacketPump } from './packet-pump.js'
import { clientVersion, writeQueryRequest } from './query-request.js'

/** What a connection knows about the server after the handshake. */
export interface ConnectedServer extends ServerInfo {
  readonly host: HostAddress
}

type State = 'idle' | 'busy' | 'broken' | 'closed'

/**
 * One native-protocol connection: the socket, the handshake, and packet-level requests. A
 * connection runs one request at a time; the transport and pool hand it out.
 */
export class NativeConnection implements Poolable {
  lastUsed = 0
  /** Requests begun on this connection; more than 1 means it was reused from the pool. */
  requests = 0
  /** Block bytes (as serialised, before compression) sent in the current request. */
  blockBytesSent = 0
  private state: State = 'idle'
  readonly pump: PacketPump
  readonly context: CodecContext
  /** Reused for every packet this connection sends. */
  private readonly writer = new ByteWriter(1 << 16)
  /** Compresses block bytes into frames appended to {@link writer}. */
  private frames: FrameWriter | undefined
  /**
   * The last byte of the data packet sent before, held back (`hold` of {@link sendData}):
   * it goes out in front of the next packet.
   */
  private heldByte: number | undefined

  private constructor(
    readonly channel: SocketChannel,
    readonly server: ConnectedServer,
    readonly revision: number,
    readonly options: NativeOptions,
    readonly codecs: CompressionCodecs | undefined,
    /**
     * The user's profile has `readonly = 1` (the Hello names the profile's settings from
     * revision 54474): the server then refuses every setting a query changes, so the
     * connection sends none of its own (the compression method among them).
     */
    readonly settingsLocked = false,
  ) {
    this.context = { revision, timezone: server.timezone, mapping: options.mapping }
    this.pump = new PacketPump(channel, revision, this.context, codecs, options.maxBlockBytes)
  }

  /** Connects and logs in. A refused login is a ClickHouseError (e.g. code 516/193). */
  static async open(
    host: HostAddress,
    options: NativeOptions,
    codecs: CompressionCodecs | undefined,
    signal?: AbortSignal,
  ): Promise<NativeConnection> {
    // One deadline for TCP, TLS and the Hello exchange together.
    const address = `${host.host}:${host.port}`
    const deadline = CallDeadline.forCall(
      'connect',
      options.connectTimeoutMs,
      signal,
      undefined,
      (limitMs) => `connecting to ${address} timed out after ${limitMs} ms (no Hello from the server)`,
    )
    const channel = await SocketChannel.open({
      host: host.host,
      port: host.port,
      // Node's TLS takes any Uint8Array where its types say Buffer (PemInput).
      tls: options.tls as TlsConnectionOptions | undefined,
      connectTimeoutMs: options.connectTimeoutMs,
      signal,
      readAheadBytes: options.readAheadBytes,
      readBufferSize: options.readBufferBytes,
      receiveTimeoutMs: options.receiveTimeoutMs,
    })
    try {
      const writer = new ByteWriter(256)
      clientHelloCodec.encode(
        writer,
        {
          clientName: options.clientName,
          versionMajor: clientVersion.major,
          versionMinor: clientVersion.minor,
          revision: options.protocolRevision,
          database: options.database,
          user: options.username,
          password: options.password,
        },
        options.protocolRevision,
      )
      await channel.write(writer.copy())
      const pump = new PacketPump(
        channel,
        options.protocolRevision,
        { revision: 0, timezone: 'UTC', mapping: options.mapping },
        undefined,
      )
      // Plain TCP only: over TLS an HTTPS port fails the TLS handshake or answers in kind.
      const probe = options.tls ? undefined : probeHttpPort(host.host, host.port)
      const hello = await deadline
        .wait(probe ? Promise.race([pump.next(), probe.detected]) : pump.next(), () => channel.destroy())
        .finally(() => probe?.stop())
      if (hello.type === 'Exception') throw hello.error
      if (hello.type !== 'Hello') throw new ProtocolError(`expected the server Hello, got ${hello.type}`)
      const revision = negotiatedRevision(options.protocolRevision, hello.revision)
      // clickwire frames packets only the classic way; a server that insists on chunks is refused here.
      if (revision >= Revision.withChunkedPackets) checkChunkedFraming(hello)
      if (revision >= Revision.withAddendum) {
        const addendum = new ByteWriter(64)
        encodeAddendum(addendum, { quotaKey: options.quotaKey }, revision)
        await channel.write(addendum.copy())
      }
      // Sparse columns (54465 on) and String columns in the size-stream layout (54492) decode
      // with the on-demand codecs: have them before the first block, so none is decoded twice.
      if (revision >= Revision.withSparseSerialization) await deadline.wait(loadCodecs())
      const server: ConnectedServer = {
        host,
        name: hello.name,
        version: `${hello.versionMajor}.${hello.versionMinor}.${hello.versionPatch}`,
        revision,
        timezone: hello.timezone,
        displayName: hello.displayName,
      }
      channel.ref(false)
      const locked =
        hello.settings?.some((setting) => setting.name === 'readonly' && setting.value === '1') ?? false
      return new NativeConnection(channel, server, revision, options, codecs, locked)
    } catch (error) {
      channel.destroy()
      throw error
    }
  }

  get reusable(): boolean {
    return this.state === 'idle' && this.channel.open
  }

  /** Set while a cancelled or timed-out request drains (see {@link Poolable.draining}). */
  draining = false

  get busy(): boolean {
    return this.state === 'busy'
  }

  /** Marks the connection as running a request. */
  begin(): void {
    if (this.state !== 'idle') throw new ProtocolError(`the connection is ${this.state}`)
    this.state = 'busy'
    this.draining = false
    this.requests++
    this.blockBytesSent = 0
    this.heldByte = undefined
    this.channel.ref(true)
    this.pump.reset()
  }

  /** The request ended with the protocol in a clean state. */
  finish(): void {
    if (this.state === 'busy') this.state = 'idle'
    this.channel.ref(false)
  }

  /** The protocol state is unknown: never reuse this connection. */
  fail(error?: Error): void {
    if (this.state !== 'closed') this.state = 'broken'
    this.channel.destroy(error)
  }

  /** Sends bytes; a failure breaks the connection. */
  async send(bytes: Uint8Array): Promise<void> {
    try {
      await this.channel.write(bytes)
    } catch (error) {
      this.fail(error as Error)
      throw error
    }
  }

  /** Sends the Query packet. */
  async sendQuery(input: {
    queryId: string
    sql: string
    settings: readonly { name: string; value: SettingValue }[]
    parameters: readonly { name: string; value: string }[]
    traceContext?: TraceContext | undefined
  }): Promise<void> {
    const writer = this.writer.reset()
    writeQueryRequest(
      writer,
      {
        ...input,
        compression: this.codecs !== undefined,
        clientName: this.options.clientName,
        quotaKey: this.options.quotaKey,
      },
      this.revision,
    )
    await this.send(writer.copy())
  }

  /**
   * Sends a Data packet: the table name, then the block (compressed into frames when the
   * connection compresses). An empty `columns` list with 0 rows is the end marker.
   *
   * With `hold`, the packet's last byte stays back until the next packet goes out. An insert
   * holds back every block's last byte, so that whenever it stops before its end marker the
   * server has a block cut short, which every generation takes as an error: 18.16 takes data
   * that simply ends at a packet boundary (the socket closed) as the end of the insert, and
   * stores it.
   */
  async sendData(
    table: string,
    columns: readonly ColumnToWrite[],
    rows: number,
    blockWriter: NativeBlockWriter = new NativeBlockWriter(this.context, true),
    hold = false,
  ): Promise<void> {
    await this.sendDataPacket(table, hold, (out, flushSome) =>
      blockWriter.write(out, columns, rows, undefined, flushSome),
    )
  }

  /**
   * Sends a Data packet whose block was encoded before (a NativeBlockWriter with BlockInfo,
   * this connection's context), as {@link sendData} does.
   */
  async sendEncodedData(table: string, block: Uint8Array, hold = false): Promise<void> {
    if (this.codecs || block.length === 0) {
      await this.sendDataPacket(table, hold, (out) => out.raw(block))
      return
    }
    // Uncompressed, the block goes out as it is, after its packet header: copying a block of
    // megabytes into the packet writer cost an in-memory insert a quarter of its time.
    const writer = this.writer.reset()
    if (this.heldByte !== undefined) writer.u8(this.heldByte)
    this.heldByte = undefined
    clientDataCodec.encode(writer, { table }, this.revision)
    this.blockBytesSent += block.length
    const header = writer.finish()
    const body = hold ? block.subarray(0, block.length - 1) : block
    if (hold) this.heldByte = block[block.length - 1]
    // Both writes queue on the socket at once; the writer is reused only after both resolve.
    await Promise.all([this.send(header), this.send(body)])
  }

  private async sendDataPacket(
    table: string,
    hold: boolean,
    writeBlock: (out: ByteWriter, flushSome?: () => void) => void,
  ): Promise<void> {
    const writer = this.writer.reset()
    if (this.heldByte !== undefined) writer.u8(this.heldByte)
    this.heldByte = undefined
    clientDataCodec.encode(writer, { table }, this.revision)
    if (this.codecs) {
      const frames = (this.frames ??= new FrameWriter(this.writer, this.codecs, {
        method: this.options.compression,
      }))
      // Nothing left over from a block whose encoding failed.
      frames.input.reset()
      const before = frames.flushedBytes
      // Whole frames are compressed between columns: the input stays a few frames large.
      writeBlock(frames.input, () => frames.flushWholeFrames())
      frames.flush()
      this.blockBytesSent += frames.flushedBytes - before
    } else {
      const start = writer.offset
      writeBlock(writer)
      this.blockBytesSent += writer.offset - start
    }
    const bytes = writer.finish()
    if (!hold) return this.send(bytes)
    this.heldByte = bytes[bytes.length - 1]
    await this.send(bytes.subarray(0, bytes.length - 1))
  }

  /** Asks the server to stop the running query (it answers with EndOfStream or an Exception). */
  async sendCancel(): Promise<void> {
    const writer = new ByteWriter(8)
    cancelCodec.encode(writer, {}, this.revision)
    await this.send(writer.copy())
  }

  /** Ping/Pong on an idle connection. */
  async ping(signal?: AbortSignal): Promise<void> {
    this.begin()
    try {
      const writer = new ByteWriter(8)
      pingCodec.encode(writer, {}, this.revision)
      await this.send(writer.copy())
      // A healthy server answers a ping as fast as it accepts a connection.
      const deadline = CallDeadline.forCall('ping', this.options.connectTimeoutMs, signal, undefined)
      for (;;) {
        const packet = await deadline.wait(this.pump.next(), () => this.fail())
        if (packet.type === 'Pong') break
        // Progress/Log/ProfileEvents may trail a previous query on some servers; anything else is a desync.
        if (packet.type !== 'Progress' && packet.type !== 'Log' && packet.type !== 'ProfileEvents') {
          throw new ProtocolError(`expected Pong, got ${packet.type}`)
        }
      }
      this.finish()
    } catch (error) {
      this.fail(error as Error)
      throw error
    }
  }

  /** The next packet of the running request. Unknown/invalid input breaks the connection. */
  async receive(): Promise<IncomingPacket> {
    try {
      return await this.pump.next()
    } catch (error) {
      this.fail(error as Error)
      throw error
    }
  }

  /** A packet that has already arrived, without waiting (used to notice errors mid-insert). */
  poll(): IncomingPacket | undefined {
    try {
      return this.pump.poll()
    } catch (error) {
      this.fail(error as Error)
      throw error
    }
  }

  async close(): Promise<void> {
    this.state = 'closed'
    await this.channel.close()
  }

  destroy(): void {
    this.state = 'closed'
    this.channel.destroy()
  }

  toString(): string {
    return `NativeConnection(${this.channel.address}, ${this.state}, revision ${this.revision})`
  }

  // The options hold the password: never print them.
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString()
  }
}
