import { describe, expect, it } from 'vitest'
import { jsonReplacer } from './json-replacer.js'

const stringify = (value: unknown) => JSON.stringify(value, jsonReplacer)

describe('jsonReplacer', () => {
  it('writes bigints as decimal strings, at any depth', () => {
    expect(stringify({ n: 3n, min: -9223372036854775808n, u256: 2n ** 256n - 1n })).toBe(
      `{"n":"3","min":"-9223372036854775808","u256":"${2n ** 256n - 1n}"}`,
    )
    expect(stringify([{ a: [1n, null, [2n]] }, { t: [1, 'x', 5n] }])).toBe(
      '[{"a":["1",null,["2"]]},{"t":[1,"x","5"]}]',
    )
  })

  it('writes a Map as an object keyed by the keys as text', () => {
    expect(
      stringify({
        m: new Map<unknown, unknown>([
          [1n, 'x'],
          [2, new Map([['k', 3n]])],
          ['s', [4n]],
        ]),
      }),
    ).toBe('{"m":{"1":"x","2":{"k":"3"},"s":["4"]}}')
    expect(stringify(new Map([['__proto__', 1]]))).toBe('{"__proto__":1}')
    expect(stringify(new Map([[[1n, 'a'], true]]))).toBe('{"[\\"1\\",\\"a\\"]":true}')
  })

  it('writes typed arrays as arrays', () => {
    expect(stringify({ a: new Int32Array([1, -2]), b: new BigUint64Array([18446744073709551615n]) })).toBe(
      '{"a":[1,-2],"b":["18446744073709551615"]}',
    )
    expect(stringify(new Float32Array([0.5]))).toBe('[0.5]')
  })

  it('leaves the rest to JSON.stringify (NaN and infinities become null, as the server prints them)', () => {
    expect(
      stringify({ s: 'a/b\u0000', d: '1.50', f: Number.NaN, i: Number.NEGATIVE_INFINITY, b: true, n: null }),
    ).toBe('{"s":"a/b\\u0000","d":"1.50","f":null,"i":null,"b":true,"n":null}')
  })
})
