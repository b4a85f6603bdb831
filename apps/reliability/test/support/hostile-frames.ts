// Bytes for hostile servers that try to make the client decode more than it should: LZ4
// frames of the greatest expansion LZ4 allows, frames whose header lies about their size,
// and Native blocks that declare large values. Built by hand (not by our encoder), so each
// one says exactly what a broken or malicious server could send.
import { cityhash128 } from '@clickwire/protocol/frames'
import { concatBytes } from '@clickwire/testing'

/** LZ4's greatest expansion: a match length byte of 255 adds 255 output bytes. */
export const lz4MaxRatio = 255

/** A ClickHouse VarUInt. */
export function varUInt(value: bigint | number): number[] {
  const out: number[] = []
  let rest = BigInt(value)
  do {
    let byte = Number(rest & 0x7fn)
    rest >>= 7n
    if (rest > 0n) byte |= 0x80
    out.push(byte)
  } while (rest > 0n)
  return out
}

/** A length-prefixed string, as Native writes names, types and String values. */
export const text = (value: string) => [...varUInt(Buffer.byteLength(value)), ...Buffer.from(value)]

/** A length in LZ4's form: a nibble of 15 continued by bytes of 255 and a last one below it. */
function lengthBytes(rest: number, out: Uint8Array, at: number): number {
  let left = rest
  while (left >= 255) {
    out[at++] = 255
    left -= 255
  }
  out[at++] = left
  return at
}

/**
 * An LZ4 block that decodes to `prefix` followed by zeros, `total` bytes in all: the prefix
 * and one zero as literals, one match of offset 1 (repeating the zero), then the 5 literal
 * zeros LZ4 ends a block with. About `total / 255` bytes: LZ4's greatest expansion.
 */
export function lz4Zeros(prefix: readonly number[], total: number): Uint8Array {
  const literals = prefix.length + 1
  const match = total - literals - 5
  if (match < 19) throw new Error('lz4Zeros needs a longer total')
  const out = new Uint8Array(literals + Math.ceil(literals / 255) + Math.ceil(match / 255) + 32)
  let at = 0
  out[at++] = (Math.min(literals, 15) << 4) | 15
  if (literals >= 15) at = lengthBytes(literals - 15, out, at)
  out.set(prefix, at)
  at += prefix.length
  out[at++] = 0
  out[at++] = 1 // offset 1, little-endian
  out[at++] = 0
  at = lengthBytes(match - 4 - 15, out, at)
  out[at++] = 0x50 // the last sequence: 5 literals, no match
  at += 5
  return out.subarray(0, at)
}

function frame(method: number, payload: Uint8Array, declared: number): Uint8Array {
  const out = new Uint8Array(16 + 9 + payload.length)
  const view = new DataView(out.buffer)
  out[16] = method
  view.setUint32(17, 9 + payload.length, true)
  view.setUint32(21, declared, true)
  out.set(payload, 25)
  out.set(cityhash128(out, 16, out.length), 0)
  return out
}

/** A compressed frame of LZ4 `payload` whose header declares `declared` uncompressed bytes. */
export const lz4Frame = (payload: Uint8Array, declared: number) => frame(0x82, payload, declared)

/** A NONE frame of `data` (what a server sends for data it does not compress). */
export const noneFrame = (data: Uint8Array) => frame(0x02, data, data.length)

/** Joins byte arrays (number arrays taken as bytes). */
export function concat(parts: readonly (Uint8Array | readonly number[])[]): Uint8Array {
  return concatBytes(...parts.map((part) => (part instanceof Uint8Array ? part : Uint8Array.from(part))))
}

/** A Native block of `rows` UInt32 values 0..rows-1 in a column `x` (without BlockInfo). */
export function goodBlock(rows: number): Uint8Array {
  const values = new Uint8Array(rows * 4)
  const view = new DataView(values.buffer)
  for (let i = 0; i < rows; i++) view.setUint32(i * 4, i, true)
  return concat([varUInt(1), varUInt(rows), text('x'), text('UInt32'), values])
}
