import { inspect } from 'node:util'
import { ClickHouseError } from '@clickwire/protocol'
import { describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')
const { user, password } = server.users.password

function everythingAbout(error: unknown): string {
  return [
    String(error),
    inspect(error, { depth: 10 }),
    JSON.stringify(error),
    (error as Error)?.stack ?? '',
  ].join('\n')
}

describe('secrets', () => {
  it('the password user authenticates, by Basic auth, headers and URL', async () => {
    for (const auth of ['basic', 'headers', 'url'] as const) {
      const http = createHttpTransport({ url: server.httpUrl, username: user, password, auth })
      try {
        const result = await http.query('SELECT 1 AS one')
        for await (const row of result.rows()) expect(row.one).toBe(1)
      } finally {
        await http.close()
      }
    }
  })

  it('no password in errors, inspect(transport) or toString, whatever the auth mode', async () => {
    const wrong = `${password}-but-wrong`
    for (const auth of ['basic', 'headers', 'url'] as const) {
      for (const secret of [password, wrong]) {
        const http = createHttpTransport({ url: server.httpUrl, username: user, password: secret, auth })
        try {
          const shown = [
            inspect(http, { depth: 10, showHidden: true }),
            String(http),
            JSON.stringify(http),
          ].join('\n')
          expect(shown).not.toContain(password)
          expect(shown).toContain(user)
          const error = await http
            .query(secret === password ? `SELECT '${password}' + 1` : 'SELECT 1')
            .then(async (result) => {
              for await (const _ of result) {
                // drain
              }
            })
            .catch((caught: unknown) => caught)
          expect(ClickHouseError.isInstance(error), `${auth}: ${String(error)}`).toBe(true)
          expect(everythingAbout(error), `${auth}`).not.toContain(password)
        } finally {
          await http.close()
        }
      }
    }
  })

  it('no password in the error of a failed connection with credentials in the URL', async () => {
    const http = createHttpTransport({
      url: `http://${user}:${encodeURIComponent(password)}@127.0.0.1:1/`,
      auth: 'url',
    })
    const error = await http.ping().catch((caught: unknown) => caught)
    expect((error as Error).name).toBe('ConnectionError')
    expect(everythingAbout(error)).not.toContain(password)
    expect(everythingAbout(http)).not.toContain(password)
    await http.close()
  })
})
