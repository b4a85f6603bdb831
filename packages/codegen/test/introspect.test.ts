import { createClient } from '@clickwire/client'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { type IntrospectionProgress, introspect, render } from '../src/index.js'

/** A schema with many tables: progress per database and table, and the include narrowing. */

const server = inject('clickhouse')
const database = 'codegen_many'
const tableCount = 120
const columnCount = 12
const names = Array.from({ length: tableCount }, (_, i) => `wide_${String(i).padStart(3, '0')}`)

beforeAll(async () => {
  await using client = createClient(server.httpUrl)
  await client.command(`DROP DATABASE IF EXISTS ${database}`)
  await client.command(`CREATE DATABASE ${database}`)
  const columns = Array.from(
    { length: columnCount },
    (_, i) => `c${i} ${i % 2 ? 'String' : 'Nullable(UInt64)'}`,
  )
  for (const name of names) {
    await client.command(`CREATE TABLE ${database}.${name} (${columns.join(', ')}) ENGINE = Memory`)
  }
}, 120_000)

describe('introspect on a larger schema', () => {
  it('reports progress per database and per table, in order', async () => {
    await using client = createClient(server.nativeUrl)
    const events: IntrospectionProgress[] = []
    const started = performance.now()
    const schema = await introspect(client, {
      databases: [database],
      onProgress: (event) => events.push(event),
    })
    const introspectMs = performance.now() - started
    const text = render(schema)
    const totalMs = performance.now() - started
    console.log(
      `introspect ${tableCount} tables x ${columnCount} columns: ${introspectMs.toFixed(0)} ms, with render ${totalMs.toFixed(0)} ms, ${text.length} chars`,
    )
    expect(events[0]).toEqual({ kind: 'database', database, index: 0, databaseCount: 1, tableCount })
    expect(events.slice(1)).toEqual(
      names.map((table, index) => ({ kind: 'table', database, table, index, tableCount, columnCount })),
    )
    expect(schema.tables.map((table) => table.columns.length)).toEqual(names.map(() => columnCount))
  })

  it('reads only the included tables', async () => {
    await using client = createClient(server.nativeUrl)
    const events: IntrospectionProgress[] = []
    const schema = await introspect(client, {
      databases: [database],
      include: ['wide_00*', `${database}.wide_11?`],
      exclude: ['*5'],
      onProgress: (event) => events.push(event),
    })
    const expected = names.filter((name) => /^wide_(00|11)\d$/.test(name) && !name.endsWith('5'))
    expect(schema.tables.map((table) => table.name)).toEqual(expected)
    expect(events.filter((event) => event.kind === 'table').map((event) => event.table)).toEqual(expected)
  })

  it("reads the connection's database when none is named", async () => {
    await using client = createClient({ url: server.nativeUrl, database })
    const schema = await introspect(client, { include: ['wide_000'] })
    expect(schema.databases).toEqual([database])
    expect(schema.tables.map((table) => `${table.database}.${table.name}`)).toEqual([`${database}.wide_000`])
  })

  it('names every unknown database', async () => {
    await using client = createClient(server.nativeUrl)
    await expect(introspect(client, { databases: [database, 'nope_a', 'nope_b'] })).rejects.toThrow(
      /^unknown database "nope_a", "nope_b": the server has .*"codegen_many"/,
    )
  })
})
