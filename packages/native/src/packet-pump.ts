import {
  BufferPool,
  ByteReader,
  type CodecContext,
  type CompressionCodecs,
  CompressionMethodByte,
  checksumSize,
  codecsPending,
  defaultMaxBlockBytes,
  InputArena,
  type NativeBlock,
  NativeBlockReader,
  ProtocolError,
} from '@clickwire/protocol'
import { readFrame } from '@clickwire/protocol/frames'
import {
  decodeServerPacket,
  type ServerBlockPacketType,
  type ServerPacket,
  ServerPacketId,
  serverBlockCompression,
  serverBodyCompressed,
  tableColumnsCodec,
} from '@clickwire/protocol/internal'
import type { TransportCodecs } from './compression-loader.js'
import type { Channel as SocketChannel } from './socket-channel-contract.js'

/** A server packet with its block, for the packets that carry one. */
export type IncomingPacket =
  | Exclude<ServerPacket, { type: ServerBlockPacketType }>
  | { readonly type: ServerBlockPacketType; readonly table: string; readonly block: NativeBlock }

const blockPacketTypes = new Set<string>(Object.keys(serverBlockCompression))

/**
 * Reads server packets from a connection's socket, one at a time as the consumer asks.
 *
 * Packets are decoded where they were received (the channel's arena). A decode that runs
 * short waits for what the reader said it needs (and, for big blocks, roughly the whole
 * block, unless the socket has gone quiet), so a large block is decoded once rather than
 * once per network read. Compressed blocks are decompressed frame by frame into a second
 * arena; a block that fits one frame is decoded straight from that frame's output.
 */
export class PacketPump {
  private readonly reader = new ByteReader()
  private readonly frameReader = new ByteReader()
  /** Decompressed bytes of compressed blocks. */
  private readonly plain = new InputArena(1 << 20)
  /** Where a frame may decompress to: free space after the pending plain bytes. */
  private readonly plainRoom = (size: number) => this.plain.room(size)
  /** One block reader per block kind: each keeps codec state across the blocks of its kind. */
  private readonly blockReaders = new Map<string, NativeBlockReader>()
  private header: { type: ServerBlockPacketType; table: string } | undefined
  /** A TableColumns id was read and its strings follow in a compressed frame (revision >= 54481). */
  private compressedTableColumns = false
  private frames = 0
  /** Receive memory reused while a consumer allows it (see {@link recycle}). */
  private readonly pool = new BufferPool()
  private recycling = false
  /** Index of the newest block packet started on this connection (they only grow). */
  blockIndex = 0
  /** Packets returned since the last {@link reset}: 0 means the server has not answered the request yet. */
  received = 0

  constructor(
    private readonly channel: SocketChannel,
    readonly revision: number,
    private readonly context: CodecContext,
    /** Codecs when the connection compresses blocks; undefined for none. */
    private readonly codecs: CompressionCodecs | undefined,
    /** The most bytes a block may take uncompressed (the `maxBlockBytes` option). */
    private readonly maxBlockBytes = defaultMaxBlockBytes,
  ) {
    // Socket reads, TLS chunks and decompressed frames: bytes nobody else holds.
    this.reader.ownsInput = true
  }

  /** A codec load the next wait must finish first (a ZSTD frame came before ZSTD was loaded). */
  private loading: Promise<void> | undefined

  /** Starts a new query: block codecs must not carry state from the previous one. */
  reset(): void {
    this.recycle(false)
    this.blockReaders.clear()
    this.header = undefined
    this.compressedTableColumns = false
    this.received = 0
  }

  /**
   * Whether the memory of blocks may be reused once the consumer releases them
   * ({@link releaseThrough}): the current query's consumer drops each block before asking
   * for the next. Off again at the next {@link reset}.
   */
  recycle(on: boolean): void {
    if (on === this.recycling) return
    this.recycling = on
    const pool = on ? this.pool : undefined
    this.channel.arena.recycleWith(pool)
    this.plain.recycleWith(pool)
    this.reader.scratch = pool?.scratch
  }

