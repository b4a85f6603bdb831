// The client's logger (`logger`, logLevel debug) never sees a secret: over a run of
// queries, an insert, a failed query, a retry after every pooled connection was reset, a
// failed login, and unreachable hosts with every password of the corpus in the URL (as
// typed and percent-encoded), no log message or context value holds the password, any
// 5-character piece of it, or its encoded form, on either transport. With `redactParams`,
// no corpus string passed as a {name:Type} value shows either, in any form the server
// quotes it (raw, escaped in a literal), when the server's error quotes it.
import { type Client, createClient, type LogContext, type Logger } from '@clickwire/client'
import { freePorts, modernHandshakeAbort } from '@clickwire/testing'
import { describe, expect, inject, it } from 'vitest'
import { loggerJson } from '../src/guards/secret-scan.js'
import { secretPasswords, secretPieces } from './support/password-corpus.js'
import { proxiedClient, serverPort, transports, urlWithCredentials } from './support/proxied-client.js'

const server = inject('clickhouse')

/** A logger that keeps every entry as a structured logger would write it. */
function capturing(): Logger & { lines: string[] } {
  const lines: string[] = []
  const keep = (level: string) => (message: string, context: LogContext) =>
    lines.push(loggerJson({ level, message, context }))
  return { lines, debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') }
}

/** The log shows no form of `secret`. */
function expectNoSecret(lines: readonly string[], secret: string): void {
  const text = lines.join('\n')
  expect(text).not.toContain(secret)
  expect(text).not.toContain(encodeURIComponent(secret))
  expect(text).not.toContain(JSON.stringify(secret).slice(1, -1))
  for (const piece of secretPieces(secret)) expect(text).not.toContain(piece)
}

describe.each(transports)('%s', (transport) => {
  const port = serverPort(server, transport)

  it.runIf(server.hasTestUsers)(
    'logs queries, an insert, errors and a retry without the password',
    async () => {
      const { user, password } = server.users.password
      const logger = capturing()
      const client = createClient({
        url: urlWithCredentials(transport, port, { user, password }),
        logger,
        logLevel: 'debug',
      })
      const table = `logger_secrets_${transport}_${Date.now()}`
      try {
        await (await client.query('SELECT number FROM numbers(10)')).rows()
        await client.command(`CREATE TABLE ${table} (x UInt8) ENGINE = Memory`)
        await client.insert(table, { x: new Uint8Array([1, 2]) })
        // A password the server echoes back in its error: masked in the error, so in the log.
        await expect(client.query(`SELECT '${password}' + 1`)).rejects.toThrow()
        await client.command(`DROP TABLE ${table}`)
      } finally {
        await client.close()
      }
      // A retry: every pooled connection reset, the read sent again.
      const proxied = await proxiedClient(
        server,
        transport,
        {},
        { logger, logLevel: 'debug', maxConnections: 1 },
      )
      try {
        await (await proxied.client.query('SELECT 1')).rows()
        proxied.proxy.resetAll()
        await (await proxied.client.query('SELECT 2')).rows()
      } finally {
        await proxied.close()
      }
      expect(logger.lines.length).toBeGreaterThan(10)
      expect(logger.lines.join('\n')).toContain(user)
      expectNoSecret(logger.lines, password)
    },
  )

  // A failed native login aborts the modern engine.
  const loginAborts = transport === 'native' && server.generation === 'modern'
  const wrongLogin = 'logs a failed login without either password'
  it.runIf(server.hasTestUsers && !loginAborts)(
    loginAborts ? `${wrongLogin} (skipped on modern: ${modernHandshakeAbort})` : wrongLogin,
    async () => {
      const { user, password } = server.users.password
      const wrong = `${password}-but-wrong`
      const logger = capturing()
      const client = createClient({
        url: urlWithCredentials(transport, port, { user, password: wrong }),
        logger,
        logLevel: 'debug',
      })
      try {
        await expect(client.query('SELECT 1')).rejects.toThrow()
      } finally {
        await client.close()
      }
      expect(logger.lines.some((line) => line.includes('query failed'))).toBe(true)
      expectNoSecret(logger.lines, password)
      expectNoSecret(logger.lines, wrong)
    },
  )

  it(`logs unreachable hosts without any corpus password (${secretPasswords.length} passwords)`, async () => {
    const [closed] = await freePorts(1)
    const scheme = transport === 'native' ? 'clickhouse' : 'http'
    for (const password of secretPasswords) {
      for (const written of [encodeURIComponent(password), password]) {
        const logger = capturing()
        let client: Client | undefined
        try {
          client = createClient({
            url: [`${scheme}://someone:${written}@127.0.0.1:${closed}/`, `${scheme}://127.0.0.1:${closed}/`],
            connectTimeoutMs: 500,
            requestTimeoutMs: 1000,
            logger,
            logLevel: 'debug',
          })
          await client.query('SELECT 1')
        } catch {
          // Unreachable (or a URL the client refuses): what matters is the log.
        } finally {
          await client?.close()
        }
        expectNoSecret(logger.lines, password)
      }
    }
  }, 120_000)

  it(`with redactParams, logs no corpus string passed as a parameter, though the server's errors quote it (${secretPasswords.length} values)`, async () => {
    const texts: string[] = []
    const keep = (message: string, context: LogContext) => {
      texts.push(message, ...Object.values(context).map(String))
    }
    const logger: Logger = { debug: keep, info: keep, warn: keep, error: keep }
    const client = createClient({
      url: transport === 'native' ? server.nativeUrl : server.httpUrl,
      redactParams: true,
      logger,
      logLevel: 'debug',
    })
    const quoted = (value: string) =>
      value.replace(/[\\'\n\t]/g, (char) => ({ '\\': '\\\\', "'": "\\'", '\n': '\\n', '\t': '\\t' })[char]!)
    try {
      // The corpus's characters in other strings: the passwords themselves are registered
      // secrets by now (the URL test above), which every error masks as *** anyway.
      for (const value of secretPasswords.map((each) => `Pv5${each.slice(3)}`)) {
        // Both generations quote a string that does not parse; 18.16 quotes the text the
        // value was substituted into from where a syntax error is.
        await expect(client.query('SELECT toUInt8({p:String})', { params: { p: value } })).rejects.toThrow(
          /Cannot parse string \{p:\*\*\*\} as UInt8/,
        )
        await expect(client.query('SELECT ) {p:String}', { params: { p: value } })).rejects.toThrow(
          /Syntax error/,
        )
        const all = texts.join('\n')
        for (const form of [value, quoted(value)]) {
          expect(all).not.toContain(form)
          for (const piece of secretPieces(form)) expect(all).not.toContain(piece)
        }
      }
    } finally {
      await client.close()
    }
    expect(texts.filter((text) => text === 'query failed').length).toBe(2 * secretPasswords.length)
  }, 240_000)
})
