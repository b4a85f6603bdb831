import { UsageError } from '../errors/usage-error.js'
import { ByteWriter } from '../io/byte-writer.js'
import { cityhash128Into } from './cityhash.js'
import type { CompressionCodecs } from './compression-codec.js'
import {
  type CompressionMethod,
  CompressionMethodByte,
  checksumSize,
  defaultFrameSize,
  frameOverhead,
  maxCompressedSize,
  setU32At,
} from './frame-format.js'

export interface FrameOptions {
  /** `lz4` (default, as ClickHouse), `zstd` or `none`. */
  method?: CompressionMethod
  /** Uncompressed bytes per frame (default 1 MiB, ClickHouse's `max_compress_block_size`). */
  frameSize?: number
}

function checkFrameSize(frameSize: number): number {
  if (!Number.isInteger(frameSize) || frameSize < 1 || frameSize > maxCompressedSize / 2) {
    throw new UsageError(`frameSize must be an integer from 1 to ${maxCompressedSize / 2}, got ${frameSize}`)
  }
  return frameSize
}

/**
 * Appends `data[start, end)` to `out` as one frame. The payload is compressed straight from
 * the input view; NONE copies the input once, other methods copy the codec's output once.
 */
export function writeFrame(
  out: ByteWriter,
  data: Uint8Array,
  start: number,
  end: number,
  method: CompressionMethod,
  codecs: CompressionCodecs,
): void {
  const size = end - start
  let payload: Uint8Array
  if (method === 'none') payload = data.subarray(start, end)
  else {
    const codec = codecs[method]
    if (codec === undefined) {
      throw new UsageError(
        `no ${method.toUpperCase()} codec was given (Node: nodeCompression(); browsers: zstd)`,
      )
    }
    payload = codec.compress(data.subarray(start, end))
  }
  const compressedSize = 9 + payload.length
  out.ensure(checksumSize + compressedSize)
  const bytes = out.bytes
  const at = out.offset
  bytes[at + checksumSize] = CompressionMethodByte[method]
  setU32At(bytes, at + checksumSize + 1, compressedSize)
  setU32At(bytes, at + checksumSize + 5, size)
  bytes.set(payload, at + frameOverhead)
  cityhash128Into(bytes, at + checksumSize, at + checksumSize + compressedSize, bytes, at)
  out.offset = at + checksumSize + compressedSize
}

/**
 * Appends `data[start, end)` to `out` as frames of at most `frameSize` uncompressed bytes
 * each. Nothing is written for empty input: ClickHouse never writes an empty frame.
 */
export function writeFrames(
  out: ByteWriter,
  data: Uint8Array,
  codecs: CompressionCodecs = {},
  options: FrameOptions = {},
  start = 0,
  end = data.length,
): void {
  const method = options.method ?? 'lz4'
  if (CompressionMethodByte[method] === undefined)
    throw new UsageError(`unknown compression method ${method}`)
  const frameSize = checkFrameSize(options.frameSize ?? defaultFrameSize)
  for (let at = start; at < end; at += frameSize) {
    writeFrame(out, data, at, Math.min(at + frameSize, end), method, codecs)
  }
}

/**
 * `data` as a stream of compressed frames (a `decompress=1` HTTP body, for one).
 *
 * @example
 * ```ts
 * const body = compressFrames(new TextEncoder().encode('1\tone\n'), 'lz4', await nodeCompression())
 * await fetch(`${url}/?query=INSERT+INTO+t+FORMAT+TSV&decompress=1`, { method: 'POST', body })
 * ```
 */
export function compressFrames(
  data: Uint8Array,
  method: CompressionMethod = 'lz4',
  codecs: CompressionCodecs = {},
  frameSize = defaultFrameSize,
): Uint8Array {
  const out = new ByteWriter(Math.min(data.length, frameSize) + frameOverhead + 64)
  writeFrames(out, data, codecs, { method, frameSize })
  return out.finish()
}

/**
 * Frames for an insert stream, filled the way encoders fill any {@link ByteWriter}: write
 * uncompressed bytes into {@link input} (a block encoder writes there directly, with no
 * intermediate copy), then {@link flush} compresses them into frames appended to the output
 * writer. Frames are cut every `frameSize` bytes, at flush time.
 *
 * @example
 * ```ts
 * const frames = new FrameWriter(packetWriter, codecs)
 * blockWriter.write(frames.input, block) // Native block bytes
 * frames.flush()                          // now in packetWriter as frames
 * ```
 */
export class FrameWriter {
  /** Where uncompressed bytes go; emptied by {@link flush}. */
  readonly input: ByteWriter
  readonly method: CompressionMethod
  readonly frameSize: number

  constructor(
    /** Receives the frames. */
    readonly output: ByteWriter,
    readonly codecs: CompressionCodecs = {},
    options: FrameOptions = {},
  ) {
    this.method = options.method ?? 'lz4'
    if (CompressionMethodByte[this.method] === undefined) {
      throw new UsageError(`unknown compression method ${this.method}`)
    }
    this.frameSize = checkFrameSize(options.frameSize ?? defaultFrameSize)
    if (this.method !== 'none' && codecs[this.method] === undefined) {
      throw new UsageError(`no ${this.method.toUpperCase()} codec was given (Node: nodeCompression())`)
    }
    this.input = new ByteWriter(Math.min(this.frameSize, 64 * 1024))
  }

  /** Uncompressed bytes compressed into frames so far (all flushes, this writer's life). */
  flushedBytes = 0

  /** Bytes waiting in {@link input}. */
  get pending(): number {
    return this.input.offset
  }

  /** Compresses what is in {@link input} into frames on the output and empties the input. */
  flush(): void {
    writeFrames(this.output, this.input.bytes, this.codecs, this, 0, this.input.offset)
    this.flushedBytes += this.input.offset
    this.input.reset()
  }

  /**
   * Compresses the whole frames in {@link input} once at least `frames` of them wait, and
   * keeps the partial last one there: the same frames as one {@link flush} at the end, but
   * the input stays a few frames large (instead of a whole block) and each frame is
   * compressed while its bytes are still in cache. Encoders call it between columns.
   */
  flushWholeFrames(frames = 4): void {
    const pending = this.input.offset
    if (pending < frames * this.frameSize) return
    const whole = pending - (pending % this.frameSize)
    writeFrames(this.output, this.input.bytes, this.codecs, this, 0, whole)
    this.flushedBytes += whole
    this.input.bytes.copyWithin(0, whole, pending)
    this.input.offset = pending - whole
  }
}
