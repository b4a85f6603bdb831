// A tiny WebAssembly binary encoder, just enough for the CityHash128 module: i32/i64
// arithmetic, loads and stores, locals, globals, if/loop and calls. Expressions are byte
// arrays that leave one value on the stack; statements leave none. Used only by
// generate-cityhash-wasm.mjs; only the bytes it writes ship.

/** @typedef {readonly number[]} Code instruction bytes */
/** @typedef {'i32' | 'i64'} ValueType */
/**
 * @typedef {object} LocalAccess reads and writes of one function's locals, by name
 * @property {(name: string) => Code} get
 * @property {(name: string, value: Code) => Code} set
 * @property {(name: string, value: Code) => Code} tee
 */
/**
 * @typedef {object} FunctionSpec
 * @property {string} [name] the export name; unexported functions are called by index
 * @property {readonly [string, ValueType][]} params
 * @property {ValueType} [result]
 * @property {readonly [string, ValueType][]} [locals]
 * @property {(local: LocalAccess) => Code} body builds the body from accessors for the locals
 */

/** @type {Record<ValueType, number>} */
const typeCode = { i32: 0x7f, i64: 0x7e }
export function unsignedLeb(value) {
  const out = []
  do {
    let byte = value & 0x7f
    value = Math.floor(value / 128)
    if (value !== 0) byte |= 0x80
    out.push(byte)
  } while (value !== 0)
  return out
}

export function signedLeb(value) {
  const out = []
  for (;;) {
    const byte = Number(value & 0x7fn)
    value >>= 7n
    const done = (value === 0n && (byte & 0x40) === 0) || (value === -1n && (byte & 0x40) !== 0)
    out.push(done ? byte : byte | 0x80)
    if (done) return out
  }
}

function name(text) {
  const bytes = Array.from(new TextEncoder().encode(text))
  return [...unsignedLeb(bytes.length), ...bytes]
}

function vector(items) {
  return [...unsignedLeb(items.length), ...items.flat()]
}

function section(id, items) {
  const body = vector(items)
  return [id, ...unsignedLeb(body.length), ...body]
}

const cat = (...parts) => parts.flat()

/** i64 instructions over expressions. */
export const i64 = {
  const: (value) => [0x42, ...signedLeb(BigInt.asIntN(64, value))],
  add: (...terms) => terms.reduce((sum, term) => cat(sum, term, [0x7c])),
  sub: (a, b) => cat(a, b, [0x7d]),
  mul: (a, b) => cat(a, b, [0x7e]),
  and: (a, b) => cat(a, b, [0x83]),
  or: (a, b) => cat(a, b, [0x84]),
  xor: (a, b) => cat(a, b, [0x85]),
  shl: (a, b) => cat(a, b, [0x86]),
  shrU: (a, b) => cat(a, b, [0x88]),
  rotr: (a, b) => cat(a, b, [0x8a]),
  /** Unsigned widening of an i32 expression. */
  fromU32: (a) => cat(a, [0xad]),
  /** 8 bytes at address + offset; alignment hint 1 since checksummed bytes sit anywhere. */
  load: (address, offset = 0) => cat(address, [0x29, 0, ...unsignedLeb(offset)]),
  load32U: (address, offset = 0) => cat(address, [0x35, 0, ...unsignedLeb(offset)]),
  load8U: (address, offset = 0) => cat(address, [0x31, 0, ...unsignedLeb(offset)]),
  store: (address, value, offset = 0) => cat(address, value, [0x37, 0, ...unsignedLeb(offset)]),
}

/** i32 instructions over expressions. */
export const i32 = {
  const: (value) => [0x41, ...signedLeb(BigInt(value | 0))],
  add: (a, b) => cat(a, b, [0x6a]),
  sub: (a, b) => cat(a, b, [0x6b]),
  shrU: (a, b) => cat(a, b, [0x76]),
  eqz: (a) => cat(a, [0x45]),
  ne: (a, b) => cat(a, b, [0x47]),
  gtS: (a, b) => cat(a, b, [0x4a]),
  gtU: (a, b) => cat(a, b, [0x4b]),
  geU: (a, b) => cat(a, b, [0x4f]),
  ltU: (a, b) => cat(a, b, [0x49]),
}

