// A plain BigInt CityHash128 (v1.0.2, the variant ClickHouse checksums frames with), written
// for clarity rather than speed. The property tests compare the fast implementations
// against it. Not part of the published build.

const mask = (1n << 64n) - 1n
const k0 = 0xc3a5c85c97cb3127n
const k1 = 0xb492b66fbe98f273n
const k2 = 0x9ae16a3b2f90404fn
const k3 = 0xc949d7c7509e6557n

const add = (...terms: bigint[]): bigint => terms.reduce((sum, term) => (sum + term) & mask, 0n)
const sub = (a: bigint, b: bigint): bigint => (a - b) & mask
const mul = (a: bigint, b: bigint): bigint => (a * b) & mask
const rotate = (value: bigint, shift: number): bigint =>
  shift === 0 ? value : ((value >> BigInt(shift)) | (value << BigInt(64 - shift))) & mask
const shiftMix = (value: bigint): bigint => value ^ (value >> 47n)

function fetch64(bytes: Uint8Array, at: number): bigint {
  let value = 0n
  for (let i = 7; i >= 0; i--) value = (value << 8n) | BigInt(bytes[at + i]!)
  return value
}

function fetch32(bytes: Uint8Array, at: number): bigint {
  let value = 0n
  for (let i = 3; i >= 0; i--) value = (value << 8n) | BigInt(bytes[at + i]!)
  return value
}

function hashLen16(u: bigint, v: bigint): bigint {
  const kMul = 0x9ddfea08eb382d69n
  let a = mul(u ^ v, kMul)
  a ^= a >> 47n
  let b = mul(v ^ a, kMul)
  b ^= b >> 47n
  return mul(b, kMul)
}

function hashLen0to16(bytes: Uint8Array, s: number, len: number): bigint {
  const n = BigInt(len)
  if (len > 8) {
    const a = fetch64(bytes, s)
    const b = fetch64(bytes, s + len - 8)
    return hashLen16(a, rotate(add(b, n), len)) ^ b
  }
  if (len >= 4) {
    const a = fetch32(bytes, s)
    return hashLen16(add(n, (a << 3n) & mask), fetch32(bytes, s + len - 4))
  }
  if (len > 0) {
    const a = BigInt(bytes[s]!)
    const b = BigInt(bytes[s + (len >> 1)]!)
    const c = BigInt(bytes[s + len - 1]!)
    const y = a + (b << 8n)
    const z = n + (c << 2n)
    return mul(shiftMix(mul(y, k2) ^ mul(z, k3)), k2)
  }
  return k2
}

function weakHashLen32WithSeeds(bytes: Uint8Array, s: number, a: bigint, b: bigint): [bigint, bigint] {
  const w = fetch64(bytes, s)
  const x = fetch64(bytes, s + 8)
  const y = fetch64(bytes, s + 16)
  const z = fetch64(bytes, s + 24)
  a = add(a, w)
  b = rotate(add(b, a, z), 21)
  const c = a
  a = add(a, x, y)
  b = add(b, rotate(a, 44))
  return [add(a, z), add(b, c)]
}

function cityMurmur(bytes: Uint8Array, s: number, len: number, seedLow: bigint, seedHigh: bigint) {
  let a = seedLow
  let b = seedHigh
  let c: bigint
  let d: bigint
  let l = len - 16
  if (l <= 0) {
    a = mul(shiftMix(mul(a, k1)), k1)
    c = add(mul(b, k1), hashLen0to16(bytes, s, len))
    d = shiftMix(add(a, len >= 8 ? fetch64(bytes, s) : c))
  } else {
    c = hashLen16(add(fetch64(bytes, s + len - 8), k1), a)
    d = hashLen16(add(b, BigInt(len)), add(c, fetch64(bytes, s + len - 16)))
    a = add(a, d)
    do {
      a ^= mul(shiftMix(mul(fetch64(bytes, s), k1)), k1)
      a = mul(a, k1)
      b ^= a
      c ^= mul(shiftMix(mul(fetch64(bytes, s + 8), k1)), k1)
      c = mul(c, k1)
      d ^= c
      s += 16
      l -= 16
    } while (l > 0)
  }
  a = hashLen16(a, c)
  b = hashLen16(d, b)
  return [a ^ b, hashLen16(b, a)] as const
}

function cityHash128WithSeed(
  bytes: Uint8Array,
  s: number,
  len: number,
  seedLow: bigint,
  seedHigh: bigint,
): readonly [bigint, bigint] {
  if (len < 128) return cityMurmur(bytes, s, len, seedLow, seedHigh)
  let x = seedLow
  let y = seedHigh
  let z = mul(BigInt(len), k1)
  let v0 = add(mul(rotate(y ^ k1, 49), k1), fetch64(bytes, s))
  let v1 = add(mul(rotate(v0, 42), k1), fetch64(bytes, s + 8))
  let w0 = add(mul(rotate(add(y, z), 35), k1), x)
  let w1 = mul(rotate(add(x, fetch64(bytes, s + 88)), 53), k1)
  // The C++ loop runs two 64-byte rounds per iteration, swapping x and z after each.
  do {
    for (let round = 0; round < 2; round++) {
      x = mul(rotate(add(x, y, v0, fetch64(bytes, s + 16)), 37), k1)
      y = mul(rotate(add(y, v1, fetch64(bytes, s + 48)), 42), k1)
      x ^= w1
      y ^= v0
      z = rotate(z ^ w0, 33)
      ;[v0, v1] = weakHashLen32WithSeeds(bytes, s, mul(v1, k1), add(x, w0))
      ;[w0, w1] = weakHashLen32WithSeeds(bytes, s + 32, add(z, w1), y)
      ;[z, x] = [x, z]
      s += 64
    }
    len -= 128
  } while (len >= 128)
  y = add(y, mul(rotate(w0, 37), k0), z)
  x = add(x, mul(rotate(add(v0, z), 49), k0))
  for (let tailDone = 0; tailDone < len; ) {
    tailDone += 32
    y = add(mul(rotate(sub(y, x), 42), k0), v1)
    w0 = add(w0, fetch64(bytes, s + len - tailDone + 16))
    x = add(mul(rotate(x, 49), k0), w0)
    w0 = add(w0, v0)
    ;[v0, v1] = weakHashLen32WithSeeds(bytes, s + len - tailDone, v0, v1)
  }
  x = hashLen16(x, v0)
  y = hashLen16(y, w0)
  return [add(hashLen16(add(x, v1), w1), y), hashLen16(add(x, w1), add(y, v1))]
}

/** CityHash128 v1.0.2 of `bytes` as [low64, high64]. */
export function referenceCityHash128(bytes: Uint8Array): readonly [bigint, bigint] {
  const len = bytes.length
  if (len >= 16) {
    return cityHash128WithSeed(bytes, 16, len - 16, fetch64(bytes, 0) ^ k3, fetch64(bytes, 8))
  }
  if (len >= 8) {
    const n = BigInt(len)
    return cityHash128WithSeed(bytes, 0, 0, fetch64(bytes, 0) ^ mul(n, k0), fetch64(bytes, len - 8) ^ k1)
  }
  return cityHash128WithSeed(bytes, 0, len, k0, k1)
}
