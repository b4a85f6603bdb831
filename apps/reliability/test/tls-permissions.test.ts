// Certificate verification is on by default: a server whose certificate is signed by an
// unknown CA (the harness's own) is refused on both transports, and accepted once that CA
// is given. A readonly user's writes fail with a ClickHouseError that says so (READONLY,
// 164), on both transports, while its reads work.
import { ClickHouseError, type Client, ConnectionError, createClient } from '@clickwire/client'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { installProcessGuard } from '../src/guards/process-guard.js'
import { countResources, settledExcess } from '../src/guards/resource-census.js'
import { describeError } from '../src/guards/typed-errors.js'
import { transports, urlWithCredentials } from './support/proxied-client.js'

const server = inject('clickhouse')
const guard = installProcessGuard()
afterAll(() => guard.dispose())

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
}

const secureUrl = (transport: 'native' | 'http') =>
  transport === 'native' ? server.secureNativeUrl : server.secureHttpUrl

describe.runIf(server.secureNativeUrl !== undefined && server.ca !== undefined)('TLS', () => {
  for (const transport of transports) {
    it(`${transport}: a certificate from an unknown CA is refused by default, with a ConnectionError`, async () => {
      const baseline = countResources()
      const client = createClient({ url: secureUrl(transport)!, connectTimeoutMs: 5000 })
      try {
        const error = await failure(client.query('SELECT 1'))
        expect(ConnectionError.isInstance(error), describeError(error)).toBe(true)
        // Node's verification codes: the message says why the server was not trusted.
        expect((error as Error).message, describeError(error)).toMatch(/certificate/i)
      } finally {
        await client.close()
      }
      expect(await settledExcess(baseline)).toEqual([])
    })

    it(`${transport}: with the CA that signed the certificate, the connection is verified and works`, async () => {
      const client = createClient({ url: secureUrl(transport)!, tls: { ca: server.ca } })
      try {
        expect(await (await client.query('SELECT 1 AS one')).rows()).toEqual([{ one: 1 }])
      } finally {
        await client.close()
      }
    })

    it(`${transport}: the CA does not vouch for another host name`, async () => {
      // The certificate names localhost and 127.0.0.1: asking for any other name must fail.
      const client = createClient({
        url: secureUrl(transport)!,
        tls: { ca: server.ca, servername: 'not-the-server.example' },
        connectTimeoutMs: 5000,
      })
      try {
        const error = await failure(client.query('SELECT 1'))
        expect(ConnectionError.isInstance(error), describeError(error)).toBe(true)
        expect((error as Error).message, describeError(error)).toMatch(/altnames|hostname|certificate/i)
      } finally {
        await client.close()
      }
    })
  }
})

describe.runIf(server.hasTestUsers)('a readonly user', () => {
  const table = `reliability_readonly_${Date.now().toString(36)}`
  const admin = createClient({ url: server.httpUrl })

  beforeAll(async () => {
    await admin.command(`CREATE TABLE ${table} (id UInt32) ENGINE = Memory`)
    await admin.insert(table, [{ id: 1 }])
  })

  afterAll(async () => {
    await admin.command(`DROP TABLE IF EXISTS ${table}`)
    await admin.close()
  })

  for (const transport of transports) {
    it(`${transport}: reads work, writes fail with ClickHouseError READONLY (164)`, async () => {
      const port = transport === 'native' ? server.ports.tcp : server.ports.http
      const client: Client = createClient({ url: urlWithCredentials(transport, port, server.users.readonly) })
      try {
        expect(await (await client.query(`SELECT id FROM ${table}`)).rows()).toEqual([{ id: 1 }])
        const writes: Array<[string, () => Promise<unknown>]> = [
          ['CREATE TABLE', () => client.command(`CREATE TABLE ${table}_new (id UInt32) ENGINE = Memory`)],
          ['INSERT ... VALUES', () => client.command(`INSERT INTO ${table} VALUES (2)`)],
          ['insert()', () => client.insert(table, [{ id: 3 }])],
          ['DROP TABLE', () => client.command(`DROP TABLE ${table}`)],
          // A SET outside a session is the client's UsageError: the server's refusal is asked in one.
          [
            'SET',
            async () => {
              await using session = await client.session()
              await session.command('SET max_threads = 1')
            },
          ],
        ]
        // Settings sent along with a query are refused over HTTP (164) but silently ignored
        // by 18.16's native handler for readonly users: the server's choice, not the client's.
        for (const [what, write] of writes) {
          const error = await failure(write())
          expect(ClickHouseError.isInstance(error), `${what}: ${describeError(error)}`).toBe(true)
          expect((error as ClickHouseError).code, `${what}: ${describeError(error)}`).toBe(164)
          expect((error as ClickHouseError).codeName).toBe('READONLY')
          expect((error as Error).message, what).toMatch(/readonly/i)
        }
        // Nothing was written, and the client still works after the refusals.
        expect(await (await client.query(`SELECT count() AS c FROM ${table}`)).rows()).toEqual([{ c: 1n }])
        expect(guard.events).toEqual([])
      } finally {
        await client.close()
      }
    })
  }
})
