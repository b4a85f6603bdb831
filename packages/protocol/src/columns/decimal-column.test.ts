import { describe, expect, it } from 'vitest'
import { checkCodec, context, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import { type DecimalColumn, decimalWidth } from './decimal-column.js'

const max76 = `${'9'.repeat(66)}.${'9'.repeat(10)}`

describe('Decimal', () => {
  it('picks 4, 8, 16 or 32 bytes from the precision', () => {
    expect([1, 9, 10, 18, 19, 38, 39, 76].map(decimalWidth)).toEqual([4, 4, 8, 8, 16, 16, 32, 32])
  })

  it('Decimal(9, 2): Int32 unscaled, exact text with S digits, at ±9999999.99', () => {
    // chdb: toDecimal32('9999999.99', 2), ('-9999999.99', 2), ('-12.5', 2), ('0.01', 2)
    checkCodec({
      type: 'Decimal(9, 2)',
      values: ['9999999.99', '-9999999.99', '-12.50', '0.01'],
      bytes: 'ffc99a3b 013665c4 1efbffff 01000000',
    })
  })

  it('Decimal(18, 4): Int64, at ±99999999999999.9999', () => {
    checkCodec({
      type: 'Decimal(18, 4)',
      values: ['99999999999999.9999', '-99999999999999.9999', '0.0001'],
      bytes: 'ffff63a7b3b6e00d 01009c584c491ff2 0100000000000000',
    })
  })

  it('Decimal(38, 10): Int128, at its limits', () => {
    const max = `${'9'.repeat(28)}.${'9'.repeat(10)}`
    checkCodec({
      type: 'Decimal(38, 10)',
      values: [max, `-${max}`, '-0.0000000001'],
      bytes:
        'ffffffff3f228a097ac4865aa84c3b4b 01000000c0dd75f6853b79a557b3c4b4 ffffffffffffffffffffffffffffffff',
    })
  })

  it('Decimal(76, 10): Int256, at its limits', () => {
    checkCodec({
      type: 'Decimal(76, 10)',
      values: [max76, `-${max76}`, '1.0000000000'],
      bytes:
        'ffffffffffffffffff0f9571f1a57577792965e8abb46407b5159911a7cc1b16' +
        '010000000000000000f06a8e0e5a8a8886d69a17544b9bf84aea66ee5833e4e9' +
        '00e40b5402000000000000000000000000000000000000000000000000000000',
    })
  })

  it('Decimal32/64/128/256(S) and Decimal(P) with scale 0', () => {
    checkCodec({ type: 'Decimal32(3)', values: ['-1.500'], bytes: '24faffff' })
    checkCodec({ type: 'Decimal64(0)', values: ['7'], bytes: '0700000000000000' })
    checkCodec({ type: 'Decimal128(1)', values: ['0.1'], bytes: '01000000000000000000000000000000' })
    checkCodec({ type: 'Decimal256(0)', values: ['-1'], bytes: 'ff'.repeat(32) })
    checkCodec({ type: 'Decimal(3)', values: ['123'], bytes: '7b000000' })
  })

  it('maps to the nearest JS number with decimal: number, as a Float64Array', () => {
    const column = checkCodec({
      type: 'Decimal(18, 4)',
      values: ['0.1', '-12.5', '99999999999999.9999'],
      decoded: [0.1, -12.5, 1e14],
      mapping: { decimal: 'number' },
    })
    expect(column.values()).toBeInstanceOf(Float64Array)
    const wide = decodeColumn(
      'Decimal(76, 10)',
      encodeColumn('Decimal(76, 10)', [max76, '0.3']),
      2,
      context({ decimal: 'number' }),
    )
    expect(Array.from(wide.values())).toEqual([1e66, 0.3])
  })

  it('keeps Decimal64 values past 2^53 exact', () => {
    checkCodec({ type: 'Decimal(18, 0)', values: ['9007199254740993', '-9007199254740993'] })
    const column = decodeColumn('Decimal(18, 2)', fromHex('0100000000000080'), 1) as DecimalColumn
    expect(column.get(0)).toBe('-92233720368547758.07')
    expect(column.data).toBeInstanceOf(BigInt64Array)
  })

  it('reads strings and numbers (by their shortest text) exactly, bigints as integer values', () => {
    const inputs = [
      '1.5',
      '+3.1',
      '.5',
      '5.',
      '1e-2',
      '0.1E1',
      '-0',
      '1.2300',
      1.25,
      -1.5,
      0.1,
      12n,
      1e-2,
      -0,
      1.2e3,
    ]
    const column = decodeColumn('Decimal(9, 2)', encodeColumn('Decimal(9, 2)', inputs), inputs.length)
    expect(Array.from(column.values())).toEqual([
      '1.50',
      '3.10',
      '0.50',
      '5.00',
      '0.01',
      '1.00',
      '0.00',
      '1.23',
      '1.25',
      '-1.50',
      '0.10',
      '12.00',
      '0.01',
      '0.00',
      '1200.00',
    ])
  })

  it('refuses to drop nonzero digits past the scale, from text and numbers alike, like ClickHouse 18.16', () => {
    // 18.16 answers "Decimal value is too small" for '1.239' into Decimal(9, 2); 26.7 drops the 9.
    expect(() => encodeColumn('Decimal(9, 2)', ['1.00', '1.239'])).toThrow(
      'row 1: "1.239" is not a valid Decimal(9, 2) (more than 2 digits after the point; round it first)',
    )
    // A number is its shortest text: 1.005 is refused as '1.005' is, not rounded.
    for (const [number, text] of [
      [1.005, '1.005'],
      [-1.005, '-1.005'],
      [0.1 + 0.2, '0.30000000000000004'],
      [1e-7, '1e-7'],
    ] as const) {
      expect(() => encodeColumn('Decimal(9, 2)', [number])).toThrow(
        `row 0: ${number} is not a valid Decimal(9, 2) (more than 2 digits after the point; round it first)`,
      )
      expect(() => encodeColumn('Decimal(9, 2)', [text])).toThrow(
        `row 0: ${JSON.stringify(text)} is not a valid Decimal(9, 2) (more than 2 digits after the point; round it first)`,
      )
    }
    // Zeros past the scale change nothing.
    expect(
      Array.from(decodeColumn('Decimal(9, 2)', encodeColumn('Decimal(9, 2)', ['1.500']), 1).values()),
    ).toEqual(['1.50'])
  })

  it('rejects values with more than P - S integer digits and non-numbers', () => {
    expect(() => encodeColumn('Decimal(9, 2)', ['10000000'])).toThrow(/more than 7 digits before the point/)
    expect(() => encodeColumn('Decimal(9, 2)', [-100000000.25])).toThrow(
      /more than 7 digits before the point/,
    )
    expect(() => encodeColumn('Decimal(76, 10)', [`1${max76}`])).toThrow(/more than 66 digits/)
    expect(() => encodeColumn('Decimal(9, 2)', [Number.NaN])).toThrow(/row 0: NaN is not a valid Decimal/)
    expect(() => encodeColumn('Decimal(9, 2)', ['1.2.3'])).toThrow(/expected a decimal number/)
    expect(() => encodeColumn('Decimal(9, 2)', ['.'])).toThrow(/expected a decimal number/)
    // Strictly, as the other numeric types (and the server's parameter parser): no spaces.
    for (const text of [' 1.5', '1.5 ', '1.5\n', '', '0x10'])
      expect(() => encodeColumn('Decimal(9, 2)', [text])).toThrow(/row 0: .* is not a valid Decimal\(9, 2\)/)
    expect(() => encodeColumn('Decimal(9, 2)', [true])).toThrow(/expected a string, number or bigint/)
    expect(() => encodeColumn('Decimal(77, 2)', ['1'])).toThrow(/precision must be an integer from 1 to 76/)
    expect(() => encodeColumn('Decimal(9, 10)', ['1'])).toThrow(/scale must be an integer from 0 to 9/)
  })
})
