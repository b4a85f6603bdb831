import { UsageError } from '../errors/usage-error.js'
import { reasonOf, unavailableCodec } from './codec-unavailable.js'
import type { CompressionCodec, CompressionCodecs } from './compression-codec.js'
import { loadZstd, type ZstdLibrary, type ZstdOptions, zstdCodec } from './compression-portable.js'
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

/** ZSTD's level range (zstd.h: ZSTD_minCLevel() is -ZSTD_TARGETLENGTH_MAX, ZSTD_maxCLevel() 22). */
const zstdLevels = { min: -(1 << 17), max: 22 }

/**
 * ZSTD through node:zlib, where the runtime has it (Node 22.15+ and 23.8+, Bun, Deno): the
 * runtime's own libzstd, with nothing to compile, and output bounded by the frame header's
 * size. Undefined on Node 20, whose zlib has no ZSTD.
 */
export async function loadZlibZstd(): Promise<ZstdLibrary | undefined> {
  // Typed here (`as string`): the protocol is built without Node's types.
  const zlib = (await import('node:zlib' as string)) as Partial<ZlibZstd>
  const { zstdCompressSync, zstdDecompressSync, constants } = zlib
  const levelParameter = constants?.ZSTD_c_compressionLevel
  if (typeof zstdCompressSync !== 'function' || typeof zstdDecompressSync !== 'function') return undefined
  if (typeof levelParameter !== 'number') return undefined
  // Plain Uint8Array views of zlib's Buffers, as for lz4-napi's (one array kind for the decoders).
  const view = (result: Uint8Array) => new Uint8Array(result.buffer, result.byteOffset, result.length)
  return {
    compress: (data, level = 1) => view(zstdCompressSync(data, { params: { [levelParameter]: level } })),
    decompress: (data, capacity) =>
      view(
        zstdDecompressSync(data, capacity === undefined ? {} : { maxOutputLength: Math.max(capacity, 1) }),
      ),
    minCLevel: () => zstdLevels.min,
    maxCLevel: () => zstdLevels.max,
  }
}

/** The part of node:zlib's ZSTD API used here (typed here: the Node 20 types have none). */
interface ZlibZstd {
  zstdCompressSync(data: Uint8Array, options: { params: Record<number, number> }): Uint8Array
  zstdDecompressSync(data: Uint8Array, options: { maxOutputLength?: number }): Uint8Array
  constants: { ZSTD_c_compressionLevel?: number }
}

/**
 * Codecs for Node: LZ4 ({@link nodeLz4Codec}) and ZSTD (node:zlib where the runtime has it,
 * else WebAssembly). LZ4 is ClickHouse's
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
  const [lz4, zstd] = await Promise.allSettled([
    nodeLz4Codec(),
    loadZlibZstd().then((zlibZstd) => zlibZstd ?? loadZstd()),
  ])
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
