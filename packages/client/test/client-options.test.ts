// How a client is configured: several hosts (failover), camelCase options next to ClickHouse
// settings passed through unchanged (also as URL parameters), and secrets that never show.
import { inspect } from 'node:util'
import { modernHandshakeAbort } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { ClickHouseError, ClickwireError, ConnectionError, createClient, UsageError } from '../src/index.js'
import {
  clientFor,
  deadPort,
  endpointFor,
  server,
  type TransportName,
  thrown,
  transports,
  urlFor,
} from './support/transports.js'

/** The value of a setting as the server applies it to the query. */
async function settingOf(
  ch: ReturnType<typeof createClient>,
  name: string,
  settings?: Record<string, number>,
): Promise<string> {
  const rs = await ch.query<{ value: string }>(`SELECT value FROM system.settings WHERE name = '${name}'`, {
    settings,
  })
  return (await rs.rows())[0]!.value
}

/**
 * Three max_threads values, none of them the server's default (one per core, shown as
 * `auto(N)`): 26.x keeps a setting sent over HTTP that equals its default as not changed, so
 * max_threads=2 on a two-core server reads back as `auto(2)`, not `2`.
 */
async function threadCounts(transport: TransportName): Promise<[number, number, number]> {
  await using plain = clientFor(transport)
  const cores = Number(/\d+/.exec(await settingOf(plain, 'max_threads'))?.[0])
  return [cores + 1, cores + 2, cores + 3]
}

const secret = server.users.password.password

/** The user a query runs as (18.16 has no currentUser(): the query finds itself in system.processes). */
async function userOf(ch: ReturnType<typeof createClient>): Promise<string> {
  const queryId = `whoami-${Date.now()}-${Math.random().toString(36).slice(2)}`
  const rs = await ch.query<{ user: string }>(
    `SELECT user FROM system.processes WHERE query_id = '${queryId}'`,
    { queryId },
  )
  return (await rs.rows())[0]!.user
}

/** Everything an object can show of itself: inspect (deep), toString and JSON. */
function everythingShown(value: unknown): string {
  return [
    inspect(value, { depth: 20, showHidden: true }),
    String(value),
    (() => {
      try {
        return JSON.stringify(value) ?? ''
      } catch {
        return ''
      }
    })(),
  ].join('\n')
}

