// The harness's password user has a distinctive password; it (and a wrong variant of it)
// must never show in an error message, a stack, a cause chain, util.inspect / String /
// JSON of clients, results and errors (also as structured loggers serialize them), or
// anything printed, on either transport: for logins that fail, hosts that cannot be
// reached with credentials in the URL, and a server that echoes the password back.
import { inspect } from 'node:util'
import { ClickHouseError, type Client, ConnectionError, createClient } from '@clickwire/client'
import { freePorts, modernHandshakeAbort } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { captureOutput, type OutputCapture } from '../src/guards/output-capture.js'
import { installProcessGuard } from '../src/guards/process-guard.js'
import { everythingAbout } from '../src/guards/secret-scan.js'
import { describeError } from '../src/guards/typed-errors.js'
import { serverPort, transports, urlWithCredentials } from './support/proxied-client.js'

const server = inject('clickhouse')
const { user, password } = server.users.password
const wrong = `${password}-but-wrong`
/** What each generation answers a wrong password with: 18.16 WRONG_PASSWORD, 26.x AUTHENTICATION_FAILED. */
const wrongPasswordCode = server.generation === 'modern' ? 516 : 193
const guard = installProcessGuard()
let output: OutputCapture

beforeAll(() => {
  output = captureOutput()
})

afterAll(() => {
  output.dispose()
  guard.dispose()
  // Whatever the tests printed (and whatever the clients printed) holds no secret.
  expect(output.text()).not.toContain(password)
  expect(guard.events).toEqual([])
})

/** Every printed form of a value, without the custom inspectors too (as some loggers do). */
function shown(value: unknown): string {
  return [everythingAbout(value), inspect(value, { customInspect: false, showHidden: true, depth: 6 })].join(
    '\n',
  )
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
}

for (const transport of transports) {
  describe.runIf(server.hasTestUsers)(`${transport}`, () => {
    const port = serverPort(server, transport)

    it('a client and its results show the user, never the password', async () => {
      const client = createClient({ url: urlWithCredentials(transport, port, { user, password }) })
      try {
        const result = await client.query('SELECT 1 AS one')
        expect(await result.rows()).toEqual([{ one: 1 }])
        const streaming = await client.query('SELECT number FROM system.numbers LIMIT 100000')
        for (const value of [client, result, streaming]) expect(shown(value)).not.toContain(password)
        expect(String(client)).toContain(user)
        await streaming.cancel()
      } finally {
        await client.close()
      }
    })

    // A failed native login aborts the modern engine.
    const loginAborts = transport === 'native' && server.generation === 'modern'
    const wrongLogin = 'a wrong password fails with a ClickHouseError that shows neither password'
    it.skipIf(loginAborts)(
      loginAborts ? `${wrongLogin} (skipped on modern: ${modernHandshakeAbort})` : wrongLogin,
      async () => {
        for (const url of [
          urlWithCredentials(transport, port, { user, password: wrong }),
          `${transport === 'native' ? 'clickhouse' : 'http'}://127.0.0.1:${port}/?user=${user}&password=${encodeURIComponent(wrong)}`,
        ]) {
          const client = createClient({ url })
          try {
            const error = await failure(client.query('SELECT 1'))
            expect(ClickHouseError.isInstance(error), describeError(error)).toBe(true)
            expect((error as ClickHouseError).code, describeError(error)).toBe(wrongPasswordCode)
            const text = shown(error)
            expect(text).not.toContain(password)
            expect(text).not.toContain(encodeURIComponent(wrong))
            expect(shown(client)).not.toContain(password)
          } finally {
            await client.close()
          }
        }
      },
    )

    it('an unreachable host with credentials in the URL fails with a ConnectionError that shows no password', async () => {
      const [deadPort] = await freePorts(1)
      for (const host of ['127.0.0.1', 'clickwire-no-such-host.invalid']) {
        const client = createClient({
          url: urlWithCredentials(
            transport,
            host === '127.0.0.1' ? deadPort! : port,
            { user, password },
            host,
          ),
          connectTimeoutMs: 3000,
        })
        try {
          const error = await failure(client.query('SELECT 1'))
          expect(ConnectionError.isInstance(error), describeError(error)).toBe(true)
          expect(shown(error)).not.toContain(password)
          expect(shown(client)).not.toContain(password)
        } finally {
          await client.close()
        }
      }
    })

    it('a password the server echoes back in its error message is masked', async () => {
      const client = createClient({ url: urlWithCredentials(transport, port, { user, password }) })
      try {
        const error = await failure(client.query(`SELECT '${password}' + 1`))
        expect(ClickHouseError.isInstance(error), describeError(error)).toBe(true)
        expect(shown(error)).not.toContain(password)
      } finally {
        await client.close()
      }
    })

    it('an invalid URL with a password is refused without repeating it', async () => {
      const error = (() => {
        try {
          createClient(`${transport === 'native' ? 'clickhouse' : 'http'}://${user}:${password}@[::1`)
        } catch (caught) {
          return caught
        }
        return undefined
      })()
      expect(error, 'createClient accepted a malformed URL').toBeDefined()
      expect(shown(error)).not.toContain(password)
    })
  })
}

it.runIf(server.hasTestUsers)(
  'clients made with options (not a URL) keep the password out of inspect and JSON too',
  async () => {
    const clients: Client[] = transports.map((transport) =>
      createClient({
        url: `${transport === 'native' ? 'clickhouse' : 'http'}://127.0.0.1:${serverPort(server, transport)}`,
        username: user,
        password,
      }),
    )
    try {
      for (const client of clients) {
        await (await client.query('SELECT 1')).rows()
        expect(shown(client)).not.toContain(password)
      }
    } finally {
      for (const client of clients) await client.close()
    }
  },
)
