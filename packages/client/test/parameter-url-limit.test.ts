// A {name:Type} value of 1 MB or more. 26.x takes values as server-side parameters: over
// HTTP they travel in the URL, whose length the server bounds by http_max_uri_size (1 MiB
// by default), so HTTP refuses the call with a UsageError that names the setting, where it
// used to be a ConnectionError "HTTP 400"; native carries parameters in the Query packet,
// which has no such limit, and the call works. 18.16 takes no server-side parameters: the
// client substitutes the value into the text on both transports and refuses it, before
// sending, as past max_query_size (the same error on both).
import { UsageError } from '@clickwire/protocol'
import { describe, expect, inject, it } from 'vitest'
import { clientFor, thrown, transports } from './support/transports.js'

const server = inject('clickhouse')
const value = `private-${'u'.repeat(1100 * 1024)}`

describe.each(transports)('a 1.1 MB parameter over %s', (transport) => {
  it.runIf(server.generation === 'modern')(
    transport === 'http'
      ? 'is refused as a UsageError naming http_max_uri_size and what to do, never the value; the client goes on (26.x)'
      : 'works: the native Query packet has no URL to bound (26.x)',
    async () => {
      await using ch = clientFor(transport)
      const call = () => ch.query('SELECT length({p:String}) AS n', { params: { p: value } })
      if (transport === 'native') {
        expect(await (await call()).rows()).toEqual([{ n: BigInt(value.length) }])
        return
      }
      const error = (await thrown(call)) as Error
      expect(UsageError.isInstance(error)).toBe(true)
      expect(error.message).toBe(
        "the server refused the request's URL as too long (HTTP 400: HTTP request URI invalid or too long): its query parameters travel in the URL, which the server's http_max_uri_size bounds (1048576 bytes by default; a profile setting, which a URL cannot raise). Raise http_max_uri_size in the server's user profile, or send large values as an external table or through insert()",
      )
      expect(error.message).not.toContain('private-')
      expect(await (await ch.query('SELECT 1 AS one')).rows()).toEqual([{ one: 1 }])
    },
  )

  it.runIf(server.generation === 'legacy')(
    'is refused before sending as past max_query_size, the same on both transports (18.16 substitutes parameters)',
    async () => {
      await using ch = clientFor(transport)
      const error = (await thrown(() =>
        ch.query('SELECT length({p:String}) AS n', { params: { p: value } }),
      )) as Error
      expect(UsageError.isInstance(error)).toBe(true)
      expect(error.message).toMatch(
        /^the query is \d+ bytes once its \{name:Type\} parameters are written into its text .* past max_query_size = 262144/,
      )
      expect(error.message).not.toContain('private-')
    },
  )
})
