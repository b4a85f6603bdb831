/**
 * CityHash128 v1.0.2 (ClickHouse's frame checksum) in plain JavaScript, every 64-bit word
 * kept as two int32 halves. BigInt would allocate on every operation; this version stays in
 * V8's small-integer arithmetic. It is the fallback where WebAssembly cannot be compiled
 * (some edge runtimes, strict CSP); `cityhash-wasm.ts` is faster where it can.
 *
 * The helpers return the low half and leave the high half in `hi`, so no pair object is
 * made per operation. Names follow the reference algorithm (v, w, x, y, z).
 */

// Some primes between 2^63 and 2^64, as [high, low] int32 halves.
const k0h = 0xc3a5c85c | 0
const k0l = 0x97cb3127 | 0
const k1h = 0xb492b66f | 0
const k1l = 0xbe98f273 | 0
const k2h = 0x9ae16a3b | 0
const k2l = 0x2f90404f | 0
const k3h = 0xc949d7c7 | 0
const k3l = 0x509e6557 | 0
const kMulH = 0x9ddfea08 | 0
const kMulL = 0xeb382d69 | 0

const two32 = 0x1_0000_0000

/** High half of the last helper's result. */
let hi = 0

function add(ah: number, al: number, bh: number, bl: number): number {
  const low = (al >>> 0) + (bl >>> 0)
  hi = (ah + bh + (low > 0xffffffff ? 1 : 0)) | 0
  return low | 0
}

function sub(ah: number, al: number, bh: number, bl: number): number {
  hi = (ah - bh - (al >>> 0 < bl >>> 0 ? 1 : 0)) | 0
  return (al - bl) | 0
}

/** The low 64 bits of a 64 x 64 product. */
function mul(ah: number, al: number, bh: number, bl: number): number {
  // High 32 bits of the unsigned 32 x 32 product al * bl, from 16-bit pieces.
  const a0 = al & 0xffff
  const a1 = al >>> 16
  const b0 = bl & 0xffff
  const b1 = bl >>> 16
  const p01 = Math.imul(a0, b1)
  const p10 = Math.imul(a1, b0)
  const middle = (Math.imul(a0, b0) >>> 16) + (p01 & 0xffff) + (p10 & 0xffff)
  const carry = Math.imul(a1, b1) + (p01 >>> 16) + (p10 >>> 16) + (middle >>> 16)
  hi = (carry + Math.imul(ah, bl) + Math.imul(al, bh)) | 0
  return Math.imul(al, bl)
}

/** Right rotation by 0 < shift < 64. */
function rotate(h: number, l: number, shift: number): number {
  if (shift >= 32) {
    const t = h
    h = l
    l = t
    shift -= 32
    if (shift === 0) {
      hi = h
      return l
    }
  }
  hi = (h >>> shift) | (l << (32 - shift))
  return (l >>> shift) | (h << (32 - shift))
}

function hashLen16(uh: number, ul: number, vh: number, vl: number): number {
  let al = mul(uh ^ vh, ul ^ vl, kMulH, kMulL)
  const ah = hi
  al ^= ah >>> 15
  let bl = mul(vh ^ ah, vl ^ al, kMulH, kMulL)
  const bh = hi
  bl ^= bh >>> 15
  return mul(bh, bl, kMulH, kMulL)
}

function hashLen0to16(view: DataView, s: number, len: number): number {
  if (len > 8) {
    const al = view.getInt32(s, true)
    const ah = view.getInt32(s + 4, true)
    const bl = view.getInt32(s + len - 8, true)
    const bh = view.getInt32(s + len - 4, true)
    let l = add(bh, bl, 0, len)
    l = rotate(hi, l, len)
    l = hashLen16(ah, al, hi, l)
    hi ^= bh
    return l ^ bl
  }
  if (len >= 4) {
    const a = view.getUint32(s, true)
    const l = add(a >>> 29, a << 3, 0, len)
    return hashLen16(hi, l, 0, view.getInt32(s + len - 4, true))
  }
  if (len > 0) {
    const a = view.getUint8(s)
    const b = view.getUint8(s + (len >> 1))
    const c = view.getUint8(s + len - 1)
    const y = a + (b << 8)
    const z = len + (c << 2)
    let l = mul(0, y, k2h, k2l)
    const h = hi
    l ^= mul(0, z, k3h, k3l)
    const mh = h ^ hi
    return mul(mh, l ^ (mh >>> 15), k2h, k2l)
  }
  hi = k2h
  return k2l
}