describe.each(transports)('%s', (transport) => {
  const scheme = transport === 'native' ? 'clickhouse' : 'http'
  const live = endpointFor(transport)

  describe('several hosts', () => {
    it('fails over from a dead host to a live one, hosts in one URL', async () => {
      const dead = `127.0.0.1:${await deadPort()}`
      await using ch = createClient(`${scheme}://${dead},${live}`)
      expect(await (await ch.query('SELECT 1 AS x')).rows()).toEqual([{ x: 1 }])
      await ch.command('SELECT 1')
      await ch.ping()
    })

    it('fails over from a dead host to a live one, hosts as a list of URLs', async () => {
      const dead = `127.0.0.1:${await deadPort()}`
      await using ch = createClient({ url: [`${scheme}://${dead}`, `${scheme}://${live}`] })
      expect(await (await ch.query('SELECT 2 AS x')).rows()).toEqual([{ x: 2 }])
    })

    it('fails with ConnectionError when no host answers', async () => {
      const [a, b] = [await deadPort(), await deadPort()]
      await using ch = createClient(`${scheme}://127.0.0.1:${a},127.0.0.1:${b}`)
      await expect(ch.query('SELECT 1')).rejects.toBeInstanceOf(ConnectionError)
    })

    it('refuses hosts of different schemes in one client', () => {
      expect(() => createClient({ url: [`${scheme}://${live}`, 'https://127.0.0.1:8443'] })).toThrow(
        UsageError,
      )
    })
  })

  describe('options and settings', () => {
    it('passes settings through unchanged: client-wide, per query, and as URL parameters', async () => {
      const [clientWide, perQuery, inUrl] = await threadCounts(transport)
      await using fromOptions = clientFor(transport, { settings: { max_threads: clientWide } })
      expect(await settingOf(fromOptions, 'max_threads')).toBe(String(clientWide))
      expect(await settingOf(fromOptions, 'max_threads', { max_threads: perQuery })).toBe(String(perQuery))
      await using fromUrl = createClient(`${urlFor(transport)}/?max_threads=${inUrl}&max_block_size=1234`)
      expect(await settingOf(fromUrl, 'max_threads')).toBe(String(inUrl))
      expect(await settingOf(fromUrl, 'max_block_size')).toBe('1234')
    })

    it('reads camelCase options from URL parameters, and settings stay settings', async () => {
      const [threads] = await threadCounts(transport)
      await using ch = createClient(
        `${urlFor(transport)}/?int64=string&max_threads=${threads}&insertBlockRows=10`,
      )
      const rows = await (await ch.query('SELECT toUInt64(7) AS n')).rows()
      expect(rows).toEqual([{ n: '7' }])
      expect(await settingOf(ch, 'max_threads')).toBe(String(threads))
    })

    it('takes the database from the options, or from the URL', async () => {
      await using fromOptions = clientFor(transport, { database: 'system' })
      const current = async (ch: ReturnType<typeof createClient>) =>
        (await (await ch.query<{ db: string }>('SELECT currentDatabase() AS db')).rows())[0]!.db
      expect(await current(fromOptions)).toBe('system')
      const url =
        transport === 'native' ? `${urlFor(transport)}/system` : `${urlFor(transport)}/?database=system`
      await using fromUrl = createClient(url)
      expect(await current(fromUrl)).toBe('system')
    })

    it('refuses an option it does not know instead of ignoring it', () => {
      expect(() => createClient({ url: urlFor(transport), maxThreads: 2 } as never)).toThrow(
        'unknown client option "maxThreads"',
      )
    })

    it('fails a query with a setting the server does not have, naming it', async () => {
      // HTTP hands the name to the server (UNKNOWN_SETTING, 115); below revision 54429 the
      // native protocol sends settings in their typed binary form, so the native transport
      // refuses a name it has no type for (UsageError) before sending anything.
      await using ch = clientFor(transport, { settings: { no_such_setting_at_all: 1 } })
      const error = await thrown(() => ch.query('SELECT 1'))
      expect(error).toBeInstanceOf(ClickwireError)
      expect((error as Error).message).toContain('no_such_setting_at_all')
    })
  })

  describe('TLS (clickhouses://, https://)', () => {
    const secureUrl = transport === 'native' ? server.secureNativeUrl : server.secureHttpUrl

    it.runIf(secureUrl !== undefined)('connects with the CA given, and verifies by default', async () => {
      await using trusted = createClient({ url: secureUrl!, tls: { ca: server.ca } })
      expect(trusted.transport).toBe(transport)
      expect(await (await trusted.query('SELECT 1 AS secure')).rows()).toEqual([{ secure: 1 }])
      // The test CA is not one the system trusts: without it the certificate is refused.
      await using untrusted = createClient(secureUrl!)
      await expect(untrusted.query('SELECT 1')).rejects.toBeInstanceOf(ConnectionError)
    })
  })

  describe('secrets', () => {
    const { user } = server.users.password

    it('authenticates with the password and never shows it: inspect, toString, JSON', async () => {
      await using ch = clientFor(transport, { username: user, password: secret })
      expect(await userOf(ch)).toBe(user)
      expect(String(ch)).toBe(`ClickwireClient(${scheme}://${user}@${live})`)
      expect(everythingShown(ch)).not.toContain(secret)
      const rs = await ch.query('SELECT 1 AS x')
      expect(everythingShown(rs)).not.toContain(secret)
      await rs.cancel()
    })

    it('never shows a password given in the URL', async () => {
      const url = `${scheme}://${user}:${encodeURIComponent(secret)}@${live}`
      await using ch = createClient(url)
      expect(await userOf(ch)).toBe(user)
      expect(everythingShown(ch)).not.toContain(secret)
    })

    // 18.16 says WRONG_PASSWORD; 20.x and later say AUTHENTICATION_FAILED for any failed login.
    const wrongPassword =
      server.generation === 'modern'
        ? { code: 516, codeName: 'AUTHENTICATION_FAILED' }
        : { code: 193, codeName: 'WRONG_PASSWORD' }

    it.skipIf(server.generation === 'modern' && transport === 'native')(
      `never shows the password in a wrong-password error (skipped on modern native: ${modernHandshakeAbort})`,
      async () => {
        const wrong = `${secret}-but-wrong`
        await using rejected = clientFor(transport, { username: user, password: wrong })
        const refused = await thrown(() => rejected.query('SELECT 1'))
        expect(refused).toBeInstanceOf(ClickHouseError)
        expect(refused).toMatchObject(wrongPassword)
        expect(everythingShown(refused)).not.toContain(wrong)
      },
    )

    it('never shows the password in errors: dead host, bad URL', async () => {
      const options = transport === 'http' ? ({ auth: 'url' } as const) : {}
      await using dead = createClient({
        url: `${scheme}://127.0.0.1:${await deadPort()}`,
        username: user,
        password: secret,
        ...options,
      })
      const unreachable = await thrown(() => dead.query('SELECT 1'))
      expect(unreachable).toBeInstanceOf(ConnectionError)
      expect(everythingShown(unreachable)).not.toContain(secret)

      const malformed = await thrown(async () => createClient(`${scheme}x://${user}:${secret}@${live}`))
      expect(malformed).toBeInstanceOf(UsageError)
      expect(everythingShown(malformed)).not.toContain(secret)
    })
  })
})
