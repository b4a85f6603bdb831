import { UsageError } from '../errors/usage-error.js'
import { cityHash128Js } from './cityhash-js.js'
import { type CityHashWasm, loadCityHashWasm } from './cityhash-wasm.js'

/**
 * CityHash128 v1.0.2, the checksum in front of every ClickHouse compressed frame
 * (ClickHouse keeps this old version in contrib/cityhash102 because checksums and
 * `cityHash64` values were persisted with it; later CityHash versions give other values).
 *
 * Digests are 16 bytes exactly as a frame stores them: the low 64 bits, then the high 64
 * bits, each little-endian. So checking a frame is a 16-byte comparison, with no BigInt.
 *
 * The WebAssembly implementation is used where it compiles (Node, browsers, Deno, Bun) and
 * the plain-JS one elsewhere; they give identical digests. On the development machine the
 * WebAssembly one is ~10x faster (see bench/README.md).
 */

let wasm: CityHashWasm | undefined | null = null

function implementation(): CityHashWasm | undefined {
  if (wasm === null) wasm = loadCityHashWasm()
  return wasm
}

/** Which implementation {@link cityhash128} uses here: `wasm` or `js`. */
export function cityhash128Implementation(): 'wasm' | 'js' {
  return implementation() ? 'wasm' : 'js'
}

/** Writes CityHash128 v1.0.2 of `bytes[start, end)` to `out[outOffset, outOffset + 16)`. */
export function cityhash128Into(
  bytes: Uint8Array,
  start: number,
  end: number,
  out: Uint8Array,
  outOffset = 0,
): void {
  if (
    !(start >= 0 && start <= end && end <= bytes.length) ||
    !(outOffset >= 0 && outOffset + 16 <= out.length)
  )
    throw new UsageError(`cityhash128: range [${start}, ${end}) or output offset ${outOffset} out of bounds`)
  const fast = wasm === null ? implementation() : wasm
  if (fast) fast.hashInto(bytes, start, end, out, outOffset)
  else cityHash128Js(bytes, start, end, out, outOffset)
}

/**
 * CityHash128 v1.0.2 of `bytes[start, end)` as a 16-byte digest: low 64 bits then high 64
 * bits, little-endian, the layout of a compressed frame's checksum.
 *
 * @example
 * ```ts
 * const digest = cityhash128(new TextEncoder().encode('abc'))
 * new DataView(digest.buffer).getBigUint64(0, true) // 0x900ff195577748fen
 * ```
 */
export function cityhash128(bytes: Uint8Array, start = 0, end: number = bytes.length): Uint8Array {
  const out = new Uint8Array(16)
  cityhash128Into(bytes, start, end, out, 0)
  return out
}

/**
 * A digest as ClickHouse prints checksums in its messages: the low then the high 64-bit
 * half, each as 16 hex digits.
 */
export function checksumHex(digest: Uint8Array, offset = 0): string {
  let text = ''
  for (const half of [offset, offset + 8]) {
    for (let i = 7; i >= 0; i--) text += digest[half + i]!.toString(16).padStart(2, '0')
  }
  return text
}