// Results of weakHash: the pair (first, second), each as high and low halves.
let firstH = 0
let firstL = 0
let secondH = 0
let secondL = 0

/**
 * WeakHashLen32WithSeeds over the four words at `s`, seeded with a and b. Additions are
 * written out: it runs four times per block, and V8 stops inlining helpers into a function
 * this size. Several 32-bit low halves add up exactly in a double; the carry is the part
 * above 2^32.
 */
function weakHash(view: DataView, s: number, ah: number, al: number, bh: number, bl: number): void {
  const zl = view.getInt32(s + 24, true)
  const zh = view.getInt32(s + 28, true)
  let t = (al >>> 0) + (view.getInt32(s, true) >>> 0)
  ah = (ah + view.getInt32(s + 4, true) + ((t / two32) | 0)) | 0
  al = t | 0
  // b = rotate(b + a + z, 21)
  t = (bl >>> 0) + (al >>> 0) + (zl >>> 0)
  const sh = (bh + ah + zh + ((t / two32) | 0)) | 0
  const sl = t | 0
  bl = (sl >>> 21) | (sh << 11)
  bh = (sh >>> 21) | (sl << 11)
  const ch = ah
  const cl = al
  t = (al >>> 0) + (view.getInt32(s + 8, true) >>> 0) + (view.getInt32(s + 16, true) >>> 0)
  ah = (ah + view.getInt32(s + 12, true) + view.getInt32(s + 20, true) + ((t / two32) | 0)) | 0
  al = t | 0
  // b += rotate(a, 44): halves swapped, then rotated by 12.
  t = (bl >>> 0) + (((ah >>> 12) | (al << 20)) >>> 0)
  bh = (bh + ((al >>> 12) | (ah << 20)) + ((t / two32) | 0)) | 0
  bl = t | 0
  t = (al >>> 0) + (zl >>> 0)
  firstH = (ah + zh + ((t / two32) | 0)) | 0
  firstL = t | 0
  t = (bl >>> 0) + (cl >>> 0)
  secondH = (bh + ch + ((t / two32) | 0)) | 0
  secondL = t | 0
}

// The 128-bit result of the last hash: low64 and high64 as int32 halves.
let lowH = 0
let lowL = 0
let highH = 0
let highL = 0

function cityMurmur(view: DataView, s: number, len: number, ah: number, al: number, bh: number, bl: number) {
  let ch: number
  let cl: number
  let dh: number
  let dl: number
  let l = len - 16
  if (l <= 0) {
    al = mul(ah, al, k1h, k1l)
    ah = hi
    al = mul(ah, al ^ (ah >>> 15), k1h, k1l)
    ah = hi
    cl = mul(bh, bl, k1h, k1l)
    ch = hi
    const hl = hashLen0to16(view, s, len)
    cl = add(ch, cl, hi, hl)
    ch = hi
    if (len >= 8) dl = add(ah, al, view.getInt32(s + 4, true), view.getInt32(s, true))
    else dl = add(ah, al, ch, cl)
    dh = hi
    dl ^= dh >>> 15
  } else {
    let tl = add(view.getInt32(s + len - 4, true), view.getInt32(s + len - 8, true), k1h, k1l)
    cl = hashLen16(hi, tl, ah, al)
    ch = hi
    const bl2 = add(bh, bl, 0, len)
    const bh2 = hi
    tl = add(ch, cl, view.getInt32(s + len - 12, true), view.getInt32(s + len - 16, true))
    dl = hashLen16(bh2, bl2, hi, tl)
    dh = hi
    al = add(ah, al, dh, dl)
    ah = hi
    do {
      tl = mul(view.getInt32(s + 4, true), view.getInt32(s, true), k1h, k1l)
      tl = mul(hi, tl ^ (hi >>> 15), k1h, k1l)
      al = mul(ah ^ hi, al ^ tl, k1h, k1l)
      ah = hi
      bh ^= ah
      bl ^= al
      tl = mul(view.getInt32(s + 12, true), view.getInt32(s + 8, true), k1h, k1l)
      tl = mul(hi, tl ^ (hi >>> 15), k1h, k1l)
      cl = mul(ch ^ hi, cl ^ tl, k1h, k1l)
      ch = hi
      dh ^= ch
      dl ^= cl
      s += 16
      l -= 16
    } while (l > 0)
  }
  al = hashLen16(ah, al, ch, cl)
  ah = hi
  bl = hashLen16(dh, dl, bh, bl)
  bh = hi
  lowH = ah ^ bh
  lowL = al ^ bl
  highL = hashLen16(bh, bl, ah, al)
  highH = hi
}

