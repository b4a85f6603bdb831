// The CityHash128 v1.0.2 WebAssembly module, described with the tiny assembler.
// generate-cityhash-wasm.mjs assembles it into src/compression/cityhash-wasm.gen.ts; only
// those bytes ship.
//
// Exports (all results go to memory [0, 16): low64 then high64, little-endian):
//   short(p, len)      the whole hash of [p, p+len), for len < 144 (no 128-byte blocks)
//   begin(p, len)      long inputs: seed from [p, p+16), state from the first block at p+16;
//                      len is the full input length
//   blocks(p, n)       n >= 1 blocks of 128 bytes at p
//   end(p, tail)       the tail [p, p+tail), tail < 128, with the last block right before p
// The state between begin/blocks/end lives in globals, so a long input can be fed through
// a small memory one chunk at a time.
import { control, globals, i32, i64 } from './wasm-assembler.mjs'

const k0 = i64.const(0xc3a5c85c97cb3127n)
const k1 = i64.const(0xb492b66fbe98f273n)
const k2 = i64.const(0x9ae16a3b2f90404fn)
const k3 = i64.const(0xc949d7c7509e6557n)
const kMul = i64.const(0x9ddfea08eb382d69n)
const n = (value) => i64.const(BigInt(value))
const rot = (value, shift) => i64.rotr(value, n(shift))
const state = ['x', 'y', 'z', 'v0', 'v1', 'w0', 'w1']
const global = globals(state)

// Function indexes, in the order of `functions` below.
const hashLen16Index = 0
const hashLen0to16Index = 1
const hashLen16 = (u, v) => control.call(hashLen16Index, u, v)
const i64Locals = (...names) => names.map((name) => [name, 'i64'])

/** `value ^ (value >> 47)` for a value held in local `name`. */
const shiftMix = (l, name, value) => i64.xor(l.tee(name, value), i64.shrU(l.get(name), n(47)))

/**
 * WeakHashLen32WithSeeds over the four words at address + offset, inlined: writes the pair
 * to locals `first` and `second`. `a` and `b` are evaluated before either is written.
 */
function weakHash(l, address, offset, a, b, first, second) {
  return [
    ...l.set('wa', i64.add(a, i64.load(address, offset))),
    ...l.set('wz', i64.load(address, offset + 24)),
    ...l.set('wb', rot(i64.add(b, l.get('wa'), l.get('wz')), 21)),
    ...l.set('wc', l.get('wa')),
    ...l.set('wa', i64.add(l.get('wa'), i64.load(address, offset + 8), i64.load(address, offset + 16))),
    ...l.set('wb', i64.add(l.get('wb'), rot(l.get('wa'), 44))),
    ...l.set(first, i64.add(l.get('wa'), l.get('wz'))),
    ...l.set(second, i64.add(l.get('wb'), l.get('wc'))),
  ]
}

const weakLocals = i64Locals('wa', 'wb', 'wc', 'wz')
const loadState = (l) => state.flatMap((name) => l.set(name, global.get(name)))
const saveState = (l) => state.flatMap((name) => global.set(name, l.get(name)))

const hashLen16Function = {
  params: i64Locals('u', 'v'),
  result: 'i64',
  locals: i64Locals('a', 'b'),
  body: (l) => [
    ...l.set('a', i64.mul(i64.xor(l.get('u'), l.get('v')), kMul)),
    ...l.set('a', shiftMix(l, 'a', l.get('a'))),
    ...l.set('b', i64.mul(i64.xor(l.get('v'), l.get('a')), kMul)),
    ...i64.mul(shiftMix(l, 'b', l.get('b')), kMul),
  ],
}

const hashLen0to16Function = {
  params: [
    ['s', 'i32'],
    ['len', 'i32'],
  ],
  result: 'i64',
  locals: [...i64Locals('a', 'b', 'c', 'm'), ['end', 'i32']],
  body: (l) => {
    const len64 = i64.fromU32(l.get('len'))
    return [
      ...l.set('end', i32.add(l.get('s'), l.get('len'))),
      ...control.if(
        i32.gtU(l.get('len'), i32.const(8)),
        control.return(
          i64.xor(
            hashLen16(
              i64.load(l.get('s')),
              i64.rotr(i64.add(l.tee('b', i64.load(i32.sub(l.get('end'), i32.const(8)))), len64), len64),
            ),
            l.get('b'),
          ),
        ),
      ),
      ...control.if(
        i32.geU(l.get('len'), i32.const(4)),
        control.return(
          hashLen16(
            i64.add(len64, i64.shl(i64.load32U(l.get('s')), n(3))),
            i64.load32U(i32.sub(l.get('end'), i32.const(4))),
          ),
        ),
      ),
      ...control.if(i32.gtU(l.get('len'), i32.const(0)), [
        ...l.set('a', i64.load8U(l.get('s'))),
        ...l.set('b', i64.load8U(i32.add(l.get('s'), i32.shrU(l.get('len'), i32.const(1))))),
        ...l.set('c', i64.load8U(i32.sub(l.get('end'), i32.const(1)))),
        ...control.return(
          i64.mul(
            shiftMix(
              l,
              'm',
              i64.xor(
                i64.mul(i64.add(l.get('a'), i64.shl(l.get('b'), n(8))), k2),
                i64.mul(i64.add(len64, i64.shl(l.get('c'), n(2))), k3),
              ),
            ),
            k2,
          ),
        ),
      ]),
      ...k2,
    ]
  },
}