  /** The consumer is done with the blocks up to `blockIndex`: their memory may be reused. */
  releaseThrough(blockIndex: number): void {
    if (this.recycling) this.pool.release(blockIndex)
  }

  /**
   * A block that outlives the consumer's promise (totals, extremes) was decoded: nothing of
   * this query is reused any more.
   */
  pin(): void {
    this.recycle(false)
    this.pool.forgetRetired()
  }

  /** The next packet, waiting for the network as needed. */
  async next(): Promise<IncomingPacket> {
    for (;;) {
      let packet: IncomingPacket | undefined
      try {
        packet = this.tryNext()
      } catch (error) {
        // A block of a type whose codec loads on demand: decode it again once loaded.
        const loading = codecsPending(error)
        if (!loading) throw error
        await loading
        continue
      }
      if (packet !== undefined) {
        this.received++
        return packet
      }
      await this.waitForInput()
    }
  }

  /** The next packet if it has fully arrived already; never waits. */
  poll(): IncomingPacket | undefined {
    let packet: IncomingPacket | undefined
    try {
      packet = this.tryNext()
    } catch (error) {
      // Its codecs are loading: next() awaits them.
      if (codecsPending(error)) return undefined
      throw error
    }
    if (packet !== undefined) this.received++
    return packet
  }

  /** What the last short attempt needs: exact (`needed`) and estimated (`expected`), in bytes from the arena start. */
  private needed = 0
  /** Where a short fixed-width column starts (see ByteReader.align). */
  private align: { at: number; width: number } | undefined
  private expected = 0

  private tryNext(): IncomingPacket | undefined {
    const arena = this.channel.arena
    if (this.compressedTableColumns) {
      const packet = this.compressedBody('TableColumns', (reader) =>
        tableColumnsCodec.decodeBody(reader, this.revision),
      )
      if (packet !== undefined) this.compressedTableColumns = false
      return packet
    }
    if (this.header === undefined) {
      if (arena.length < Math.max(1, this.needed)) return undefined
      const reader = this.reader.reset(arena.bytes, arena.start, arena.end)
      if (this.codecs && serverBodyCompressed('TableColumns', this.revision)) {
        // From 54481 TableColumns is the one packet without a block whose body is compressed.
        const id = reader.varUInt()
        if (reader.short) {
          this.needed = arena.length + 1
          return undefined
        }
        if (id === ServerPacketId.TableColumns) {
          arena.consume(reader.offset)
          this.compressedTableColumns = true
          return this.tryNext()
        }
        reader.reset(arena.bytes, arena.start, arena.end)
      }
      const packet = decodeServerPacket(reader, this.revision)
      if (packet === undefined) {
        // Packets other than blocks are small: retry as soon as anything more arrives. Their
        // decoders' "missing" can overshoot (a read after a short fixed-width field starts
        // from the wrong place), and waiting for bytes the server never sends would stall
        // the last packet of an answer.
        this.needed = arena.length + 1
        this.expected = 0
        return undefined
      }
      arena.consume(reader.offset)
      this.needed = this.expected = 0
      if (!blockPacketTypes.has(packet.type)) return packet as IncomingPacket
      this.header = packet as { type: ServerBlockPacketType; table: string }
      this.pool.tag = ++this.blockIndex
    }
    const header = this.header
    const block =
      this.codecs && serverBodyCompressed(header.type, this.revision)
        ? this.compressedBody(header.type, (reader) => this.blockReader(header.type).read(reader))
        : this.rawBlock(header.type)
    if (block === undefined) return undefined
    this.header = undefined
    return { type: header.type, table: header.table, block }
  }

  private blockReader(type: string): NativeBlockReader {
    let reader = this.blockReaders.get(type)
    if (!reader) {
      reader = new NativeBlockReader(this.context, true, this.maxBlockBytes)
      this.blockReaders.set(type, reader)
    }
    return reader
  }

