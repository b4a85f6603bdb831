import { describe, expect, it } from 'vitest'
import { typeTextPredicate } from './support/type-text-predicate.js'

// Pure, no server: lives with the integration tests because it tests a test helper.
describe('typeTextPredicate', () => {
  const check = (text: string, good: unknown[], bad: unknown[]) => {
    const predicate = typeTextPredicate(text)
    for (const value of good) expect([text, value, predicate(value)]).toEqual([text, value, true])
    for (const value of bad) expect([text, value, predicate(value)]).toEqual([text, value, false])
  }

  it('checks scalars', () => {
    check('number', [0, -1.5, Number.NaN], [1n, '1', null])
    check('bigint', [0n, -1n], [0, '0'])
    check('string', ['', 'x'], [1, null, undefined])
    check('boolean', [true, false], [0, 'true'])
    check('null', [null], [undefined, 0])
    check('Date', [new Date(0)], ['2017-01-01', 0, new Date(Number.NaN)])
    check('Uint8Array', [new Uint8Array(2)], [[1, 2], new Int8Array(2)])
    check('unknown', [1, null, undefined, {}], [])
    check('never', [], [1, null, undefined])
  })

  it('checks literals and unions', () => {
    check('"a" | "it\'s" | "y \\"quoted\\""', ['a', "it's", 'y "quoted"'], ['b', 'A', 1])
    check('string | null', ['x', null], [undefined, 1])
    check('bigint | number | null', [1n, 1, null], ['1'])
  })

  it('checks arrays, tuples, objects and maps', () => {
    check('number[]', [[], [1, 2]], [[1, '2'], new Uint8Array(1), 'x'])
    check('(string | null)[]', [['a', null]], [[1]])
    check('string[][]', [[['a'], []]], [['a']])
    check('[number, string]', [[1, 'a']], [[1], [1, 'a', 2], ['a', 1], { 0: 1, 1: 'a' }])
    check(
      '{ id: bigint; label: string | null }',
      [{ id: 1n, label: null }],
      [{ id: 1, label: null }, { id: 1n }, { id: 1n, label: 'x', extra: 1 }, new Map()],
    )
    check('{ "a b": number }', [{ 'a b': 1 }], [{ a: 1 }])
    check('[number[], [string, string]]', [[[1], ['2017-01-01', '2.50']]], [[[1], ['2017-01-01']]])
    check('Map<string, bigint>', [new Map([['a', 1n]]), new Map()], [new Map([['a', 1]]), { a: 1n }])
    check('Record<string, unknown>', [{}, { a: 1 }], [null, [], new Map()])
  })

  it('refuses type text it does not know', () => {
    expect(() => typeTextPredicate('Set<string>')).toThrow(/known type name/)
    expect(() => typeTextPredicate('string |')).toThrow(/expected a type/)
    expect(() => typeTextPredicate('number extra')).toThrow(/end of type/)
  })
})
