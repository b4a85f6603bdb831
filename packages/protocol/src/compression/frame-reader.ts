import { ProtocolError } from '../errors/protocol-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import { checksumHex, cityhash128Into } from './cityhash.js'
import type { CompressionCodecs } from './compression-codec.js'
import {
  CompressionMethodByte,
  checksumSize,
  defaultMaxUncompressedSize,
  frameHeaderSize,
  frameOverhead,
  maxCompressedSize,
  methodOfByte,
  u32At,
} from './frame-format.js'

export interface FrameReadOptions {
  /** Largest declared uncompressed size accepted per frame (default 1 GiB). */
  maxUncompressedSize?: number
  /** What the limit is, for the error (e.g. `maxBlockBytes (16777216)`); default `the limit of <n>`. */
  limitName?: string
}

/**
 * Where a frame may be decompressed to: `size` bytes of free memory the caller owns, at
 * `bytes[offset, offset + size)`. Used when the codec can decompress into memory
 * (CompressionCodec.decompressInto): the payload then is a view of it, with no allocation.
 */
export type FrameOutput = (size: number) => { readonly bytes: Uint8Array; readonly offset: number }

const computed = new Uint8Array(checksumSize)

function where(index: number, offset: number): string {
  return `compressed frame ${index} at byte ${offset}`
}

/**
 * The full length (checksum included) of the frame whose first 25 bytes are at
 * `bytes[start, start + 25)`, after checking that its header is possible.
 */
function frameLength(
  bytes: Uint8Array,
  start: number,
  maxUncompressed: number,
  index: number,
  offset: number,
  limitName?: string,
) {
  const methodByte = bytes[start + checksumSize]!
  const compressedSize = u32At(bytes, start + checksumSize + 1)
  const uncompressedSize = u32At(bytes, start + checksumSize + 5)
  const method = methodOfByte(methodByte)
  if (method === undefined) {
    throw new ProtocolError(
      `unknown compression method byte 0x${methodByte.toString(16).padStart(2, '0')} in ${where(index, offset)}`,
    )
  }
  if (compressedSize < frameHeaderSize || compressedSize > maxCompressedSize) {
    throw new ProtocolError(
      `impossible compressed size ${compressedSize} in ${where(index, offset)} (must be ${frameHeaderSize}..${maxCompressedSize})`,
    )
  }
  if (uncompressedSize > maxUncompressed) {
    throw new ProtocolError(
      `uncompressed size ${uncompressedSize} in ${where(index, offset)} is over ${limitName ?? `the limit of ${maxUncompressed}`}`,
    )
  }
  const payloadSize = compressedSize - frameHeaderSize
  // No codec makes data much larger (LZ4 and ZSTD add under 1/128 plus a few bytes), so a
  // larger payload is a forged size that would make the reader wait for, and reserve, it.
  if (payloadSize > maxUncompressed + (maxUncompressed >>> 7) + 1024) {
    throw new ProtocolError(
      `compressed size ${compressedSize} in ${where(index, offset)} is more than a frame of at most ${maxUncompressed} bytes can take`,
    )
  }
  if (method === 'none' && uncompressedSize !== payloadSize) {
    throw new ProtocolError(
      `NONE ${where(index, offset)} declares ${uncompressedSize} bytes but carries ${payloadSize}`,
    )
  }
  // An LZ4 sequence yields at most 255 bytes per input byte; more is a forged header that
  // would only make the decoder allocate.
  if (method === 'lz4' && uncompressedSize > payloadSize * 255 + 255) {
    throw new ProtocolError(
      `LZ4 ${where(index, offset)} declares ${uncompressedSize} bytes from ${payloadSize}, more than LZ4 can expand`,
    )
  }
  return checksumSize + compressedSize
}

/**
 * Verifies and decompresses the complete frame at `bytes[start, start + length)`. NONE
 * payloads are views of `bytes`; LZ4 and ZSTD decode from a view, with no copy.
 */
