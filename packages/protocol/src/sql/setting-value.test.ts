import { describe, expect, it } from 'vitest'
import { UsageError } from '../errors/usage-error.js'
import type { SettingValue } from '../transport/transport-contract.js'
import { checkSettingName, settingEntries, settingValueText } from './setting-value.js'

describe('the setting encoder both transports use', () => {
  it('renders strings, booleans, numbers and bigints as the server parses them', () => {
    expect(settingValueText('s', 'in_order')).toBe('in_order')
    expect(settingValueText('s', '')).toBe('')
    expect(settingValueText('b', true)).toBe('1')
    expect(settingValueText('b', false)).toBe('0')
    expect(settingValueText('n', 3)).toBe('3')
    expect(settingValueText('n', -0)).toBe('0')
    expect(settingValueText('n', 0.25)).toBe('0.25')
    expect(settingValueText('n', Number.MAX_SAFE_INTEGER)).toBe('9007199254740991')
    expect(settingValueText('n', 18446744073709551615n)).toBe('18446744073709551615')
  })

  it('refuses NaN, infinities, inexact integers and values of other types with one wording', () => {
    const cases: Array<[unknown, string]> = [
      [Number.NaN, 'setting x: NaN is not a finite number'],
      [Number.POSITIVE_INFINITY, 'setting x: Infinity is not a finite number'],
      [Number.NEGATIVE_INFINITY, 'setting x: -Infinity is not a finite number'],
      [2 ** 60, 'setting x: 1152921504606847000 is not exact; pass a bigint or a string'],
      [{}, 'setting x: unsupported value type object (a setting takes a string, number, bigint or boolean)'],
      [[1], 'setting x: unsupported value type array (a setting takes a string, number, bigint or boolean)'],
      [null, 'setting x: unsupported value type null (a setting takes a string, number, bigint or boolean)'],
      [
        Symbol('s'),
        'setting x: unsupported value type symbol (a setting takes a string, number, bigint or boolean)',
      ],
    ]
    for (const [value, message] of cases) {
      expect(() => settingValueText('x', value as SettingValue), String(message)).toThrow(
        new UsageError(message),
      )
    }
  })

  it('takes identifiers as names only', () => {
    expect(() => checkSettingName('max_threads')).not.toThrow()
    expect(() => checkSettingName('')).toThrow(new UsageError('a setting needs a name'))
    expect(() => checkSettingName('a&b')).toThrow(new UsageError('invalid setting name "a&b"'))
    expect(() => checkSettingName('1x')).toThrow(UsageError)
  })

  it('lists the settings that are set, in order', () => {
    expect(settingEntries({ a: 1, b: undefined, c: true, d: 'x' })).toEqual([
      ['a', '1'],
      ['c', '1'],
      ['d', 'x'],
    ])
  })
})
