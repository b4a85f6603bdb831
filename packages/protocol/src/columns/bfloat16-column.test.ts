import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, hex } from '../../test/support/codec-checks.js'
import type { BFloat16Column } from './bfloat16-column.js'

describe('BFloat16', () => {
  it('exact bytes: the high half of each Float32, little-endian', () => {
    // 1.5 = 0x3fc00000, -2 = 0xc0000000, 0.15625 = 0x3e200000, +Inf = 0x7f800000
    checkCodec({
      type: 'BFloat16',
      values: [1.5, -2, 0.15625, Number.POSITIVE_INFINITY, 0],
      bytes: 'c03f 00c0 203e 807f 0000',
    })
  })

  it('decodes to a Float32Array', () => {
    const column = decodeColumn('BFloat16', encodeColumn('BFloat16', [3.5, -0.5]), 2) as BFloat16Column
    expect(column.values()).toBeInstanceOf(Float32Array)
    expect(Array.from(column.values())).toEqual([3.5, -0.5])
  })

  it('rounds toward zero when writing, as ClickHouse converts Float32 to BFloat16', () => {
    // 1.1 = 0x3f8ccccd: its high half 0x3f8c is 1.09375.
    expect(hex(encodeColumn('BFloat16', [1.1, -1.1]))).toBe('8c3f8cbf')
    expect(decodeColumn('BFloat16', encodeColumn('BFloat16', [1.1]), 1).get(0)).toBe(1.09375)
  })

  it('keeps NaN and reads number text', () => {
    expect(decodeColumn('BFloat16', encodeColumn('BFloat16', [Number.NaN]), 1).get(0)).toBeNaN()
    expect(decodeColumn('BFloat16', encodeColumn('BFloat16', ['-inf', '2']), 2).values()).toEqual(
      new Float32Array([Number.NEGATIVE_INFINITY, 2]),
    )
  })

  it('refuses a number beyond Float32, which would be cut to an infinity; keeps NaN and the infinities', () => {
    for (const input of [[1e39], Float64Array.of(-1e39), [10n ** 39n], ['1e39']])
      expect(() => encodeColumn('BFloat16', input)).toThrow(
        /^row 0: .* is not a valid BFloat16 \(out of range\)$/,
      )
    const kept = [3.4e38, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]
    const column = decodeColumn('BFloat16', encodeColumn('BFloat16', kept), 4)
    expect(Array.from(column.values() as Float32Array)).toEqual([
      3.3895313892515355e38,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ])
  })
})
