import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, encodeColumn, fromHex } from '../../test/support/codec-checks.js'
import { UsageError } from '../errors/usage-error.js'
import type { AggregateFunctionColumn } from './aggregate-function-column.js'

const hash16 = '4809cb4528e00621cf626be9fa14e2bf'

/**
 * States as ClickHouse serializes them: `SELECT <f>State(...)` over numbers(3) (or as
 * noted) in Native format. Every row here was read from 18.16 or 26.7 (chdb); where both
 * have the type, both wrote the same bytes.
 */
const states: [type: string, states: string[]][] = [
  ['AggregateFunction(count, UInt64)', ['03', '00', '8001']],
  ['AggregateFunction(count)', ['03']],
  ['AggregateFunction(sum, UInt8)', ['0300000000000000']],
  ['AggregateFunction(sum, Float32)', ['000000000000f03f']],
  ['AggregateFunction(sum, Decimal(9, 2))', ['64000000000000000000000000000000']],
  ['AggregateFunction(sum, Int256)', [`01${'00'.repeat(31)}`]],
  ['AggregateFunction(sum, UInt128)', [`01${'00'.repeat(15)}`]],
  ['AggregateFunction(sum, Decimal(76, 2))', [`64${'00'.repeat(31)}`]],
  ['AggregateFunction(avg, Int32)', ['030000000000000003', '000000000000000000']],
  ['AggregateFunction(avg, Decimal(18, 3))', ['e803000000000000000000000000000002']],
  ['AggregateFunction(avg, Int128)', ['0100000000000000000000000000000002']],
  ['AggregateFunction(avg, UInt256)', [`01${'00'.repeat(31)}02`]],
  ['AggregateFunction(min, UInt16)', ['010000', '00']],
  ['AggregateFunction(max, String)', ['020000003200', 'ffffffff', '0100000000']],
  ['AggregateFunction(any, Float32)', ['0100000000']],
  ['AggregateFunction(anyLast, String)', ['020000003200']],
  ['AggregateFunction(min, Decimal(9, 2))', ['0100000000']],
  ['AggregateFunction(min, DateTime)', ['0100000000']],
  ['AggregateFunction(min, UUID)', ['01efcdab8967452301efcdab8967452301']],
  ['AggregateFunction(min, IPv4)', ['0104030201']],
  ['AggregateFunction(min, Date32)', ['0100000000']],
  ['AggregateFunction(min, DateTime64(3))', ['010000000000000000']],
  ['AggregateFunction(max, Int256)', [`0101${'00'.repeat(31)}`]],
  ['AggregateFunction(min, FixedString(3))', ['01616200']],
  ["AggregateFunction(min, Enum8('a' = 0, 'b' = 1))", ['0100']],
  ['AggregateFunction(min, IntervalSecond)', ['010000000000000000']],
  ['AggregateFunction(argMin, String, UInt64)', ['020000003000010000000000000000', 'ffffffff00']],
  ['AggregateFunction(argMax, UInt64, String)', ['010200000000000000020000003200']],
  ['AggregateFunction(uniq, UInt64)', ['0003000000002ccbc234e7830665', '0000']],
  ['AggregateFunction(uniq, String)', ['000202bc4b7bbadf6dd8']],
  ['AggregateFunction(uniqExact, UInt64)', ['03000000000000000001000000000000000200000000000000']],
  [
    'AggregateFunction(uniqExact, String)',
    [`03${hash16}e2756d8f7a583ca23016e03447724de78b0b836069a91c43c1552354d9a2b3f5`],
  ],
  ['AggregateFunction(uniqExact, Date)', ['03000001000200']],
  ['AggregateFunction(uniqExact, Float32)', ['02000000000000803f']],
  ['AggregateFunction(uniqExact, Int128)', [`02${'00'.repeat(16)}01${'00'.repeat(15)}`]],
  ['AggregateFunction(uniqExact, UInt256)', [`02${'00'.repeat(32)}01${'00'.repeat(31)}`]],
  ['AggregateFunction(uniqExact, UUID)', ['01efcdab8967452301efcdab8967452301']],
  ['AggregateFunction(uniqExact, IPv4)', ['0104030201']],
  ['AggregateFunction(uniqExact, Date32)', ['0100000000']],
  ["AggregateFunction(uniqExact, Enum16('a' = 0, 'b' = 1000))", ['010000']],
  ['AggregateFunction(uniqExact, Decimal(9, 2))', ['013cb6ac6836ae9ad6a42087da67f06fad']],
  ['AggregateFunction(uniqExact, IPv6)', ['01b4004e8c5929254f9d2c42cfaecb926f']],
  ['AggregateFunction(uniqExact, UInt64, UInt64)', [`02${hash16}${hash16}`]],
  ['AggregateFunction(groupArray, UInt16)', ['03000001000200', '00']],
  ['AggregateFunction(groupArray, String)', ['03013001310132']],
  ['AggregateFunction(groupArray(2), UInt64)', ['0200000000000000000100000000000000']],
  ['AggregateFunction(groupArray, Date)', ['03000001000200']],
  ['AggregateFunction(groupArray, DateTime)', ['020000000001000000']],
  ["AggregateFunction(groupArray, Enum8('a' = 0, 'b' = 1))", ['020001']],
  ['AggregateFunction(groupArray, Decimal(9, 1))', ['030400000000040a0000000414000000']],
  ['AggregateFunction(groupArray, DateTime64(3))', ['0208000000000000000008e803000000000000']],
  ['AggregateFunction(groupArray, Date32)', ['0204000000000401000000']],
  ['AggregateFunction(groupArray, FixedString(3))', ['020361620003616200']],
  ['AggregateFunction(sumIf, UInt64, UInt8)', ['0300000000000000']],
  ['AggregateFunction(countIf, UInt8)', ['00']],
  // 26.7 keeps Nullable in the type and writes a flag before the nested state.
  ['AggregateFunction(min, Nullable(UInt8))', ['010100', '00']],
  ['AggregateFunction(sum, Nullable(UInt8))', ['010200000000000000', '00']],
  ['AggregateFunction(avg, Nullable(Float64))', ['01000000000000084003']],
  ['AggregateFunction(uniq, Nullable(UInt8))', ['01000200000000e7830665', '010000']],
  [`AggregateFunction(uniqExact, Nullable(String))`, [`0101${hash16}`]],
  ['AggregateFunction(count, Nullable(UInt8))', ['02', '00']],
  ['AggregateFunction(groupArray, Nullable(UInt8))', ['020002', '00']],
  ['AggregateFunction(argMax, Nullable(UInt8), Nullable(UInt8))', ['0101020102', '00']],
  ['AggregateFunction(argMax, Nullable(UInt8), UInt64)', ['010102010200000000000000']],
  ['AggregateFunction(sumIf, Nullable(UInt8), UInt8)', ['010200000000000000']],
  ['AggregateFunction(anyLast, Nullable(Decimal(38, 3)))', ['0101e8030000000000000000000000000000']],
  ['AggregateFunction(min, LowCardinality(String))', ['020000003000']],
]

