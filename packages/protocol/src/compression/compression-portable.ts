import { precompiledZstd } from '#precompiled-wasm'
import { UsageError } from '../errors/usage-error.js'
import { reasonOf, unavailableCodec } from './codec-unavailable.js'
import type { CompressionCodec, CompressionCodecs } from './compression-codec.js'
import { frameHeaderSize, u32At } from './frame-format.js'

/** ClickHouse's ZSTD level when a codec names none (CompressionCodecZSTD::ZSTD_DEFAULT_LEVEL). */
export const defaultZstdLevel = 1

/** The part of `@hpcc-js/wasm-zstd`'s `Zstd` that clickwire uses. */
export interface ZstdLibrary {
  compress(data: Uint8Array, level?: number): Uint8Array
  /** `capacity`: the size the frame header gives, where the library can bound its output by it. */
  decompress(data: Uint8Array, capacity?: number): Uint8Array
  minCLevel(): number
  maxCLevel(): number
}

export interface ZstdOptions {
  /** ZSTD level for frames clickwire writes (default 1, ClickHouse's default). */
  zstdLevel?: number
}

const zstdMagic = 0xfd2fb528
const contentSizeBytes = [0, 2, 4, 8]
const dictionaryIdBytes = [0, 1, 2, 4]

/**
 * The content size a ZSTD frame header declares (RFC 8878 §3.1.1.1), or undefined when it
 * declares none or does not parse (then the library reports the problem).
 */
export function zstdContentSize(payload: Uint8Array): number | undefined {
  if (payload.length < 6 || u32At(payload, 0) !== zstdMagic) return undefined
  const descriptor = payload[4]!
  const singleSegment = (descriptor & 0x20) !== 0
  const at = 5 + (singleSegment ? 0 : 1) + dictionaryIdBytes[descriptor & 3]!
  const flag = descriptor >> 6
  const size = flag === 0 ? (singleSegment ? 1 : 0) : contentSizeBytes[flag]!
  if (size === 0 || at + size > payload.length) return undefined
  if (size === 1) return payload[at]!
  if (size === 2) return payload[at]! + payload[at + 1]! * 256 + 256
  if (size === 4) return u32At(payload, at)
  return u32At(payload, at) + u32At(payload, at + 4) * 0x1_0000_0000
}

/**
 * The emscripten internals of `@hpcc-js/wasm-zstd` 1.x's `Zstd`. Its public `decompress`
 * copies the result out with `new Uint8Array([...heapView])`, ~250 ms for 1 MiB; through
 * these the same call takes about a millisecond. Used only when present, with the public
 * API as the fallback.
 */
interface ZstdInternals {
  readonly _mainModule?: {
    readonly _module?: { readonly HEAPU8: Uint8Array }
    malloc(size: number): { ptr: number; size: number }
    free(block: { ptr: number; size: number }): void
  }
  readonly _zstdClass?: {
    compress(destination: number, capacity: number, source: number, size: number, level: number): number
    compressBound(size: number): number
    decompress(destination: number, capacity: number, source: number, size: number): number
    isError(code: number): unknown
    getErrorName(code: number): string
  }
}

interface ZstdCalls {
  compress(data: Uint8Array, level: number): Uint8Array
  /** Decompresses into exactly `capacity` bytes of room, so the ZSTD header cannot ask for more. */
  decompress(payload: Uint8Array, capacity: number): Uint8Array
}

function directCalls(zstd: ZstdLibrary): ZstdCalls | undefined {
  const { _mainModule: main, _zstdClass: native } = zstd as ZstdLibrary & ZstdInternals
  const usable =
    typeof main?.malloc === 'function' &&
    typeof main.free === 'function' &&
    main._module?.HEAPU8 instanceof Uint8Array &&
    typeof native?.decompress === 'function' &&
    typeof native.compress === 'function' &&
    typeof native.compressBound === 'function' &&
    typeof native.isError === 'function' &&
    typeof native.getErrorName === 'function'
  if (!usable || main === undefined || native === undefined) return undefined
  // Heap views are replaced when the WebAssembly memory grows: read them after each malloc.
  const heap = () => main._module!.HEAPU8
  function run(input: Uint8Array, capacity: number, call: (to: number, from: number) => number): Uint8Array {
    const source = main!.malloc(Math.max(input.length, 1))
    const target = main!.malloc(Math.max(capacity, 1))
    try {
      heap().set(input, source.ptr)
      const size = call(target.ptr, source.ptr)
      if (native!.isError(size)) throw new Error(`ZSTD: ${native!.getErrorName(size)}`)
      return heap().slice(target.ptr, target.ptr + size)
    } finally {
      main!.free(target)
      main!.free(source)
    }
  }
  return {
    compress: (data, level) => {
      const capacity = native.compressBound(data.length)
      return run(data, capacity, (to, from) => native.compress(to, capacity, from, data.length, level))
    },
    decompress: (payload, capacity) =>
      run(payload, capacity, (to, from) => native.decompress(to, capacity, from, payload.length)),
  }
}

