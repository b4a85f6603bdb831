import type { CompressionCodec, CompressionCodecs } from './compression-codec.js'
import { loadZstd, type ZstdOptions, zstdCodec } from './compression-portable.js'

/** The part of `lz4-napi` clickwire uses (typed here: its own types need Node's). */
export interface Lz4Addon {
  compressSync(data: Uint8Array): Uint8Array
  uncompressSync(data: Uint8Array): Uint8Array
}

/**
 * LZ4 through the `lz4-napi` native addon (lz4_flex). Its block format is prefixed with
 * the u32 LE uncompressed size, which is exactly the last four bytes of a frame header: so
 * a frame decompresses from a view of the received bytes, with no copy.
 */
export function lz4Codec(addon: Lz4Addon): CompressionCodec {
  const { compressSync, uncompressSync } = addon
  // Plain Uint8Array views of the addon's Buffers, so code consuming them sees one array
  // kind only (a Buffer has another hidden class, which makes typed-array access sites
  // polymorphic).
  return {
    // The result is [u32 size][block]; the payload is the block.
    compress(data) {
      const result = compressSync(data)
      return new Uint8Array(result.buffer, result.byteOffset + 4, result.length - 4)
    },
    decompress(block) {
      const result = uncompressSync(block.subarray(5))
      return new Uint8Array(result.buffer, result.byteOffset, result.length)
    },
  }
}

/** Loads `lz4-napi` (a CommonJS native addon) on first use. */
export async function loadLz4(): Promise<Lz4Addon> {
  const module = (await import('lz4-napi')) as unknown as { default: Lz4Addon }
  return module.default
}

/**
 * Codecs for Node: LZ4 (native addon) and ZSTD (WebAssembly). LZ4 is ClickHouse's default
 * and the fastest to decode.
 *
 * @example
 * ```ts
 * const codecs = await nodeCompression()
 * const frames = compressFrames(bytes, 'lz4', codecs)
 * ```
 */
export async function nodeCompression(options: ZstdOptions = {}): Promise<CompressionCodecs> {
  const [lz4, zstd] = await Promise.all([loadLz4(), loadZstd()])
  return { lz4: lz4Codec(lz4), zstd: zstdCodec(zstd, options) }
}
