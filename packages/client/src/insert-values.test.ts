import { type ColumnMeta, ColumnParts, type InsertBatch, parseType, wholeColumn } from '@clickwire/protocol'
import {
  DateDay,
  Decimal,
  Dictionary,
  Field,
  Int32,
  List,
  makeBuilder,
  Struct,
  TimestampNanosecond,
  Utf8,
  vectorFromArray,
} from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { arrowColumnValues } from './arrow-insert-values.js'
import { insertSource } from './insert-values.js'

const header = (columns: Record<string, string>): ColumnMeta[] =>
  Object.entries(columns).map(([name, type]) => ({ name, type, typeNode: parseType(type) }))

async function batches(values: unknown, columns: ColumnMeta[], blockRows: number) {
  const source = await insertSource(values as never, blockRows)
  const out: { rows: number; columns: unknown[][] }[] = []
  for await (const batch of source.batches(columns)) {
    out.push({ rows: batch.rows, columns: batch.columns.map((column) => Array.from(wholeColumn(column))) })
  }
  return { names: source.names, out }
}

describe('insert blocks', () => {
  const x = header({ x: 'UInt32' })

  it('joins small chunks into blocks of blockRows, the last one smaller', async () => {
    async function* chunks() {
      for (let i = 0; i < 25; i += 3)
        yield Array.from({ length: Math.min(3, 25 - i) }, (_, j) => ({ x: i + j }))
    }
    const { names, out } = await batches(chunks(), x, 10)
    expect(names).toEqual(['x'])
    expect(out.map((batch) => batch.rows)).toEqual([10, 10, 5])
    expect(out.flatMap((batch) => batch.columns[0])).toEqual(Array.from({ length: 25 }, (_, i) => i))
  })

  it('cuts large chunks as views and tops held rows up from the next chunk', async () => {
    const big = new Uint32Array(25).map((_, i) => i)
    async function* chunks() {
      yield [{ x: 100 }, { x: 101 }]
      yield { x: big }
    }
    const { out } = await batches(chunks(), x, 10)
    expect(out.map((batch) => batch.rows)).toEqual([10, 10, 7])
    expect(out.flatMap((batch) => batch.columns[0])).toEqual([100, 101, ...big])
  })

  it('refers to column arrays by range when a block starts or ends inside them (no copies)', async () => {
    const first = { s: ['a', 'b', 'c', 'd'], x: Uint32Array.of(1, 2, 3, 4) }
    const second = { s: ['e', 'f', 'g', 'h', 'i', 'j', 'k'], x: Uint32Array.of(5, 6, 7, 8, 9, 10, 11) }
    async function* chunks() {
      yield first
      yield second
    }
    const columns = header({ s: 'String', x: 'UInt32' })
    const source = await insertSource(chunks(), 3)
    const blocks = []
    for await (const batch of source.batches(columns)) blocks.push(batch)
    expect(blocks.map((batch) => batch.rows)).toEqual([3, 3, 3, 2])
    // Plain arrays: ranges of the caller's own arrays; typed arrays: views of them.
    const straddling = blocks[1]!.columns[0]
    expect(straddling).toBeInstanceOf(ColumnParts)
    expect((straddling as ColumnParts).parts).toEqual([first.s, second.s])
    expect((straddling as ColumnParts).parts[0]).toBe(first.s)
    expect((straddling as ColumnParts).parts[1]).toBe(second.s)
    const inside = blocks[2]!.columns[0] as ColumnParts
    expect(inside.parts[0]).toBe(second.s)
    expect([inside.startOf(0), inside.endOf(0)]).toEqual([2, 5])
    expect((blocks[0]!.columns[1] as Uint32Array).buffer).toBe(first.x.buffer)
    expect(blocks.map((batch) => batch.columns.map((column) => Array.from(wholeColumn(column))))).toEqual([
      [
        ['a', 'b', 'c'],
        [1, 2, 3],
      ],
      [
        ['d', 'e', 'f'],
        [4, 5, 6],
      ],
      [
        ['g', 'h', 'i'],
        [7, 8, 9],
      ],
      [
        ['j', 'k'],
        [10, 11],
      ],
    ])
  })

  it('gathers rows yielded one at a time into blocks', async () => {
    function* rows() {
      for (let i = 0; i < 7; i++) yield { x: i }
    }
    const { out } = await batches(rows(), x, 3)
    expect(out.map((batch) => batch.rows)).toEqual([3, 3, 1])
  })

  it('pulls the input only as blocks are taken (memory stays bounded)', async () => {
    let produced = 0
    async function* chunks() {
      for (;;) {
        produced += 10
        yield Array.from({ length: 10 }, () => ({ x: 1 }))
      }
    }
    const source = await insertSource(chunks(), 100)
    const iterator = (source.batches(x) as AsyncIterable<InsertBatch>)[Symbol.asyncIterator]()
    for (let block = 1; block <= 5; block++) {
      await iterator.next()
      // Never more than one block (plus the chunk that completed it) ahead of what was taken.
      expect(produced).toBeLessThanOrEqual(block * 100 + 10)
    }
    await source.close()
  })

  it('ends the caller iterator on close when it was not read to the end', async () => {
    let closed = false
    async function* chunks() {
      try {
        for (;;) yield [{ x: 1 }]
      } finally {
        closed = true
      }
    }
    const source = await insertSource(chunks(), 10)
    await source.close()
    expect(closed).toBe(true)
  })

  it('tells a row of arrays from columns by the table types', async () => {
    const tags = header({ tags: 'Array(String)', n: 'Nullable(UInt8)' })
    async function* items() {
      yield { tags: ['a', 'b'] } // one row: Array(String) takes an array
      yield { tags: [['c'], ['d']], n: [1, 2] } // columns: Nullable(UInt8) does not take an array
    }
    const { out } = await batches(items(), tags, 100)
    expect(out.map((batch) => batch.rows)).toEqual([3])
    expect(out[0]!.columns).toEqual([
      [['a', 'b'], ['c'], ['d']],
      [undefined, 1, 2],
    ])
  })
})

