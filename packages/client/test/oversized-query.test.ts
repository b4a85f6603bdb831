// A {name:Type} value so large that the query passes max_query_size once it is written into
// the text. 18.16 takes no server-side parameters, so the client substitutes them; without a
// check the server answered with a syntax error that quoted the value (and past 16 MB native
// failed with a write reset). 26.x takes the values as parameters, beside the text.
import { UsageError } from '@clickwire/protocol'
import { describe, expect, inject, it } from 'vitest'
import { clientFor, transports } from './support/transports.js'

const server = inject('clickhouse')
const secretish = `private-${'x'.repeat(512 * 1024)}`

describe.each(transports)('%s', (transport) => {
  it.runIf(server.generation === 'legacy')(
    'refuses a substituted query past max_query_size before sending, naming the size and the setting, never the value (18.16: parameters are substituted)',
    async () => {
      await using ch = clientFor(transport)
      const failure = await ch.query('SELECT length({p:String}) AS n', { params: { p: secretish } }).then(
        () => undefined,
        (error: unknown) => error as Error,
      )
      expect(UsageError.isInstance(failure)).toBe(true)
      expect(failure!.message).toBe(
        `the query is ${secretish.length + "SELECT length('') AS n".length} bytes once its {name:Type} parameters are written into its text (this server takes no server-side parameters), past max_query_size = 262144: raise max_query_size in the settings, or send large values as an external table or through insert()`,
      )
      expect(failure!.message).not.toContain('private-')
      // The connection is untouched: nothing was sent.
      expect(await (await ch.query('SELECT 1 AS one')).rows()).toEqual([{ one: 1 }])
      // A larger max_query_size lets it through, and the server agrees.
      const rs = await ch.query('SELECT length({p:String}) AS n', {
        params: { p: secretish },
        settings: { max_query_size: 2_000_000 },
      })
      expect(await rs.rows()).toEqual([{ n: BigInt(secretish.length) }])
    },
  )

  it.runIf(server.generation === 'modern')(
    'sends a 0.5 MB parameter beside the query text (26.x: server-side parameters); over HTTP the server limits each to http_max_field_value_size',
    async () => {
      await using ch = clientFor(transport)
      const query = ch.query('SELECT length({p:String}) AS n', { params: { p: secretish } })
      if (transport === 'native') {
        expect(await (await query).rows()).toEqual([{ n: BigInt(secretish.length) }])
        return
      }
      // HTTP carries each parameter as a form field, which 25.x+ servers cap at
      // http_max_field_value_size (131072 by default, a profile setting that a URL cannot
      // raise). The server refuses it without quoting the value.
      const failure = await query.then(
        () => undefined,
        (error: unknown) => error as Error & { code?: number },
      )
      expect(failure?.name).toBe('ClickHouseError')
      expect(failure?.code).toBe(1000)
      expect(failure?.message).toContain('HTML Form Exception: Field value too long')
      expect(failure?.message).not.toContain('private-')
    },
  )
})