function decodeFrame(
  bytes: Uint8Array,
  start: number,
  length: number,
  codecs: CompressionCodecs,
  index: number,
  offset: number,
  output?: FrameOutput,
): Uint8Array {
  const blockStart = start + checksumSize
  const end = start + length
  cityhash128Into(bytes, blockStart, end, computed, 0)
  for (let i = 0; i < checksumSize; i++) {
    if (computed[i] !== bytes[start + i]) {
      throw new ProtocolError(
        `checksum mismatch in ${where(index, offset)} (${length - checksumSize} bytes after the checksum):` +
          ` expected ${checksumHex(bytes, start)}, actual ${checksumHex(computed)}`,
      )
    }
  }
  const methodByte = bytes[blockStart]!
  if (methodByte === CompressionMethodByte.none) return bytes.subarray(blockStart + frameHeaderSize, end)
  const uncompressedSize = u32At(bytes, blockStart + 5)
  const method = methodByte === CompressionMethodByte.lz4 ? 'lz4' : 'zstd'
  const codec = codecs[method]
  if (codec === undefined) {
    throw new ProtocolError(
      `${where(index, offset)} uses ${method.toUpperCase()}, but no ${method.toUpperCase()} codec was given` +
        (method === 'lz4' ? ' (use nodeCompression(), or ask the server for ZSTD)' : ''),
    )
  }
  let payload: Uint8Array
  try {
    if (output && codec.decompressInto && uncompressedSize > 0) {
      const target = output(uncompressedSize)
      codec.decompressInto(bytes.subarray(blockStart, end), uncompressedSize, target.bytes, target.offset)
      payload = target.bytes.subarray(target.offset, target.offset + uncompressedSize)
    } else payload = codec.decompress(bytes.subarray(blockStart, end), uncompressedSize)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new ProtocolError(`cannot decompress ${method.toUpperCase()} ${where(index, offset)}: ${reason}`, {
      cause: error,
    })
  }
  if (payload.length !== uncompressedSize) {
    throw new ProtocolError(
      `${method.toUpperCase()} ${where(index, offset)} decompressed to ${payload.length} bytes, the header says ${uncompressedSize}`,
    )
  }
  return payload
}

/**
 * Reads one frame from `reader` and returns its uncompressed bytes. When the window holds
 * less than the whole frame it returns undefined, consumes nothing and records in
 * `reader.missing` where the frame ends (or where its header ends, while that is short).
 * Corrupt frames throw {@link ProtocolError}.
 */
export function readFrame(
  reader: ByteReader,
  codecs: CompressionCodecs,
  options: FrameReadOptions & { frameIndex?: number; output?: FrameOutput | undefined } = {},
): Uint8Array | undefined {
  const start = reader.offset
  if (reader.limit - start < frameOverhead) {
    reader.need(start + frameOverhead)
    return undefined
  }
  const index = options.frameIndex ?? 0
  const max = options.maxUncompressedSize ?? defaultMaxUncompressedSize
  const length = frameLength(reader.bytes, start, max, index, start, options.limitName)
  if (reader.limit - start < length) {
    reader.need(start + length)
    return undefined
  }
  const payload = decodeFrame(reader.bytes, start, length, codecs, index, start, options.output)
  reader.offset = start + length
  return payload
}

/**
 * Decompresses a whole buffer of frames (a `compress=1` HTTP body, a MergeTree `.bin`
 * file) into one array. A single frame's payload is returned as is (a view of `bytes` for
 * NONE); several are concatenated. Truncated or corrupt input throws {@link ProtocolError}.
 */
export function decompressFrames(
  bytes: Uint8Array,
  codecs: CompressionCodecs = {},
  options: FrameReadOptions = {},
): Uint8Array {
  const max = options.maxUncompressedSize ?? defaultMaxUncompressedSize
  const payloads: Uint8Array[] = []
  let total = 0
  let at = 0
  for (let index = 0; at < bytes.length; index++) {
    if (bytes.length - at < frameOverhead) {
      throw new ProtocolError(`input ends inside the header of ${where(index, at)}`)
    }
    const length = frameLength(bytes, at, max, index, at, options.limitName)
    if (bytes.length - at < length) {
      throw new ProtocolError(
        `input ends inside ${where(index, at)}: ${bytes.length - at} of ${length} bytes`,
      )
    }
    const payload = decodeFrame(bytes, at, length, codecs, index, at)
    payloads.push(payload)
    total += payload.length
    at += length
  }
  if (payloads.length === 1) return payloads[0]!
  const out = new Uint8Array(total)
  let offset = 0
  for (const payload of payloads) {
    out.set(payload, offset)
    offset += payload.length
  }
  return out
}

/** Partial-frame buffers up to this size are kept for the next partial frame. */
const reusableSize = 4 << 20
/**
 * Frames up to this size get their whole buffer at once (every normal frame: writers cut
 * at 1 MiB). Larger declared sizes grow by doubling as bytes arrive, so a forged header
 * cannot make us allocate a gigabyte for bytes that never come.
 */
const eagerSize = 8 << 20

/**
 * Decodes a stream of frames that arrives in chunks of any size (1 byte to megabytes).
 *
 * Frames lying whole inside a pushed chunk are verified and decompressed from a view of the
 * chunk. Only a frame split across chunks is gathered, each byte copied once, into a buffer
 * of the frame's size. Running out of input is not an error: `push` returns the frames
 * completed so far and {@link needed} says how many more bytes the current frame needs.
 * Corrupt input throws {@link ProtocolError}, and the decoder stays failed.
 *
 * Payloads of NONE frames are views of the pushed chunks (or of a buffer handed over with
 * them): do not reuse a chunk's memory after pushing it.
 *
 * @example
 * ```ts
 * const frames = new FrameDecoder(await nodeCompression())
 * for await (const chunk of body) for (const bytes of frames.push(chunk)) consume(bytes)
 * frames.finish() // throws if the stream stopped inside a frame
 * ```
 */
