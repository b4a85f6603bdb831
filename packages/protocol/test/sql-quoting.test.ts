// The quoters against a live server: each quoted literal and name must reach the server as
// exactly the text it quotes (read back as hex of its bytes, so no output format escapes
// anything), and a type name clickwire prints must be the server's own rendering of it.
// The oracle is a plain fetch over HTTP, sharing no code with clickwire's transports.
import { describe, expect, inject, it } from 'vitest'
import {
  quoteQualifiedName,
  quoteSqlIdentifier,
  quoteSqlIdentifierIfNeeded,
  quoteSqlString,
} from '../src/sql/sql-quoting.js'
import { typeArg, typeNode, typeToString } from '../src/types/type-node.js'
import { httpQueryText } from './support/http-query-text.js'

const server = inject('clickhouse')
const modern = server.generation === 'modern'

/** Upper-case hex of a string's UTF-8 bytes, as ClickHouse's hex() prints it. */
function utf8Hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex').toUpperCase()
}

const query = (sql: string) => httpQueryText(server.httpUrl, sql)

/** Texts rich in what quoting must get right. */
const texts = [
  '',
  'plain',
  "it's",
  "''",
  'back\\slash',
  '\\',
  "\\'",
  'back`tick',
  '"double"',
  'new\nline',
  'tab\there',
  'cr\rlf\n',
  'nul\u0000byte',
  '\b\f\u0001\u001f\u007f',
  'ü € 😀',
  '{p0:String}',
  '-- not a comment',
  '\\N',
]

/** Names for columns and aliases: every text but the empty one, which no identifier is. */
const names = texts.filter((text) => text !== '' && !text.includes('\u0000'))
/** Names for tables: 26.x reads `{...}` in a table name as a placeholder (CREATE fails). */
const tableNames = names.filter((name) => !name.includes('{'))
/** Modern servers print long types over several lines unless told not to. */
const oneLine = modern ? ' SETTINGS print_pretty_type_names = 0' : ''

describe('string literals the server reads back exactly', () => {
  it('SELECT of each literal gives its bytes, with either escapes', async () => {
    const columns = texts.flatMap((text) => [
      `hex(${quoteSqlString(text)})`,
      `hex(${quoteSqlString(text, { escapes: 'server' })})`,
    ])
    const output = await query(`SELECT ${columns.join(', ')} FORMAT TabSeparated`)
    expect(output).toBe(`${texts.flatMap((text) => [utf8Hex(text), utf8Hex(text)]).join('\t')}\n`)
  })

  it('SELECT of a binary literal gives its bytes, UTF-8 or not', async () => {
    const bytes = [0x00, 0x27, 0x5c, 0x41, 0x7f, 0x80, 0xc3, 0xa9, 0xff]
    const literal = quoteSqlString(String.fromCharCode(...bytes), { binary: true })
    expect(await query(`SELECT hex(${literal}) FORMAT TabSeparated`)).toBe(
      `${Buffer.from(bytes).toString('hex').toUpperCase()}\n`,
    )
  })
})

describe('identifiers the server reads back exactly', () => {
  it('CREATE TABLE with odd table and column names stores those names', async () => {
    const prefix = `quoting_${Date.now().toString(36)}_`
    const tables = tableNames.map((name, i) => `${prefix}${i}${name}`)
    // Each table's columns: a name of the list and that name with a brace, in name order.
    const columns = (i: number) => [names[i]!, `${names[i]}{`]
    try {
      for (const [i, table] of tables.entries()) {
        const [first, second] = columns(i).map((column) => quoteSqlIdentifier(column))
        await query(
          `CREATE TABLE ${quoteQualifiedName(['default', table])} (${first} UInt8, ${second} String) ENGINE = Memory`,
        )
      }
      const listed = await query(
        `SELECT hex(table), hex(name) FROM system.columns WHERE database = 'default' AND startsWith(table, ${quoteSqlString(prefix)}) ORDER BY table, name FORMAT TabSeparated`,
      )
      const expected = tables
        .map((table, i) => [table, i] as const)
        .sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
        .flatMap(([table, i]) => columns(i).map((column) => `${utf8Hex(table)}\t${utf8Hex(column)}`))
      expect(listed).toBe(`${expected.join('\n')}\n`)
    } finally {
      for (const table of tables)
        await query(`DROP TABLE IF EXISTS ${quoteQualifiedName(['default', table])}`)
    }
  })

  it('an alias is the name it quotes', async () => {
    const select = names.map((name, i) => `${i} AS ${quoteSqlIdentifier(name)}`).join(', ')
    const output = JSON.parse(await query(`SELECT ${select} FORMAT JSONCompact`)) as {
      meta: { name: string }[]
    }
    expect(output.meta.map((column) => column.name)).toEqual(names)
  })
})

describe('type names as the server prints them', () => {
  it('Enum element names: the server renders them as clickwire prints them', async () => {
    const elements = names.map((name, i) => ({ kind: 'enum', name, value: i + 1 }) as const)
    const type = typeNode('Enum8', elements)
    const printed = typeToString(type)
    const rendered = await query(
      `SELECT hex(toTypeName(CAST(1, ${quoteSqlString(printed)})))${oneLine} FORMAT TabSeparated`,
    )
    expect(rendered).toBe(`${utf8Hex(printed)}\n`)
  })

  it.runIf(modern)('Tuple element names: the server renders them as clickwire prints them', async () => {
    const type = typeNode(
      'Tuple',
      names.map((name) => typeArg(typeNode('UInt8'), name)),
    )
    const printed = typeToString(type)
    expect(printed).toContain(`plain UInt8, ${quoteSqlIdentifierIfNeeded("it's")} UInt8`)
    const zeros = names.map(() => '0').join(', ')
    const rendered = await query(
      `SELECT hex(toTypeName(CAST(tuple(${zeros}), ${quoteSqlString(printed)})))${oneLine} FORMAT TabSeparated`,
    )
    expect(rendered).toBe(`${utf8Hex(printed)}\n`)
  })
})
