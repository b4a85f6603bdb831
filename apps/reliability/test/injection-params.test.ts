// Parameters that try to break out: random unicode strings rich in quotes, backslashes,
// NUL, newlines and placeholder look-alikes must reach the server byte for byte and come
// back unchanged, in both modes: substituted client-side (the only mode 18.16 has, over
// both transports, through the public client) and server-side (ClickHouse 26.7 in chdb, fed
// the very texts serverParameters()/httpQueryParameters() produce for the native Query
// packet and for HTTP `param_` fields).
import { type Client, createClient, sql, UsageError } from '@clickwire/client'
import { quoteSqlString } from '@clickwire/protocol'
import { httpQueryParameters, serverParameters, substituteParameters } from '@clickwire/protocol/params'
import { chdbQuery, chdbQueryWithParameters } from '@clickwire/testing'
import fc from 'fast-check'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { installProcessGuard } from '../src/guards/process-guard.js'
import { transports } from './support/proxied-client.js'
import { trickyString, utf8Hex } from './support/tricky-strings.js'

const server = inject('clickhouse')
const guard = installProcessGuard()
const longMode = process.env.CLICKWIRE_LONG === '1'
const runs = (ci: number) => (longMode ? ci * 50 : ci)
const clients = new Map<string, Client>()
const clientFor = (transport: 'native' | 'http') => {
  let client = clients.get(transport)
  if (!client) {
    client = createClient({ url: transport === 'native' ? server.nativeUrl : server.httpUrl })
    clients.set(transport, client)
  }
  return client
}

afterAll(async () => {
  guard.dispose()
  for (const client of clients.values()) await client.close()
})

const valueLists = fc.array(trickyString, { minLength: 1, maxLength: 12 })

describe('substituted parameters (ClickHouse 18.16)', () => {
  for (const transport of transports) {
    it(`${transport}: {name:String} values reach the server byte for byte and come back unchanged`, async () => {
      const client = clientFor(transport)
      await fc.assert(
        fc.asyncProperty(valueLists, async (values) => {
          const params = Object.fromEntries(values.map((value, index) => [`p${index}`, value]))
          const columns = values.map(
            (_, index) => `{p${index}:String} AS v${index}, hex({p${index}:String}) AS h${index}`,
          )
          const [row] = await (await client.query(`SELECT ${columns.join(', ')}`, { params })).arrays()
          expect(row).toEqual(values.flatMap((value) => [value, utf8Hex(value)]))
        }),
        { numRuns: runs(100) },
      )
      expect(guard.events).toEqual([])
    })

    it(`${transport}: sql\`\` values, Array(String) and Nullable(String) parameters round-trip`, async () => {
      const client = clientFor(transport)
      await fc.assert(
        fc.asyncProperty(
          trickyString,
          valueLists,
          fc.option(trickyString, { nil: null }),
          async (one, list, maybe) => {
            const query = sql`SELECT ${one} AS one, ${list} AS list, ${sql.typed(maybe, 'Nullable(String)')} AS maybe, hex(${one}) AS h`
            const [row] = await (await client.query(query)).rows()
            expect(row).toEqual({ one, list, maybe, h: utf8Hex(one) })
          },
        ),
        { numRuns: runs(40) },
      )
    })

    it(`${transport}: a string with a lone surrogate is refused before anything is sent`, async () => {
      const client = clientFor(transport)
      const error = await client
        .query('SELECT {s:String}', { params: { s: 'a\uD800b' } })
        .catch((caught: unknown) => caught)
      expect(UsageError.isInstance(error), String(error)).toBe(true)
    })
  }
})

describe('server-side parameters (ClickHouse 26.7 in chdb)', () => {
  it('the texts for the native Query packet and HTTP param_ fields round-trip exactly, as substitution does', async () => {
    await fc.assert(
      fc.asyncProperty(valueLists, async (values) => {
        const params: Record<string, unknown> = Object.fromEntries(
          values.map((value, index) => [`p${index}`, value]),
        )
        params.list = values
        const query = `SELECT ${values.map((_, index) => `hex({p${index}:String})`).join(', ')}, arrayMap(x -> hex(x), {list:Array(String)})`
        const expected = `${[...values.map(utf8Hex), `[${values.map((value) => `'${utf8Hex(value)}'`).join(',')}]`].join('\t')}\n`
        const onServer = serverParameters(query, params)
        // HTTP sends the same text per name as the native packet (only the framing differs).
        expect(httpQueryParameters(query, params)).toEqual(
          onServer.map(({ name, text }) => [`param_${name}`, text]),
        )
        expect(await chdbQueryWithParameters(query, onServer, quoteSqlString)).toBe(expected)
        expect(await chdbQuery(substituteParameters(query, params))).toBe(expected)
      }),
      { numRuns: runs(150) },
    )
  })
})