/** Control flow. */
export const control = {
  /** `if (cond) then else otherwise` as a statement. */
  if: (cond, then, otherwise = []) =>
    cat(cond, [0x04, 0x40], then, otherwise.length ? cat([0x05], otherwise) : [], [0x0b]),
  /** `cond ? then : otherwise` as an expression of type `type`. */
  select: (type, cond, then, otherwise) => cat(cond, [0x04, typeCode[type]], then, [0x05], otherwise, [0x0b]),
  /** `do { body } while (cond)`. */
  doWhile: (body, cond) => cat([0x03, 0x40], body, cond, [0x0d, 0, 0x0b]),
  /** `while (cond) { body }`. */
  while: (cond, body) => cat([0x02, 0x40, 0x03, 0x40], i32.eqz(cond), [0x0d, 1], body, [0x0c, 0, 0x0b, 0x0b]),
  return: (value = []) => cat(value, [0x0f]),
  call: (index, ...args) => cat(...args, [0x10, ...unsignedLeb(index)]),
}

/** Mutable i64 globals, all starting at 0, addressed by name. */
export function globals(names) {
  const index = (global) => {
    const found = names.indexOf(global)
    if (found < 0) throw new Error(`unknown global ${global}`)
    return found
  }
  return {
    get: (global) => [0x23, ...unsignedLeb(index(global))],
    set: (global, value) => cat(value, [0x24, ...unsignedLeb(index(global))]),
  }
}

/**
 * A module: one exported memory of `pages` 64 KiB pages, i64 globals and functions (index = order).
 * @param {{ pages: number, globals: readonly string[], functions: readonly FunctionSpec[] }} spec
 * @returns {Uint8Array}
 */
export function assembleModule(spec) {
  const signatures = []
  const signatureOf = (fn) => {
    const key = `${fn.params.map(([, type]) => type).join(',')}->${fn.result ?? ''}`
    if (!signatures.includes(key)) signatures.push(key)
    return signatures.indexOf(key)
  }
  const functionTypes = spec.functions.map(signatureOf)
  const typeSection = signatures.map((key) => {
    const [params, result] = key.split('->')
    const paramTypes = params ? params.split(',').map((type) => typeCode[type]) : []
    const resultTypes = result ? [typeCode[result]] : []
    return [0x60, ...vector(paramTypes.map((t) => [t])), ...vector(resultTypes.map((t) => [t]))]
  })
  const bodies = spec.functions.map((fn) => {
    const all = [...fn.params, ...(fn.locals ?? [])]
    const index = (local) => {
      const found = all.findIndex(([n]) => n === local)
      if (found < 0) throw new Error(`unknown local ${local}`)
      return unsignedLeb(found)
    }
    const access = {
      get: (local) => [0x20, ...index(local)],
      set: (local, value) => cat(value, [0x21, ...index(local)]),
      tee: (local, value) => cat(value, [0x22, ...index(local)]),
    }
    const locals = (fn.locals ?? []).map(([, type]) => [1, typeCode[type]])
    const code = [...vector(locals), ...fn.body(access), 0x0b]
    return [...unsignedLeb(code.length), ...code]
  })
  const exports = spec.functions.flatMap((fn, i) =>
    fn.name ? [[...name(fn.name), 0x00, ...unsignedLeb(i)]] : [],
  )
  exports.unshift([...name('memory'), 0x02, 0])
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, typeSection),
    ...section(
      3,
      functionTypes.map((t) => unsignedLeb(t)),
    ),
    ...section(5, [[0x00, ...unsignedLeb(spec.pages)]]),
    ...section(
      6,
      spec.globals.map(() => [0x7e, 0x01, 0x42, 0x00, 0x0b]),
    ),
    ...section(7, exports),
    ...section(10, bodies),
  ])
}
