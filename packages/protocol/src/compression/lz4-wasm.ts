import { precompiledLz4 } from '#precompiled-wasm'
import { ProtocolError } from '../errors/protocol-error.js'
import { decodeBase64 } from './cityhash-wasm.js'
import type { CompressionCodec } from './compression-codec.js'
import { frameHeaderSize } from './frame-format.js'
import { lz4WasmBase64 } from './lz4-wasm.gen.js'

/** The C functions of liblz4 the module exports (scripts/build-lz4-wasm.mjs). */
interface Lz4Exports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number }
  /** First byte after the stack and static data: the rest of memory is ours. */
  readonly __heap_base: { readonly value: number }
  LZ4_decompress_safe(source: number, destination: number, compressedSize: number, capacity: number): number
  LZ4_compress_default(source: number, destination: number, size: number, capacity: number): number
  LZ4_compressBound(size: number): number
}

/** The part of the WebAssembly global used here (typed locally: not every lib setting declares it). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object) => { exports: unknown }
  compile(bytes: Uint8Array): Promise<object>
}

const pageSize = 65536
/**
 * Memory grown past this for one large frame is dropped afterwards (the next call starts a
 * fresh instance), so one 100 MiB frame does not pin 100 MiB for the process's lifetime.
 */
const retainedBytes = 32 << 20
/** liblz4's LZ4_MAX_INPUT_SIZE. */
const maxInputSize = 0x7e00_0000

function webAssembly(): WebAssemblyApi {
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly
  if (wasm === undefined) throw new Error('WebAssembly is not available in this runtime')
  return wasm
}

const align = (at: number, to: number) => Math.ceil(at / to) * to

/**
 * liblz4's block codec (the vendored lz4.c, compiled by scripts/build-lz4-wasm.mjs) in
 * WebAssembly memory. Input is copied into the module's memory and decoded in place there
 * (2.7–6× lz4-napi's speed on 1 MiB frames, apps/bench `bench:lz4`); the memory is kept
 * between calls and grown as needed, so a call allocates nothing unless it returns a copy.
 *
 * Views returned by {@link decompressView} and {@link compress} are of that memory: valid
 * until the next call on the same instance.
 */
export class Lz4Wasm {
  private exports!: Lz4Exports
  private memory!: Uint8Array
  private heapBase = 0

  /** Use {@link loadLz4Wasm} (any thread) or {@link loadLz4WasmSync} (Node, workers). */
  private constructor(private readonly module: object) {
    this.instantiate()
  }

  /** An instance of an already compiled module (from {@link compileLz4Wasm}). */
  static of(module: object): Lz4Wasm {
    return new Lz4Wasm(module)
  }

  private instantiate(): void {
    const instance = new (webAssembly().Instance)(this.module)
    this.exports = instance.exports as unknown as Lz4Exports
    this.memory = new Uint8Array(this.exports.memory.buffer)
    this.heapBase = align(this.exports.__heap_base.value, 64)
  }

  /** Makes memory hold `size` bytes; views of it are replaced when it grows. */
  private reserve(size: number): Uint8Array {
    if (this.memory.length < size) {
      this.exports.memory.grow(Math.ceil((size - this.memory.length) / pageSize))
      this.memory = new Uint8Array(this.exports.memory.buffer)
    }
    return this.memory
  }

  /** After a call: memory grown for an unusually large block is let go. */
  private trim(): void {
    if (this.memory.length > retainedBytes) this.instantiate()
  }

  /**
   * Decompresses the LZ4 block `payload` into at most `capacity` bytes and returns a view of
   * module memory holding what it decoded (valid until the next call). Malformed input, or
   * input that decodes to more than `capacity`, throws {@link ProtocolError}.
   */
  decompressUpTo(payload: Uint8Array, capacity: number): Uint8Array {
    this.trim()
    const output = this.heapBase
    const input = align(output + capacity, 16)
    const memory = this.reserve(input + payload.length)
    memory.set(payload, input)
    const written = this.exports.LZ4_decompress_safe(input, output, payload.length, capacity)
    if (written < 0) {
      throw new ProtocolError(
        `malformed LZ4 block of ${payload.length} bytes (LZ4_decompress_safe returned ${written})`,
      )
    }
    return memory.subarray(output, output + written)
  }