// State of the long path between its three stages, which are separate functions so each
// gets optimized on its own: one function holding both the block loop and the tail is
// compiled on-stack while the loop runs, before the tail has type feedback, and then
// deoptimizes on every call.
let xh = 0
let xl = 0
let yh = 0
let yl = 0
let zh = 0
let zl = 0
let v0h = 0
let v0l = 0
let v1h = 0
let v1l = 0
let w0h = 0
let w0l = 0
let w1h = 0
let w1l = 0

function longBegin(
  view: DataView,
  s: number,
  len: number,
  sxh: number,
  sxl: number,
  syh: number,
  syl: number,
) {
  let tl: number
  xh = sxh
  xl = sxl
  yh = syh
  yl = syl
  zl = mul(0, len, k1h, k1l)
  zh = hi
  tl = rotate(yh ^ k1h, yl ^ k1l, 49)
  tl = mul(hi, tl, k1h, k1l)
  v0l = add(hi, tl, view.getInt32(s + 4, true), view.getInt32(s, true))
  v0h = hi
  tl = rotate(v0h, v0l, 42)
  tl = mul(hi, tl, k1h, k1l)
  v1l = add(hi, tl, view.getInt32(s + 12, true), view.getInt32(s + 8, true))
  v1h = hi
  tl = add(yh, yl, zh, zl)
  tl = rotate(hi, tl, 35)
  tl = mul(hi, tl, k1h, k1l)
  w0l = add(hi, tl, xh, xl)
  w0h = hi
  tl = add(xh, xl, view.getInt32(s + 92, true), view.getInt32(s + 88, true))
  tl = rotate(hi, tl, 53)
  w1l = mul(hi, tl, k1h, k1l)
  w1h = hi
}

/** The 128-byte blocks in [s, end). */
function longBlocks(view: DataView, s: number, end: number) {
  let xh_ = xh
  let xl_ = xl
  let yh_ = yh
  let yl_ = yl
  let zh_ = zh
  let zl_ = zl
  let v0h_ = v0h
  let v0l_ = v0l
  let v1h_ = v1h
  let v1l_ = v1l
  let w0h_ = w0h
  let w0l_ = w0l
  let w1h_ = w1h
  let w1l_ = w1l
  let tl: number
  let th: number
  while (s < end) {
    for (let half = 0; half < 2; half++) {
      const at = s + half * 64
      // x = rotate(x + y + v0 + word2, 37) * k1 ^ w1
      let t = (xl_ >>> 0) + (yl_ >>> 0) + (v0l_ >>> 0) + (view.getInt32(at + 16, true) >>> 0)
      th = (xh_ + yh_ + v0h_ + view.getInt32(at + 20, true) + ((t / two32) | 0)) | 0
      tl = t | 0
      xl_ = mul((tl >>> 5) | (th << 27), (th >>> 5) | (tl << 27), k1h, k1l) ^ w1l_
      xh_ = hi ^ w1h_
      // y = rotate(y + v1 + word6, 42) * k1 ^ v0
      t = (yl_ >>> 0) + (v1l_ >>> 0) + (view.getInt32(at + 48, true) >>> 0)
      th = (yh_ + v1h_ + view.getInt32(at + 52, true) + ((t / two32) | 0)) | 0
      tl = t | 0
      yl_ = mul((tl >>> 10) | (th << 22), (th >>> 10) | (tl << 22), k1h, k1l) ^ v0l_
      yh_ = hi ^ v0h_
      // z = rotate(z ^ w0, 33)
      th = zh_ ^ w0h_
      tl = zl_ ^ w0l_
      zh_ = (tl >>> 1) | (th << 31)
      zl_ = (th >>> 1) | (tl << 31)
      // v = weakHash(block, v1 * k1, x + w0)
      const ml = mul(v1h_, v1l_, k1h, k1l)
      const mh = hi
      t = (xl_ >>> 0) + (w0l_ >>> 0)
      weakHash(view, at, mh, ml, (xh_ + w0h_ + ((t / two32) | 0)) | 0, t | 0)
      v0h_ = firstH
      v0l_ = firstL
      v1h_ = secondH
      v1l_ = secondL
      // w = weakHash(block + 32, z + w1, y)
      t = (zl_ >>> 0) + (w1l_ >>> 0)
      weakHash(view, at + 32, (zh_ + w1h_ + ((t / two32) | 0)) | 0, t | 0, yh_, yl_)
      w0h_ = firstH
      w0l_ = firstL
      w1h_ = secondH
      w1l_ = secondL
      // The reference swaps x and z after each 64-byte round.
      th = xh_
      tl = xl_
      xh_ = zh_
      xl_ = zl_
      zh_ = th
      zl_ = tl
    }
    s += 128
  }
  xh = xh_
  xl = xl_
  yh = yh_
  yl = yl_
  zh = zh_
  zl = zl_
  v0h = v0h_
  v0l = v0l_
  v1h = v1h_
  v1l = v1l_
  w0h = w0h_
  w0l = w0l_
  w1h = w1h_
  w1l = w1l_
}