/** CityHash128 of a short input (fewer than 128 bytes after the 16-byte seed). */
const shortFunction = {
  name: 'short',
  params: [
    ['p', 'i32'],
    ['len', 'i32'],
  ],
  locals: [...i64Locals('a', 'b', 'c', 'd', 't'), ['s', 'i32'], ['l', 'i32'], ['end', 'i32']],
  body: (l) => {
    const load = (at, offset = 0) => i64.load(at, offset)
    const fromEnd = (back) => i64.load(i32.sub(l.get('end'), i32.const(back)))
    const mix = (value) => i64.mul(shiftMix(l, 't', i64.mul(value, k1)), k1)
    return [
      // Seed and range, as CityHash128 picks them by length.
      ...control.if(
        i32.geU(l.get('len'), i32.const(16)),
        [
          ...l.set('a', i64.xor(load(l.get('p')), k3)),
          ...l.set('b', load(l.get('p'), 8)),
          ...l.set('s', i32.add(l.get('p'), i32.const(16))),
          ...l.set('l', i32.sub(l.get('len'), i32.const(16))),
        ],
        control.if(
          i32.geU(l.get('len'), i32.const(8)),
          [
            ...l.set('a', i64.xor(load(l.get('p')), i64.mul(i64.fromU32(l.get('len')), k0))),
            ...l.set('b', i64.xor(i64.load(i32.sub(i32.add(l.get('p'), l.get('len')), i32.const(8))), k1)),
            ...l.set('s', l.get('p')),
            ...l.set('l', i32.const(0)),
          ],
          [...l.set('a', k0), ...l.set('b', k1), ...l.set('s', l.get('p')), ...l.set('l', l.get('len'))],
        ),
      ),
      // CityMurmur(s, l, seed).
      ...l.set('end', i32.add(l.get('s'), l.get('l'))),
      ...control.if(
        i32.gtU(l.get('l'), i32.const(16)),
        [
          ...l.set('c', hashLen16(i64.add(fromEnd(8), k1), l.get('a'))),
          ...l.set(
            'd',
            hashLen16(i64.add(l.get('b'), i64.fromU32(l.get('l'))), i64.add(l.get('c'), fromEnd(16))),
          ),
          ...l.set('a', i64.add(l.get('a'), l.get('d'))),
          ...l.set('l', i32.sub(l.get('l'), i32.const(16))),
          ...control.doWhile(
            [
              ...l.set('a', i64.mul(i64.xor(l.get('a'), mix(load(l.get('s')))), k1)),
              ...l.set('b', i64.xor(l.get('b'), l.get('a'))),
              ...l.set('c', i64.mul(i64.xor(l.get('c'), mix(load(l.get('s'), 8))), k1)),
              ...l.set('d', i64.xor(l.get('d'), l.get('c'))),
              ...l.set('s', i32.add(l.get('s'), i32.const(16))),
              ...l.set('l', i32.sub(l.get('l'), i32.const(16))),
            ],
            i32.gtS(l.get('l'), i32.const(0)),
          ),
        ],
        [
          ...l.set('a', mix(l.get('a'))),
          ...l.set(
            'c',
            i64.add(i64.mul(l.get('b'), k1), control.call(hashLen0to16Index, l.get('s'), l.get('l'))),
          ),
          ...l.set(
            'd',
            shiftMix(
              l,
              't',
              i64.add(
                l.get('a'),
                control.select('i64', i32.geU(l.get('l'), i32.const(8)), load(l.get('s')), l.get('c')),
              ),
            ),
          ),
        ],
      ),
      ...l.set('a', hashLen16(l.get('a'), l.get('c'))),
      ...l.set('b', hashLen16(l.get('d'), l.get('b'))),
      ...i64.store(i32.const(0), i64.xor(l.get('a'), l.get('b'))),
      ...i64.store(i32.const(0), hashLen16(l.get('b'), l.get('a')), 8),
    ]
  },
}

