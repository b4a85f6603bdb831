import { UsageError } from '../errors/usage-error.js'
import { reasonOf, unavailableCodec } from './codec-unavailable.js'
import type { CompressionCodec, CompressionCodecs } from './compression-codec.js'
import { loadZstd, type ZstdOptions, zstdCodec } from './compression-portable.js'
import { frameHeaderSize } from './frame-format.js'
import { type Lz4Wasm, loadLz4Wasm, lz4WasmCodec } from './lz4-wasm.js'

/** The part of `lz4-napi` clickwire uses (typed here: its own types need Node's). */
export interface Lz4Addon {
  compressSync(data: Uint8Array): Uint8Array
  uncompressSync(data: Uint8Array): Uint8Array
}

/**
 * LZ4 through the `lz4-napi` native addon (lz4_flex). Its block format is prefixed with
 * the u32 LE uncompressed size, which is exactly the last four bytes of a frame header: so
 * a frame decompresses from a view of the received bytes, with no copy.
 *
 * With `wasm`, frames decompress through liblz4 in WebAssembly instead: 1.1–1.6× faster on
 * ontime-like columns and short strings, output copy included (apps/bench `bench:lz4`). The
 * addon still compresses (on those columns the two compress at about the same speed).
 */
export function lz4Codec(addon: Lz4Addon, wasm?: Lz4Wasm): CompressionCodec {
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
    decompress(block, uncompressedSize) {
      if (wasm) return wasm.decompressAtMost(block.subarray(frameHeaderSize), uncompressedSize)
      const result = uncompressSync(block.subarray(5))
      return new Uint8Array(result.buffer, result.byteOffset, result.length)
    },
    decompressInto: wasm
      ? (block, uncompressedSize, target, offset) =>
          wasm.decompressInto(block.subarray(frameHeaderSize), uncompressedSize, target, offset)
      : undefined,
  }
}

/**
 * The LZ4 codec for Node: liblz4 in WebAssembly decompresses, `lz4-napi` compresses. Where
 * the addon cannot load (Deno without `--allow-ffi`, a runtime without N-API) WebAssembly
 * does both; where WebAssembly cannot be compiled (a `--jitless` process) the addon does both.
 */
export async function nodeLz4Codec(): Promise<CompressionCodec> {
  const [addon, wasm] = await Promise.allSettled([loadLz4(), loadLz4Wasm()])
  if (addon.status === 'fulfilled')
    return lz4Codec(addon.value, wasm.status === 'fulfilled' ? wasm.value : undefined)
  if (wasm.status === 'fulfilled') return lz4WasmCodec(wasm.value)
  throw new UsageError(
    `LZ4 cannot load in this runtime (lz4-napi: ${reasonOf(addon.reason)}; WebAssembly: ${reasonOf(wasm.reason)}): use compression 'zstd' or 'none'`,
  )
}

/** Loads `lz4-napi` (a CommonJS native addon) on first use. */
export async function loadLz4(): Promise<Lz4Addon> {
  const module = (await import('lz4-napi')) as unknown as { default: Lz4Addon }
  return module.default
}

/**
 * Codecs for Node: LZ4 ({@link nodeLz4Codec}) and ZSTD (WebAssembly). LZ4 is ClickHouse's
 * default and the fastest to decode.
 *
 * @example
 * ```ts
 * const codecs = await nodeCompression()
 * const frames = compressFrames(bytes, 'lz4', codecs)
 * ```
 */
export async function nodeCompression(options: ZstdOptions = {}): Promise<CompressionCodecs> {
  // Each method loads on its own: ZSTD never fails because LZ4 could not load, nor LZ4 for ZSTD.
  const [lz4, zstd] = await Promise.allSettled([nodeLz4Codec(), loadZstd()])
  return {
    lz4:
      lz4.status === 'fulfilled'
        ? lz4.value
        : unavailableCodec('LZ4', "compression 'zstd' or 'none'", lz4.reason),
    zstd:
      zstd.status === 'fulfilled'
        ? zstdCodec(zstd.value, options)
        : unavailableCodec('ZSTD', "compression 'lz4' or 'none'", zstd.reason),
  }
}