describe('AggregateFunction', () => {
  it.each(states)('%s: finds where each state ends', (type, hexStates) => {
    const values = hexStates.map(fromHex)
    checkCodec({ type, values, bytes: hexStates.join('') })
  })

  it('gives views of the received bytes', () => {
    const bytes = fromHex('03 00')
    const column = decodeColumn('AggregateFunction(count)', bytes, 2) as AggregateFunctionColumn
    expect(column.get(1).buffer).toBe(bytes.buffer)
  })

  it('names an unsupported function and suggests finalizeAggregation', () => {
    const type = 'AggregateFunction(quantiles(0.5, 0.9), UInt64)'
    const decode = () => decodeColumn(type, fromHex('00'), 1)
    expect(decode).toThrow(UsageError)
    expect(decode).toThrow(/AggregateFunction\(quantiles\(0.5, 0.9\), UInt64\) states is not known/)
    expect(decode).toThrow(/finalizeAggregation/)
    expect(() => encodeColumn(type, [new Uint8Array(1)])).toThrow(/quantiles/)
    expect(() => encodeColumn('AggregateFunction(min, Array(UInt8))', [new Uint8Array(1)])).toThrow(
      /not known/,
    )
    expect(decodeColumn(type, new Uint8Array(0), 0).length).toBe(0)
  })

  it('writes only Uint8Arrays holding exactly one state', () => {
    expect(() => encodeColumn('AggregateFunction(count)', ['03'])).toThrow(
      /row 0: "03" is not a valid .* Uint8Array/,
    )
    expect(() => encodeColumn('AggregateFunction(count)', [fromHex('0300')])).toThrow(
      /not exactly one serialized state/,
    )
    expect(() => encodeColumn('AggregateFunction(sum, UInt64)', [fromHex('03')])).toThrow(/not exactly one/)
  })

  it('treats impossible sizes as malformed input', () => {
    expect(() => decodeColumn('AggregateFunction(groupArray, String)', fromHex('ffffffff0f'), 1)).toThrow(
      /groupArray size 4294967295 is larger than 16777215/,
    )
  })
})

describe('SimpleAggregateFunction', () => {
  it('is stored as its value type', () => {
    checkCodec({
      type: 'SimpleAggregateFunction(sum, UInt64)',
      values: [1n, 2n],
      bytes: '0100000000000000 0200000000000000',
    })
    checkCodec({
      type: 'SimpleAggregateFunction(anyLast, DateTime64(3))',
      values: ['2020-01-01 00:00:00.000'],
    })
  })
})