const beginFunction = {
  name: 'begin',
  params: [
    ['p', 'i32'],
    ['len', 'i32'],
  ],
  locals: i64Locals(...state),
  body: (l) => [
    ...l.set('x', i64.xor(i64.load(l.get('p')), k3)),
    ...l.set('y', i64.load(l.get('p'), 8)),
    ...l.set('z', i64.mul(i64.fromU32(i32.sub(l.get('len'), i32.const(16))), k1)),
    ...l.set('v0', i64.add(i64.mul(rot(i64.xor(l.get('y'), k1), 49), k1), i64.load(l.get('p'), 16))),
    ...l.set('v1', i64.add(i64.mul(rot(l.get('v0'), 42), k1), i64.load(l.get('p'), 24))),
    ...l.set('w0', i64.add(i64.mul(rot(i64.add(l.get('y'), l.get('z')), 35), k1), l.get('x'))),
    ...l.set('w1', i64.mul(rot(i64.add(l.get('x'), i64.load(l.get('p'), 16 + 88)), 53), k1)),
    ...saveState(l),
  ],
}

/** One 64-byte round at p + offset; `x` and `z` name the locals playing those roles. */
function round(l, offset, x, z) {
  const p = l.get('p')
  return [
    ...l.set(
      x,
      i64.xor(
        i64.mul(rot(i64.add(l.get(x), l.get('y'), l.get('v0'), i64.load(p, offset + 16)), 37), k1),
        l.get('w1'),
      ),
    ),
    ...l.set(
      'y',
      i64.xor(i64.mul(rot(i64.add(l.get('y'), l.get('v1'), i64.load(p, offset + 48)), 42), k1), l.get('v0')),
    ),
    ...l.set(z, rot(i64.xor(l.get(z), l.get('w0')), 33)),
    ...weakHash(l, p, offset, i64.mul(l.get('v1'), k1), i64.add(l.get(x), l.get('w0')), 'v0', 'v1'),
    ...weakHash(l, p, offset + 32, i64.add(l.get(z), l.get('w1')), l.get('y'), 'w0', 'w1'),
  ]
}

const blocksFunction = {
  name: 'blocks',
  params: [
    ['p', 'i32'],
    ['n', 'i32'],
  ],
  locals: [...i64Locals(...state), ...weakLocals],
  body: (l) => [
    ...loadState(l),
    ...control.doWhile(
      [
        // The reference swaps x and z after each round; two rounds per block undo the swap.
        ...round(l, 0, 'x', 'z'),
        ...round(l, 64, 'z', 'x'),
        ...l.set('p', i32.add(l.get('p'), i32.const(128))),
        ...l.set('n', i32.sub(l.get('n'), i32.const(1))),
      ],
      i32.ne(l.get('n'), i32.const(0)),
    ),
    ...saveState(l),
  ],
}

const endFunction = {
  name: 'end',
  params: [
    ['p', 'i32'],
    ['tail', 'i32'],
  ],
  locals: [...i64Locals(...state), ...weakLocals, ['done', 'i32'], ['q', 'i32']],
  body: (l) => [
    ...loadState(l),
    ...l.set('y', i64.add(l.get('y'), i64.mul(rot(l.get('w0'), 37), k0), l.get('z'))),
    ...l.set('x', i64.add(l.get('x'), i64.mul(rot(i64.add(l.get('v0'), l.get('z')), 49), k0))),
    ...l.set('done', i32.const(0)),
    // Up to four 32-byte chunks counted back from the end; they may overlap hashed bytes.
    ...control.while(i32.ltU(l.get('done'), l.get('tail')), [
      ...l.set('done', i32.add(l.get('done'), i32.const(32))),
      ...l.set('y', i64.add(i64.mul(rot(i64.sub(l.get('y'), l.get('x')), 42), k0), l.get('v1'))),
      ...l.set('q', i32.sub(i32.add(l.get('p'), l.get('tail')), l.get('done'))),
      ...l.set('w0', i64.add(l.get('w0'), i64.load(l.get('q'), 16))),
      ...l.set('x', i64.add(i64.mul(rot(l.get('x'), 49), k0), l.get('w0'))),
      ...l.set('w0', i64.add(l.get('w0'), l.get('v0'))),
      ...weakHash(l, l.get('q'), 0, l.get('v0'), l.get('v1'), 'v0', 'v1'),
    ]),
    ...l.set('x', hashLen16(l.get('x'), l.get('v0'))),
    ...l.set('y', hashLen16(l.get('y'), l.get('w0'))),
    ...i64.store(i32.const(0), i64.add(hashLen16(i64.add(l.get('x'), l.get('v1')), l.get('w1')), l.get('y'))),
    ...i64.store(
      i32.const(0),
      hashLen16(i64.add(l.get('x'), l.get('w1')), i64.add(l.get('y'), l.get('v1'))),
      8,
    ),
  ],
}

/** The module: two pages of memory, the long-input state in globals, six functions. */
export const cityHashWasmModule = {
  pages: 2,
  globals: state,
  functions: [
    hashLen16Function,
    hashLen0to16Function,
    shortFunction,
    beginFunction,
    blocksFunction,
    endFunction,
  ],
}