export class FrameDecoder {
  private readonly maxUncompressed: number
  private readonly limitName: string | undefined
  private readonly header = new Uint8Array(frameOverhead)
  private partial = new Uint8Array(0)
  /** Bytes of the current frame gathered so far; 0 between frames. */
  private have = 0
  /** The current frame's length once its header is complete; 0 before. */
  private length = 0
  private index = 0
  private position = 0
  private failure: unknown

  constructor(
    readonly codecs: CompressionCodecs = {},
    options: FrameReadOptions = {},
  ) {
    this.maxUncompressed = options.maxUncompressedSize ?? defaultMaxUncompressedSize
    this.limitName = options.limitName
  }

  /**
   * Bytes still needed to finish the current frame: exact once its 25-byte header has
   * arrived, until then the bytes needed to complete the header. 0 between frames.
   */
  get needed(): number {
    if (this.have === 0) return 0
    return (this.length === 0 ? frameOverhead : this.length) - this.have
  }

  /** Frames decoded so far. */
  get frames(): number {
    return this.index
  }

  /** Stream offset where the current (or next) frame starts. */
  get offset(): number {
    return this.position
  }

  /** Decodes the frames that `chunk` completes and returns their uncompressed bytes, in order. */
  push(chunk: Uint8Array): Uint8Array[] {
    if (this.failure !== undefined) throw this.failure
    const out: Uint8Array[] = []
    try {
      let at = 0
      const size = chunk.length
      if (this.have > 0) {
        at = this.continuePartial(chunk, out)
        if (this.have > 0) return out
      }
      while (size - at >= frameOverhead) {
        const length = frameLength(chunk, at, this.maxUncompressed, this.index, this.position, this.limitName)
        if (size - at < length) break
        out.push(decodeFrame(chunk, at, length, this.codecs, this.index, this.position))
        this.index++
        this.position += length
        at += length
      }
      if (at < size) this.startPartial(chunk, at)
    } catch (error) {
      this.failure = error
      throw error
    }
    return out
  }

  /** Checks that the stream ended between frames; throws {@link ProtocolError} if not. */
  finish(): void {
    if (this.failure !== undefined) throw this.failure
    if (this.have > 0) {
      const total = this.length === 0 ? 'its header' : `${this.length} bytes`
      this.failure = new ProtocolError(
        `compressed stream ends inside ${where(this.index, this.position)}: ${this.have} bytes of ${total}`,
      )
      throw this.failure
    }
  }

  private startPartial(chunk: Uint8Array, at: number): void {
    const rest = chunk.length - at
    if (rest < frameOverhead) {
      this.header.set(chunk.subarray(at), 0)
      this.have = rest
      this.length = 0
      return
    }
    this.length = frameLength(chunk, at, this.maxUncompressed, this.index, this.position, this.limitName)
    this.reservePartial(rest)
    this.partial.set(chunk.subarray(at), 0)
    this.have = rest
  }

  /** Adds the start of `chunk` to the current frame; returns how much of `chunk` it took. */
  private continuePartial(chunk: Uint8Array, out: Uint8Array[]): number {
    let at = 0
    if (this.length === 0) {
      const take = Math.min(frameOverhead - this.have, chunk.length)
      this.header.set(chunk.subarray(0, take), this.have)
      this.have += take
      at = take
      if (this.have < frameOverhead) return at
      this.length = frameLength(
        this.header,
        0,
        this.maxUncompressed,
        this.index,
        this.position,
        this.limitName,
      )
      this.reservePartial(frameOverhead)
      this.partial.set(this.header, 0)
    }
    const take = Math.min(this.length - this.have, chunk.length - at)
    this.reservePartial(this.have + take)
    this.partial.set(chunk.subarray(at, at + take), this.have)
    this.have += take
    at += take
    if (this.have === this.length) {
      const length = this.length
      const frame = this.partial
      out.push(decodeFrame(frame, 0, length, this.codecs, this.index, this.position))
      // A NONE payload is a view of the buffer: hand the buffer over with it.
      if (frame[checksumSize] === CompressionMethodByte.none || frame.length > reusableSize) {
        this.partial = new Uint8Array(0)
      }
      this.index++
      this.position += length
      this.have = 0
      this.length = 0
    }
    return at
  }

  /** Makes the partial buffer hold at least `size` bytes, keeping the bytes gathered so far. */
  private reservePartial(size: number): void {
    if (this.partial.length >= size) return
    const target =
      this.length <= eagerSize
        ? this.length
        : Math.min(this.length, Math.max(size, eagerSize, this.partial.length * 2))
    const next = new Uint8Array(target)
    if (this.have > 0) next.set(this.partial.subarray(0, this.have))
    this.partial = next
  }
}
