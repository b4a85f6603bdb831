import { describe, expect, it } from 'vitest'
import { context, fromHex } from '../../test/support/codec-checks.js'
import { NativeBlockReader } from '../blocks/native-block-reader.js'
import { NativeBlockWriter } from '../blocks/native-block-writer.js'
import { ByteReader } from '../io/byte-reader.js'
import { ByteWriter } from '../io/byte-writer.js'
import { hasCodec } from './codec-registry.js'
import { typedValue } from './typed-value.js'

const columns = [
  { name: 'a', type: 'Array(Nullable(String))', values: [['a', null], []] },
  { name: 'm', type: 'Map(String, LowCardinality(String))', values: [new Map([['k', 'v']]), new Map()] },
  {
    name: 't',
    type: 'Tuple(a LowCardinality(String), b Variant(String, UInt64))',
    values: [
      { a: 'x', b: 1n },
      { a: '', b: null },
    ],
  },
  { name: 'd', type: 'Dynamic', values: [typedValue('Array(LowCardinality(String))', ['p']), 'q'] },
  { name: 'j', type: 'JSON', values: [{ x: { y: 1 } }, {}] },
  { name: 'n', type: 'Nested(k UInt8, v Array(String))', values: [[{ k: 1, v: ['z'] }], []] },
  { name: 'p', type: 'MultiPolygon', values: [[[[[1, 2]]]], []] },
]
const expected = [
  [['a', null], []],
  [new Map([['k', 'v']]), new Map()],
  [
    { a: 'x', b: 1n },
    { a: '', b: null },
  ],
  [['p'], 'q'],
  [{ x: { y: 1n } }, {}],
  [[{ k: 1, v: ['z'] }], []],
  [[[[[1, 2]]]], []],
]

function encode(revision: number) {
  const writer = new ByteWriter()
  new NativeBlockWriter({ ...context(), revision }).write(writer, columns, 2)
  return writer.copy()
}

describe('composite codecs in Native blocks', () => {
  it('are all registered', () => {
    for (const name of [
      'Nullable',
      'Array',
      'Tuple',
      'Map',
      'Nested',
      'LowCardinality',
      'Variant',
      'Dynamic',
      'JSON',
    ])
      expect(hasCodec(name)).toBe(true)
    for (const name of ['Point', 'Ring', 'LineString', 'Polygon', 'MultiLineString', 'MultiPolygon'])
      expect(hasCodec(name)).toBe(true)
  })

  it.each([0, 54412, 54460])('round-trip nested prefixes in one block at revision %i', (revision) => {
    const block = new NativeBlockReader({ ...context(), revision }).read(new ByteReader(encode(revision)))!
    expect(block.columns.map((column) => column.column.values())).toEqual(expected)
    expect(block.columns.map((column) => [0, 1].map((row) => column.column.get(row)))).toEqual(expected)
  })

  it('report every truncation of the block as missing input, at every offset', () => {
    const bytes = encode(54460)
    for (let cut = 0; cut < bytes.length; cut++) {
      const reader = new ByteReader(bytes.subarray(0, cut))
      expect(
        new NativeBlockReader({ ...context(), revision: 54460 }).read(reader),
        `cut ${cut}`,
      ).toBeUndefined()
      expect(reader.missing, `cut ${cut}`).toBeGreaterThan(cut)
    }
  })

  it('keep a LowCardinality dictionary from one block of a stream to the next', () => {
    const header = (rows: number) =>
      `01 0${rows} 026c63 204c6f7743617264696e616c697479284e756c6c61626c6528537472696e672929`
    const first = fromHex(
      `${header(1)} 0100000000000000 0005000000000000 0300000000000000 00 00 0161 0100000000000000 02`,
    )
    const second = fromHex(`${header(2)} 0100000000000000 0001000000000000 0200000000000000 0002`)
    const reader = new NativeBlockReader({ ...context(), revision: 0 }, false)
    expect(reader.read(new ByteReader(first))!.columns[0]!.column.values()).toEqual(['a'])
    expect(reader.read(new ByteReader(second))!.columns[0]!.column.values()).toEqual([null, 'a'])
  })
})
