import { precompiledCityHash } from '#precompiled-wasm'
import { cityHashWasmBase64 } from './cityhash-wasm.gen.js'

/**
 * CityHash128 v1.0.2 in a hand-assembled WebAssembly module (about 1.5 KB, described in
 * scripts/cityhash-wasm-source.mjs). WebAssembly multiplies 64-bit words natively, which
 * JavaScript can only emulate with 32-bit halves.
 *
 * WebAssembly sees only its own memory, so input is copied in, 64 KiB at a time: memory
 * stays at two pages whatever the frame size, and each chunk is hashed while it is still in
 * cache. The hash state lives in the module's globals between chunks.
 */

interface CityHashExports {
  readonly memory: { readonly buffer: ArrayBuffer }
  short(at: number, length: number): void
  begin(at: number, length: number): void
  blocks(at: number, count: number): void
  end(at: number, tail: number): void
}

/** The part of the WebAssembly global used here (typed locally: not every lib setting declares it). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object) => { exports: unknown }
}

/** Where input is copied to; [0, 16) receives the result. */
const inputAt = 64
/** 128-byte blocks per copied chunk: 64 KiB, so input + tail fits the module's 128 KiB. */
const chunkBlocks = 512
/** Inputs this long or longer go through begin/blocks/end: 16 seed bytes and a full block. */
const longInput = 16 + 128

/** A loaded module; `undefined` from {@link loadCityHashWasm} where WebAssembly is unavailable. */
export interface CityHashWasm {
  /** Writes CityHash128 of `bytes[start, end)` to `out[outOffset, outOffset + 16)` (low64, high64, LE). */
  hashInto(bytes: Uint8Array, start: number, end: number, out: Uint8Array, outOffset: number): void
}

/** The bytes of a base64 text (atob is in every runtime; Buffer only in Node). */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text)
  const bytes = new Uint8Array(raw.length)
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
  return bytes
}

/**
 * Compiles the module synchronously (small modules may be compiled on any thread in every
 * browser). Returns undefined where WebAssembly is missing or compiling from bytes is
 * forbidden (Content-Security-Policy without `wasm-unsafe-eval`, some edge runtimes).
 */
export function loadCityHashWasm(): CityHashWasm | undefined {
  let exports: CityHashExports
  try {
    const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly
    if (wasm === undefined) return undefined
    // Under the `workerd` condition the runtime compiled cityhash.wasm (Workers forbid compiling).
    const instance = new wasm.Instance(
      precompiledCityHash ?? new wasm.Module(decodeBase64(cityHashWasmBase64)),
    )
    exports = instance.exports as unknown as CityHashExports
  } catch {
    return undefined
  }
  // The memory never grows, so these views stay valid.
  const memory = new Uint8Array(exports.memory.buffer)
  const { short, begin, blocks, end: finish } = exports

  function hashInto(bytes: Uint8Array, start: number, end: number, out: Uint8Array, outOffset: number): void {
    const length = end - start
    if (length < longInput) {
      memory.set(bytes.subarray(start, end), inputAt)
      short(inputAt, length)
    } else {
      const tail = (length - 16) % 128
      let blocksLeft = (length - 16 - tail) / 128
      // The first chunk carries the 16 seed bytes before its blocks; later chunks are
      // placed at the same block address. The last chunk carries the tail, whose reads may
      // reach up to 128 bytes back, into that chunk's last block.
      let from = start
      let to = start + 16
      let first = true
      for (;;) {
        const count = Math.min(blocksLeft, chunkBlocks)
        const last = count === blocksLeft
        to += count * 128 + (last ? tail : 0)
        memory.set(bytes.subarray(from, to), first ? inputAt : inputAt + 16)
        if (first) begin(inputAt, length)
        blocks(inputAt + 16, count)
        if (last) {
          finish(inputAt + 16 + count * 128, tail)
          break
        }
        blocksLeft -= count
        first = false
        from = to
      }
    }
    for (let i = 0; i < 16; i++) out[outOffset + i] = memory[i]!
  }

  return { hashInto }
}
