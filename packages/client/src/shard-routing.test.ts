import { UsageError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import {
  distributedEngineOf,
  keyColumns,
  plainKeyColumn,
  shardingKeyType,
  shardSelector,
  shardsOfColumn,
  slotTable,
} from './shard-routing.js'

describe('slotTable', () => {
  it('gives each shard as many consecutive slots as its weight, in cluster order', () => {
    expect([...slotTable([1, 1])]).toEqual([0, 1])
    expect([...slotTable([1, 2])]).toEqual([0, 1, 1])
    expect([...slotTable([2, 0, 3])]).toEqual([0, 0, 2, 2, 2])
  })

  it('refuses a cluster whose weights are all 0', () => {
    expect(() => slotTable([0, 0])).toThrow(UsageError)
  })
})

describe('shardSelector', () => {
  it('maps key % total weight onto the weighted slots (weights 1:2)', () => {
    const shardOf = shardSelector('UInt32', slotTable([1, 2]))
    // Slots [0, 1, 1]: keys 0, 3, 6 go to the first shard, the others to the second.
    expect([0, 1, 2, 3, 4, 5, 6].map(shardOf)).toEqual([0, 1, 1, 0, 1, 1, 0])
  })

  it('takes a signed key as the unsigned integer of the same width', () => {
    const slots = slotTable([2, 3]) // [0, 0, 1, 1, 1]
    // Int8 -3 is 253 (253 % 5 = 3), Int16 -3 is 65533 (% 5 = 3), Int32 -3 is 4294967293
    // (% 5 = 3), Int64 -3 is 2^64 - 3 (% 5 = 3): slot 3, the second shard. Int8 -4 is 252
    // (% 5 = 2): the second shard too; Int8 -1 is 255 (% 5 = 0): the first.
    for (const type of ['Int8', 'Int16', 'Int32', 'Int64']) {
      const shardOf = shardSelector(type, slots)
      expect([shardOf(-3), shardOf(-1), shardOf(-5)], type).toEqual([1, 0, 0])
    }
    expect(shardSelector('Int8', slots)(-4)).toBe(1)
    // The width decides the remainder: Int16 -1 is 65535 (odd), Int32 -1 is 2^32 - 1.
    expect(shardSelector('Int16', slotTable([1, 1]))(-1)).toBe(1)
    expect(shardSelector('Int32', slotTable([1, 1, 1]))(-1)).toBe(0) // 2^32 - 1 = 3 * 1431655765
    expect(shardSelector('Int64', slotTable([1, 1, 1, 1, 1, 1, 1]))(-1n)).toBe(1) // (2^64 - 1) % 7 = 1
  })

  it('reads 64-bit keys as bigint, number or decimal text, exactly', () => {
    const shardOf = shardSelector('UInt64', slotTable([1, 1, 1]))
    expect(shardOf(18446744073709551615n)).toBe(0)
    expect(shardOf('18446744073709551614')).toBe(2)
    expect(shardOf(10)).toBe(1)
  })

  it('routes 64-bit typed arrays (read as two 32-bit words) as single values', () => {
    const slots = slotTable([2, 3, 5])
    const values = [0n, 1n, 9n, 4294967295n, 4294967296n, 18446744073709551615n, 12345678901234567n]
    const signed = [-1n, -3n, -4294967296n, -9223372036854775808n, 9223372036854775807n]
    for (const [type, column] of [
      ['UInt64', BigUint64Array.from(values)],
      ['Int64', BigInt64Array.from(signed)],
    ] as const) {
      const out = new Uint32Array(column.length)
      shardsOfColumn(column, type, slots, out)
      const one = shardSelector(type, slots)
      expect([...out], type).toEqual([...column].map((value) => one(value)))
      // The reference: the unsigned 64-bit value modulo the total weight, by BigInt.
      expect([...out], type).toEqual(
        [...column].map((value) => slots[Number(BigInt.asUintN(64, value) % 10n)]),
      )
    }
  })

  it('accepts LowCardinality integer keys and refuses other types', () => {
    expect(shardingKeyType('LowCardinality(UInt16)')).toBe('UInt16')
    expect(shardingKeyType('UInt128')).toBeUndefined()
    expect(() => shardSelector('String', slotTable([1]))).toThrow(/must be an integer/)
    expect(() => shardSelector('UInt8', slotTable([1]))(1.5)).toThrow(UsageError)
  })
})

describe('distributedEngineOf', () => {
  it("reads the engine, with no database for currentDatabase() (the table's own)", () => {
    expect(distributedEngineOf("Distributed('c', currentDatabase(), 't', id)")).toEqual({
      cluster: 'c',
      database: undefined,
      databaseArgument: 'currentDatabase()',
      table: 't',
      shardingKey: 'id',
    })
  })

  it('refuses another engine, and a database given by another expression', () => {
    expect(() => distributedEngineOf('MergeTree ORDER BY id')).toThrow(/not a Distributed table/)
    expect(() => distributedEngineOf("Distributed('c', concat('a', 'b'), 't')")).toThrow(
      "the Distributed engine names its database by an expression: concat('a', 'b')",
    )
  })
})

describe('key columns', () => {
  const columns = ['id', 's', 'rand', 'my col']
  it('finds the columns an expression reads, not function names or string contents', () => {
    expect(keyColumns('cityHash64(s)', columns)).toEqual(['s'])
    expect(keyColumns("intHash64(id) + length('s')", columns)).toEqual(['id'])
    expect(keyColumns('rand()', columns)).toEqual([])
    expect(keyColumns('xxHash64(`my col`, rand)', columns)).toEqual(['rand', 'my col'])
  })

  it('tells a plain column key from an expression', () => {
    expect(plainKeyColumn('id', columns)).toBe('id')
    expect(plainKeyColumn('`my col`', columns)).toBe('my col')
    expect(plainKeyColumn('intHash64(id)', columns)).toBeUndefined()
  })
})
