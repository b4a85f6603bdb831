// Passwords with every printable ASCII character and with unicode, written into a client URL
// as people do: percent-encoded, and as typed (reserved characters unencoded). Each client
// then fails to reach a port that resets every connection, and the password must appear in no printed form of the
// error: message, stack, cause chain, inspect, JSON (everythingAbout). A URL the client
// cannot read must say so without quoting any part of it.
import { createServer, type Server } from 'node:net'
import { type Client, createClient } from '@clickwire/client'
import { describe, expect, it } from 'vitest'
import { everythingAbout } from '../src/guards/secret-scan.js'
import { secretPasswords, secretPieces } from './support/password-corpus.js'
import { transports } from './support/proxied-client.js'

const passwords = secretPasswords
const pieces = secretPieces

describe.each(transports)('%s', (transport) => {
  it(`never shows a password of any characters, encoded or as typed (${passwords.length} passwords)`, async () => {
    // A port held by a listener that resets each connection: a port only found free could be
    // taken meanwhile by another process's server (a concurrent CI run's ClickHouse answered
    // one with "Authentication failed").
    const resetter: Server = createServer((socket) => socket.resetAndDestroy())
    await new Promise<void>((resolve) => resetter.listen(0, '127.0.0.1', resolve))
    const closed = (resetter.address() as { port: number }).port
    const scheme = transport === 'native' ? 'clickhouse' : 'http'
    const tally = { kept: 0, refused: 0 }
    try {
      for (const password of passwords) {
        for (const written of [encodeURIComponent(password), password]) {
          const url = `${scheme}://someone:${written}@127.0.0.1:${closed}/`
          let client: Client | undefined
          let failure: unknown
          try {
            // The listener resets at once; the limits are only for a loaded machine, where a
            // 1 s one was met once (a TimeoutError where the reset was due).
            client = createClient({ url, connectTimeoutMs: 10_000, requestTimeoutMs: 10_000 })
            await client.ping()
          } catch (error) {
            failure = error
          } finally {
            await client?.close()
          }
          expect(failure, url).toBeDefined()
          const name = (failure as Error).name
          // Read and unreachable (ConnectionError), or not readable (UsageError), nothing else.
          expect(['ConnectionError', 'UsageError'], `${name}: ${(failure as Error).message}`).toContain(name)
          if (written === encodeURIComponent(password)) expect(name).toBe('ConnectionError')
          if (name === 'UsageError') tally.refused++
          else tally.kept++
          const text = everythingAbout(failure)
          for (const piece of pieces(password)) expect(text, `${url} -> ${name}`).not.toContain(piece)
          expect(text).not.toContain(encodeURIComponent(password))
        }
      }
    } finally {
      await new Promise((resolve) => resetter.close(resolve))
    }
    console.log(`[secrets] ${transport}: ${passwords.length} passwords x 2 forms: ${JSON.stringify(tally)}`)
    expect(tally.kept + tally.refused).toBe(passwords.length * 2)
  }, 120_000)
})
