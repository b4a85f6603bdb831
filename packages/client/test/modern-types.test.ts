// Every type family of ClickHouse 26.7 over both transports. The oracle is the server's own
// JSONEachRow rendering fetched over plain HTTP: the values rows() and columns() give must be
// what the documented value mapping makes of it, and rows inserted back through clickwire
// must render exactly as the originals.
import { parseType, type TypeNode, typeArguments, typedValue } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import type { Client } from '../src/index.js'
import type { JsonNode } from './support/lossless-json.js'
import { type ModernCase, modernCases } from './support/modern-type-cases.js'
import { expectedValue, hintExpr, parseRow, serverLines, serverRun } from './support/server-oracle.js'
import { clientFor, server, transports, uniqueTable } from './support/transports.js'

const modern = server.generation === 'modern'

/** The case's rows as one SELECT of (id, v), each value cast to the column type. */
function sourceSelect(c: ModernCase): string {
  const cast = c.cast ?? c.type
  return c.values
    .map((value, i) => `SELECT toUInt32(${i + 1}) AS id, CAST(${value} AS ${cast}) AS v`)
    .join(' UNION ALL ')
}

/**
 * Tags each Dynamic, Variant or Geometry value with the type the server said it has: a
 * decoded value is a plain JS value, and without its type the encoder would infer one.
 */
function retag(type: TypeNode, value: unknown, hint: JsonNode | undefined): unknown {
  const name = type.name
  if (name === 'Dynamic' || name === 'Variant' || name === 'Geometry')
    return typeof hint === 'string' && hint !== 'None' ? typedValue(hint, value) : value
  if (name === 'Array' && Array.isArray(hint))
    return (value as unknown[]).map((item, i) => retag(typeArguments(type)[0]!, item, hint[i]))
  return value
}

async function withTables(c: ModernCase, run: (source: string, target: string | undefined) => Promise<void>) {
  if (c.storable === false) return run(`(${sourceSelect(c)})`, undefined)
  const source = uniqueTable('modern_src')
  const target = uniqueTable('modern_dst')
  const create = (table: string) =>
    serverRun(`CREATE TABLE ${table} (id UInt32, v ${c.type}) ENGINE = Memory`, { ...c.createSettings })
  try {
    await create(source)
    await create(target)
    await serverRun(`INSERT INTO ${source} SELECT * FROM (${sourceSelect(c)})`)
    await run(source, target)
  } finally {
    await serverRun(`DROP TABLE IF EXISTS ${source}`)
    await serverRun(`DROP TABLE IF EXISTS ${target}`)
  }
}

async function checkCase(ch: Client, c: ModernCase): Promise<void> {
  const type = parseType(c.type)
  await withTables(c, async (source, target) => {
    if (c.proof) {
      // The case really reaches the structure it names (shared data, shared variant).
      const proof = await serverRun(`${c.proof.replaceAll('src', source)} FORMAT TSV`)
      expect(proof.trim()).toBe('1')
    }
    const lines = await serverLines(`SELECT v, ${hintExpr(type, 'v')} AS h FROM ${source} ORDER BY id`)
    expect(lines).toHaveLength(c.values.length)
    const rendered = lines.map(parseRow)
    const expected = rendered.map(({ v, h }) => expectedValue(type, v, h))

    const rows = await (await ch.query(`SELECT id, v FROM ${source} ORDER BY id`)).rows()
    expect(rows.map((row) => row.v)).toEqual(expected)
    const columns = await (await ch.query(`SELECT id, v FROM ${source} ORDER BY id`)).columns()
    expect(Array.from(columns.v as ArrayLike<unknown>)).toEqual(expected)

    if (!target) return
    const back = rows.map((row, i) => ({ id: row.id, v: retag(type, row.v, rendered[i]!.h) }))
    await ch.insert(target, back)
    // The server's rendering of the values must not change. The Dynamic/Variant types do
    // not either (retagged); JSON paths take the types the encoder infers from JS values.
    const hints = !c.type.includes('JSON')
    const render = (table: string) =>
      serverLines(`SELECT v${hints ? `, ${hintExpr(type, 'v')} AS h` : ''} FROM ${table} ORDER BY id`)
    expect(await render(target)).toEqual(await render(source))
  })
}

describe.each(transports)('modern types over %s', (transport) => {
  for (const c of modernCases) {
    it.skipIf(!modern)(`${c.name}: ${c.type} (modern only: 18.16 lacks most of these types)`, async () => {
      const ch = clientFor(transport)
      try {
        await checkCase(ch, c)
      } finally {
        await ch.close()
      }
    })
  }
})