describe('Arrow columns for insert', () => {
  const type = (text: string) => parseType(text)

  it('keeps numbers without nulls as the typed array (no copy)', () => {
    const vector = vectorFromArray(new Int32Array([1, 2, 3]))
    const values = arrowColumnValues(vector, type('Int32'))
    expect(values).toBeInstanceOf(Int32Array)
    expect((values as Int32Array).buffer).toBe(vector.data[0]!.values.buffer)
  })

  it('turns nulls, timestamps, decimals, dates, dictionaries, lists and structs into encoder inputs', () => {
    const decimal = makeBuilder({ type: new Decimal(2, 9, 128) })
    decimal.append(new Uint32Array([0xffffff85, 0xffffffff, 0xffffffff, 0xffffffff])) // -1.23
    expect(arrowColumnValues(vectorFromArray([1, null], new Int32()), type('Nullable(Int32)'))).toEqual([
      1,
      null,
    ])
    expect(arrowColumnValues(decimal.finish().toVector(), type('Decimal(9, 2)'))).toEqual(['-1.23'])
    const day = vectorFromArray([Date.parse('2020-02-29')], new DateDay())
    expect(arrowColumnValues(day, type('Date'))).toEqual([new Date('2020-02-29T00:00:00Z')])
    const dictionary = vectorFromArray(['a', 'b', 'a'], new Dictionary(new Utf8(), new Int32()))
    expect(arrowColumnValues(dictionary, type('LowCardinality(String)'))).toEqual(['a', 'b', 'a'])
    const list = vectorFromArray([[1, 2], []], new List(new Field('item', new Int32(), false)))
    expect(arrowColumnValues(list, type('Array(Int32)'))).toEqual([[1, 2], []])
    const struct = vectorFromArray(
      [{ a: 1, b: 'x' }],
      new Struct([new Field('a', new Int32(), false), new Field('b', new Utf8(), false)]),
    )
    expect(arrowColumnValues(struct, type('Tuple(a Int32, b String)'))).toEqual([[1, 'x']])
  })

  it('sends sub-millisecond timestamps as exact seconds text', () => {
    const vector = vectorFromArray([0], new TimestampNanosecond('UTC'))
    ;(vector.data[0]!.values as BigInt64Array)[0] = -1_500_000_001n
    expect(arrowColumnValues(vector, type('DateTime64(9)'))).toEqual(['-1.500000001'])
  })
})