  private short(reader: ByteReader, start: number): undefined {
    this.needed = reader.missing - start
    // Room is reserved for the estimate, which nothing checks (the block reader checks what
    // is certain): capped at the limit.
    this.expected = Math.max(this.needed, Math.min(reader.expected - start, this.maxBlockBytes))
    this.align = reader.align
    return undefined
  }

  private rawBlock(type: string): NativeBlock | undefined {
    const arena = this.channel.arena
    if (arena.length < this.needed) return undefined
    const reader = this.reader.reset(arena.bytes, arena.start, arena.end)
    const block = this.blockReader(type).read(reader)
    if (block === undefined) return this.short(reader, arena.start)
    arena.consume(reader.offset)
    this.needed = this.expected = 0
    return block
  }

  /** Decodes a body (a block, or TableColumns' strings) from decompressed frames, taking frames as needed. */
  private compressedBody<Body>(
    type: string,
    decode: (reader: ByteReader) => Body | undefined,
  ): Body | undefined {
    const plain = this.plain
    const codecs = this.codecs!
    for (;;) {
      if (plain.length > 0) {
        const reader = this.reader.reset(plain.bytes, plain.start, plain.end)
        const block = decode(reader)
        if (block !== undefined) {
          plain.consume(reader.offset)
          if (plain.length !== 0) {
            // ClickHouse flushes the compressed stream after every block, so a block never
            // shares a frame with the next one.
            throw new ProtocolError(`${plain.length} bytes left in a compressed frame after a ${type} body`)
          }
          this.needed = this.expected = 0
          return block
        }
        plain.reserve(reader.missing - plain.start)
      }
      // More decompressed bytes are needed: take the next whole frame from the socket bytes.
      const arena = this.channel.arena
      if (this.zstdMissing(arena)) return undefined
      const frames = this.frameReader.reset(arena.bytes, arena.start, arena.end)
      // A codec that decompresses into memory writes straight after the pending plain
      // bytes (pooled memory while recycling): no array per frame.
      // A frame is checked against what is left of the block's limit before it is
      // decompressed: LZ4 expands up to 255 times, so 10 MB of frames may ask for 2.5 GB.
      const left = this.maxBlockBytes - plain.length
      const payload = readFrame(frames, codecs, {
        frameIndex: this.frames,
        output: this.plainRoom,
        maxUncompressedSize: left,
        limitName: `maxBlockBytes (${this.maxBlockBytes}) with ${plain.length} bytes of the ${type} before it`,
      })
      if (payload === undefined) return this.short(frames, arena.start)
      this.frames++
      arena.consume(frames.offset)
      if (payload.buffer === plain.bytes.buffer && payload.byteOffset === plain.bytes.byteOffset + plain.end)
        plain.commit(payload.length)
      else plain.push(payload)
    }
  }

  /**
   * Whether the next frame is ZSTD while only LZ4 is loaded: the load starts, and the
   * caller returns short so that {@link waitForInput} awaits it before trying again.
   */
  private zstdMissing(arena: InputArena): boolean {
    const codecs = this.codecs as Partial<TransportCodecs> | undefined
    if (codecs?.zstd !== undefined || codecs?.loadZstd === undefined) return false
    if (
      arena.length <= checksumSize ||
      arena.bytes[arena.start + checksumSize] !== CompressionMethodByte.zstd
    )
      return false
    this.loading = codecs.loadZstd()
    return true
  }

  private async waitForInput(): Promise<void> {
    if (this.loading) {
      const loading = this.loading
      this.loading = undefined
      await loading
      return
    }
    const channel = this.channel
    const arena = channel.arena
    // With the hint of a fixed-width column still arriving, the arena may move the little
    // that arrived of it so the rest lands aligned: the column is then a view, not a copy
    // (ch-bench uncompressed: a copy of every UInt64 column was a quarter of the client's time).
    arena.reserve(Math.max(this.expected, this.needed), this.align)
    this.align = undefined
    channel.wanted = Math.max(channel.readAheadBytes, this.expected)
    channel.expected = Math.max(this.expected, this.needed)
    do await channel.more()
    while (arena.length < this.needed || (arena.length < this.expected && !channel.lastReadDrained))
  }
}
