import { describe, expect, it } from 'vitest'
import { parseDistributedEngine } from './distributed-engine.js'

describe('parseDistributedEngine', () => {
  it('reads the string arguments 26.x prints', () => {
    expect(
      parseDistributedEngine("Distributed('clickwire_cluster', 'default', 'events_local', rand())"),
    ).toEqual({
      cluster: 'clickwire_cluster',
      database: 'default',
      databaseArgument: "'default'",
      table: 'events_local',
      shardingKey: 'rand()',
    })
  })

  it('reads the bare identifiers 18.16 keeps as written', () => {
    expect(parseDistributedEngine('Distributed(clickwire_cluster, default, events_local, id)')).toEqual({
      cluster: 'clickwire_cluster',
      database: 'default',
      databaseArgument: 'default',
      table: 'events_local',
      shardingKey: 'id',
    })
  })

  it('reads quoted identifiers and escapes in names', () => {
    expect(parseDistributedEngine('Distributed(`my cluster`, "db""x", `t\\`1`, cityHash64(a, b))')).toEqual({
      cluster: 'my cluster',
      database: 'db"x',
      databaseArgument: '"db""x"',
      table: 't`1',
      shardingKey: 'cityHash64(a, b)',
    })
    expect(parseDistributedEngine("Distributed('c', 'd', 'it\\'s, a '' table')")).toEqual({
      cluster: 'c',
      database: 'd',
      databaseArgument: "'d'",
      table: "it's, a ' table",
      shardingKey: undefined,
    })
  })

  it('keeps a sharding key with strings, brackets and commas whole, and ignores the policy', () => {
    expect(
      parseDistributedEngine("Distributed(c, d, t, sipHash64(concat(a, ',)'), [1, 2]), 'policy')"),
    ).toEqual({
      cluster: 'c',
      database: 'd',
      databaseArgument: 'd',
      table: 't',
      shardingKey: "sipHash64(concat(a, ',)'), [1, 2])",
    })
  })

  it('reads the engine out of a create_table_query', () => {
    expect(
      parseDistributedEngine(
        "CREATE TABLE default.d (`id` UInt64 COMMENT 'x (y') ENGINE = Distributed('c', 'default', 'l', id)",
      ),
    ).toEqual({
      cluster: 'c',
      database: 'default',
      databaseArgument: "'default'",
      table: 'l',
      shardingKey: 'id',
    })
  })

  it('gives no database name when it is an expression, only the expression', () => {
    expect(parseDistributedEngine('Distributed(c, currentDatabase(), t)')).toEqual({
      cluster: 'c',
      database: undefined,
      databaseArgument: 'currentDatabase()',
      table: 't',
      shardingKey: undefined,
    })
  })

  it('refuses what is not a Distributed engine with its three names', () => {
    expect(parseDistributedEngine('MergeTree ORDER BY id')).toBeUndefined()
    expect(parseDistributedEngine('Distributed(c, d)')).toBeUndefined()
    expect(parseDistributedEngine("Distributed(c, d, 't")).toBeUndefined()
    expect(parseDistributedEngine('Distributed(c, d, t')).toBeUndefined()
    expect(parseDistributedEngine('Distributed(c, d, concat(t))')).toBeUndefined()
  })
})
