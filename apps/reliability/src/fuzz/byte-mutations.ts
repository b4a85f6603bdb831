import { concatBytes } from '@clickwire/testing'
import fc from 'fast-check'

/**
 * One change to a recorded byte stream. Positions are taken modulo the stream's length, so
 * a mutation applies to any stream and shrinks towards the start.
 */
export type Mutation =
  | { readonly kind: 'flip'; readonly at: number; readonly bit: number }
  | { readonly kind: 'byte'; readonly at: number; readonly value: number }
  | { readonly kind: 'insert'; readonly at: number; readonly bytes: readonly number[] }
  | { readonly kind: 'delete'; readonly at: number; readonly length: number }
  | { readonly kind: 'repeat'; readonly at: number; readonly length: number }
  | { readonly kind: 'copy'; readonly at: number; readonly from: number; readonly length: number }
  | { readonly kind: 'varint'; readonly at: number; readonly value: bigint; readonly replace: boolean }
  | { readonly kind: 'truncate'; readonly at: number }

/**
 * Values a length or count field is most likely to break on: around the 7-bit varint
 * steps, the signed and unsigned 32-bit limits, 2^53 (JS numbers) and 2^64.
 */
const extremeValues: readonly bigint[] = [
  0n,
  1n,
  127n,
  128n,
  255n,
  16_383n,
  65_535n,
  (1n << 24n) + 1n,
  (1n << 31n) - 1n,
  1n << 31n,
  (1n << 32n) - 1n,
  1n << 32n,
  (1n << 53n) - 1n,
  1n << 53n,
  (1n << 63n) - 1n,
  (1n << 64n) - 1n,
]

/** The LEB128 (VarUInt) bytes of `value`. */
export function leb128(value: bigint): number[] {
  const out: number[] = []
  let rest = value
  do {
    const byte = Number(rest & 0x7fn)
    rest >>= 7n
    out.push(rest > 0n ? byte | 0x80 : byte)
  } while (rest > 0n)
  return out
}

const position = fc.nat({ max: 1 << 20 })

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('flip' as const), at: position, bit: fc.nat({ max: 7 }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('byte' as const), at: position, value: fc.nat({ max: 255 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      at: position,
      bytes: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 8 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      at: position,
      length: fc.integer({ min: 1, max: 32 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('repeat' as const),
      at: position,
      length: fc.integer({ min: 1, max: 64 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('copy' as const),
      at: position,
      from: position,
      length: fc.integer({ min: 1, max: 64 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('varint' as const),
      at: position,
      value: fc.oneof(fc.constantFrom(...extremeValues), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n })),
      replace: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: position }) },
)

/** `bytes` with the mutations applied in order (a new array; the input is not changed). */
export function applyMutations(bytes: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  let out: Uint8Array = Uint8Array.from(bytes)
  for (const mutation of mutations) {
    const length = out.length
    if (length === 0) break
    const at = mutation.at % length
    switch (mutation.kind) {
      case 'flip':
        out[at] = out[at]! ^ (1 << mutation.bit)
        break
      case 'byte':
        out[at] = mutation.value
        break
      case 'insert':
        out = concatBytes(out.subarray(0, at), Uint8Array.from(mutation.bytes), out.subarray(at))
        break
      case 'delete':
        out = concatBytes(out.subarray(0, at), out.subarray(at + mutation.length))
        break
      case 'repeat':
        out = concatBytes(out.subarray(0, at + mutation.length), out.subarray(at))
        break
      case 'copy': {
        const from = mutation.from % length
        const piece = out.slice(from, from + mutation.length)
        out.set(piece.subarray(0, length - at), at)
        break
      }
      case 'varint': {
        const encoded = Uint8Array.from(leb128(mutation.value))
        out = mutation.replace
          ? concatBytes(out.subarray(0, at), encoded, out.subarray(at + 1))
          : concatBytes(out.subarray(0, at), encoded, out.subarray(at))
        break
      }
      case 'truncate':
        out = out.slice(0, at)
        break
    }
  }
  return out
}

/** Where to cut a stream into network chunks (positions modulo its length). */
export const splitArbitrary: fc.Arbitrary<number[]> = fc.oneof(
  { weight: 6, arbitrary: fc.array(position, { maxLength: 8 }) },
  // Many small pieces, as a congested link delivers them.
  { weight: 1, arbitrary: fc.array(position, { minLength: 20, maxLength: 200 }) },
)

/** Positions for `splitAt`, reduced modulo `length`. */
export function splitPositions(positions: readonly number[], length: number): number[] {
  return length === 0 ? [] : positions.map((at) => at % length)
}