/** The tail [s, s + len), len < 128, and the final mixing. */
function longEnd(view: DataView, s: number, len: number) {
  let tl = rotate(w0h, w0l, 37)
  tl = mul(hi, tl, k0h, k0l)
  tl = add(hi, tl, zh, zl)
  yl = add(yh, yl, hi, tl)
  yh = hi
  tl = add(v0h, v0l, zh, zl)
  tl = rotate(hi, tl, 49)
  tl = mul(hi, tl, k0h, k0l)
  xl = add(xh, xl, hi, tl)
  xh = hi
  // Up to four 32-byte chunks from the end; they may reach back into hashed bytes.
  for (let tailDone = 0; tailDone < len; ) {
    tailDone += 32
    tl = sub(yh, yl, xh, xl)
    tl = rotate(hi, tl, 42)
    tl = mul(hi, tl, k0h, k0l)
    yl = add(hi, tl, v1h, v1l)
    yh = hi
    const at = s + len - tailDone
    w0l = add(w0h, w0l, view.getInt32(at + 20, true), view.getInt32(at + 16, true))
    w0h = hi
    tl = rotate(xh, xl, 49)
    tl = mul(hi, tl, k0h, k0l)
    xl = add(hi, tl, w0h, w0l)
    xh = hi
    w0l = add(w0h, w0l, v0h, v0l)
    w0h = hi
    weakHash(view, at, v0h, v0l, v1h, v1l)
    v0h = firstH
    v0l = firstL
    v1h = secondH
    v1l = secondL
  }
  xl = hashLen16(xh, xl, v0h, v0l)
  xh = hi
  yl = hashLen16(yh, yl, w0h, w0l)
  yh = hi
  tl = add(xh, xl, v1h, v1l)
  tl = hashLen16(hi, tl, w1h, w1l)
  lowL = add(hi, tl, yh, yl)
  lowH = hi
  tl = add(xh, xl, w1h, w1l)
  const th = hi
  const rl = add(yh, yl, v1h, v1l)
  highL = hashLen16(th, tl, hi, rl)
  highH = hi
}

function cityHash128WithSeed(
  view: DataView,
  s: number,
  len: number,
  sxh: number,
  sxl: number,
  syh: number,
  syl: number,
) {
  if (len < 128) {
    cityMurmur(view, s, len, sxh, sxl, syh, syl)
    return
  }
  longBegin(view, s, len, sxh, sxl, syh, syl)
  const tail = len % 128
  longBlocks(view, s, s + len - tail)
  longEnd(view, s + len - tail, tail)
}

/**
 * Writes CityHash128 v1.0.2 of `bytes[start, end)` to `out[outOffset, outOffset + 16)` as
 * ClickHouse stores it: the low 64 bits then the high 64 bits, both little-endian.
 */
export function cityHash128Js(
  bytes: Uint8Array,
  start: number,
  end: number,
  out: Uint8Array,
  outOffset: number,
): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const len = end - start
  if (len >= 16) {
    cityHash128WithSeed(
      view,
      start + 16,
      len - 16,
      view.getInt32(start + 4, true) ^ k3h,
      view.getInt32(start, true) ^ k3l,
      view.getInt32(start + 12, true),
      view.getInt32(start + 8, true),
    )
  } else if (len >= 8) {
    const sl = mul(0, len, k0h, k0l)
    const sh = hi
    cityHash128WithSeed(
      view,
      start,
      0,
      view.getInt32(start + 4, true) ^ sh,
      view.getInt32(start, true) ^ sl,
      view.getInt32(end - 4, true) ^ k1h,
      view.getInt32(end - 8, true) ^ k1l,
    )
  } else {
    cityHash128WithSeed(view, start, len, k0h, k0l, k1h, k1l)
  }
  const outView = new DataView(out.buffer, out.byteOffset, out.byteLength)
  outView.setInt32(outOffset, lowL, true)
  outView.setInt32(outOffset + 4, lowH, true)
  outView.setInt32(outOffset + 8, highL, true)
  outView.setInt32(outOffset + 12, highH, true)
}