  /**
   * Decompresses the LZ4 block `payload`, which must decode to exactly `size` bytes, and
   * returns a view of module memory holding them (valid until the next call). Malformed
   * input throws {@link ProtocolError}.
   */
  decompressView(payload: Uint8Array, size: number): Uint8Array {
    const view = this.decompressUpTo(payload, size)
    if (view.length !== size) {
      throw new ProtocolError(`LZ4 block decodes to ${view.length} bytes, ${size} were declared`)
    }
    return view
  }

  /**
   * Decompresses the LZ4 block `payload` into `target[offset, offset + size)`: no
   * allocation, for callers that own an output buffer. Malformed input throws
   * {@link ProtocolError}.
   */
  decompressInto(payload: Uint8Array, size: number, target: Uint8Array, offset = 0): void {
    if (offset + size > target.length)
      throw new RangeError(`${size} bytes do not fit at ${offset} of ${target.length}`)
    try {
      target.set(this.decompressView(payload, size), offset)
    } finally {
      this.trim()
    }
  }

  /** Decompresses the LZ4 block `payload` (exactly `size` bytes) into a new array of its own. */
  decompress(payload: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
    try {
      return this.decompressView(payload, size).slice()
    } finally {
      this.trim()
    }
  }

  /**
   * As {@link decompress}, but a block that decodes to fewer than `size` bytes gives those
   * bytes (for the frame reader, which reports the mismatch with the frame's position).
   */
  decompressAtMost(payload: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
    try {
      return this.decompressUpTo(payload, size).slice()
    } finally {
      this.trim()
    }
  }

  /** Compresses `data` to an LZ4 block; the result is a view of module memory, valid until the next call. */
  compress(data: Uint8Array): Uint8Array {
    if (data.length > maxInputSize)
      throw new RangeError(`LZ4 compresses at most ${maxInputSize} bytes per block`)
    this.trim()
    const input = this.heapBase
    const output = align(input + data.length, 16)
    const capacity = this.exports.LZ4_compressBound(data.length)
    const memory = this.reserve(output + capacity)
    memory.set(data, input)
    const written = this.exports.LZ4_compress_default(input, output, data.length, capacity)
    // With the bound as capacity liblz4 cannot fail; 0 would be a bug, not bad input.
    if (written <= 0) throw new Error(`LZ4_compress_default failed for ${data.length} bytes`)
    return memory.subarray(output, output + written)
  }
}

let compiled: Promise<object> | undefined

/**
 * Compiles the module once per process, asynchronously: allowed on any browser thread, where
 * Chrome long refused synchronous compiles of modules over 4 KB on the main thread (this one
 * is about 7.5 KB; Chromium 156 accepts it).
 * Rejects where WebAssembly is missing or compiling from bytes is forbidden
 * (Content-Security-Policy without `wasm-unsafe-eval`); under the `workerd` condition the
 * runtime's precompiled lz4.wasm is used instead, with no compile (Workers forbid it).
 */
export function compileLz4Wasm(): Promise<object> {
  // Where the runtime compiled lz4.wasm itself (the `workerd` condition), that module is used.
  compiled ??= (async () => precompiledLz4 ?? webAssembly().compile(decodeBase64(lz4WasmBase64)))()
  compiled.catch(() => {
    compiled = undefined
  })
  return compiled
}

/** A new {@link Lz4Wasm} (its own memory), compiling the module on first use. */
export async function loadLz4Wasm(): Promise<Lz4Wasm> {
  return Lz4Wasm.of(await compileLz4Wasm())
}

/** A new {@link Lz4Wasm}, compiled synchronously: for Node and workers, not a browser's main thread. */
export function loadLz4WasmSync(): Lz4Wasm {
  return Lz4Wasm.of(precompiledLz4 ?? new (webAssembly().Module)(decodeBase64(lz4WasmBase64)))
}

/**
 * An LZ4 frame codec over liblz4 in WebAssembly. `compress`, when given, replaces the
 * module's own compressor (Node passes lz4-napi's where it is faster). Decompressed frames
 * are new arrays: readers keep them as the memory behind decoded columns.
 */
export function lz4WasmCodec(lz4: Lz4Wasm, compress?: (data: Uint8Array) => Uint8Array): CompressionCodec {
  return {
    compress: compress ?? ((data) => lz4.compress(data)),
    decompress: (block, uncompressedSize) =>
      lz4.decompress(block.subarray(frameHeaderSize), uncompressedSize),
    decompressInto: (block, uncompressedSize, target, offset) =>
      lz4.decompressInto(block.subarray(frameHeaderSize), uncompressedSize, target, offset),
  }
}