/** A ZSTD codec over an already loaded `@hpcc-js/wasm-zstd` instance. */
export function zstdCodec(zstd: ZstdLibrary, options: ZstdOptions = {}): CompressionCodec {
  const level = options.zstdLevel ?? defaultZstdLevel
  if (!Number.isInteger(level) || level < zstd.minCLevel() || level > zstd.maxCLevel()) {
    throw new UsageError(
      `zstdLevel must be an integer from ${zstd.minCLevel()} to ${zstd.maxCLevel()}, got ${level}`,
    )
  }
  const calls: ZstdCalls = directCalls(zstd) ?? {
    compress: (data, level) => zstd.compress(data, level),
    decompress: (payload, capacity) => zstd.decompress(payload, capacity),
  }
  return {
    compress: (data) => calls.compress(data, level),
    decompress(block, uncompressedSize) {
      const payload = block.subarray(frameHeaderSize)
      // The public API allocates what the ZSTD header declares; refuse a mismatch up front.
      const declared = zstdContentSize(payload)
      if (declared !== undefined && declared !== uncompressedSize) {
        throw new Error(`ZSTD frame declares ${declared} bytes, the header ${uncompressedSize}`)
      }
      return calls.decompress(payload, uncompressedSize)
    },
  }
}

/**
 * Loads the ZSTD WebAssembly module (once per process; later calls share it). It compiles from
 * bytes at run time, except under the `workerd` condition, where the runtime precompiled
 * zstd.wasm. Where compiling is forbidden and no module was precompiled (a
 * Content-Security-Policy without `wasm-unsafe-eval`) this is a UsageError that names LZ4.
 */
export async function loadZstd(): Promise<ZstdLibrary> {
  try {
    const { Zstd } = await import('@hpcc-js/wasm-zstd')
    if (precompiledZstd === undefined) return await Zstd.load()
    // The `workerd` condition: the runtime compiled zstd.wasm, the package's own module.
    const { withPrecompiledZstd } = await import('./zstd-precompiled.js')
    return await withPrecompiledZstd(precompiledZstd, () => Zstd.load())
  } catch (error) {
    throw new UsageError(
      `ZSTD cannot load in this runtime (${reasonOf(error)}): use compression 'lz4' or 'none'`,
      { cause: error },
    )
  }
}

/**
 * liblz4 in WebAssembly, loaded apart (and compiled asynchronously, as a browser's main
 * thread requires) so that pages which never see LZ4 do not carry it; undefined where
 * WebAssembly cannot be compiled.
 */
async function loadPortableLz4(): Promise<CompressionCodec | undefined> {
  try {
    const { loadLz4Wasm, lz4WasmCodec } = await import('./lz4-wasm.js')
    return lz4WasmCodec(await loadLz4Wasm())
  } catch {
    return undefined
  }
}

/**
 * Codecs that work in every runtime, loaded on first call: LZ4 (liblz4) and ZSTD, both in
 * WebAssembly, and NONE.
 */
export async function portableCompression(options: ZstdOptions = {}): Promise<CompressionCodecs> {
  // Each method loads on its own: LZ4 never fails because ZSTD cannot load (Workers).
  const [lz4, zstd] = await Promise.all([loadPortableLz4(), loadZstd().catch((error: unknown) => error)])
  const codecs = {
    zstd:
      zstd instanceof Error
        ? unavailableCodec('ZSTD', "compression 'lz4' or 'none'", zstd)
        : zstdCodec(zstd as ZstdLibrary, options),
  }
  return lz4 === undefined ? codecs : { lz4, ...codecs }
}
