// Done-when "TLS": clickhouses:// with the harness's self-signed CA works; an unknown CA is
// refused by default; rejectUnauthorized: false accepts it.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConnectionError } from '@clickwire/protocol'
import { makeTestCertificates } from '@clickwire/testing'
import { expect, inject, it } from 'vitest'
import { createNativeTransport } from '../src/index.js'
import { parseNativeUrl } from '../src/native-options.js'
import { firstValue } from './support/native-helpers.js'

const server = inject('clickhouse')
const secure = server.secureNativeUrl
const parsed = secure ? parseNativeUrl(secure) : undefined

it.runIf(secure && server.ca)('queries over TLS with the harness CA', async () => {
  expect(parsed!.secure).toBe(true)
  const native = createNativeTransport({ hosts: parsed!.hosts, tls: { ca: server.ca } })
  try {
    expect(await firstValue(native, 'SELECT sum(number) FROM numbers(100000)')).toBe(4_999_950_000n)
    const info = await native.serverInfo()
    expect(info).toMatchObject({ name: 'ClickHouse', version: '18.16.1', revision: 54412 })
    // A big compressed result through TLS (the 'data' event path, not onread).
    let rows = 0
    for await (const block of await native.query('SELECT number, toString(number) FROM numbers(1000000)'))
      rows += block.rows
    expect(rows).toBe(1_000_000)
  } finally {
    await native.close()
  }
})

it.runIf(secure)('refuses a certificate from an unknown CA by default', async () => {
  // Neither the system's CAs nor another throwaway CA vouch for the server's certificate.
  const dir = await mkdtemp(join(tmpdir(), 'clickwire-other-ca-'))
  try {
    const other = await makeTestCertificates(dir)
    for (const tls of [{}, { ca: other.ca }]) {
      const native = createNativeTransport({ hosts: parsed!.hosts, tls })
      try {
        const error = await native.query('SELECT 1').catch((caught) => caught)
        expect(ConnectionError.isInstance(error)).toBe(true)
        // The server sends only its own certificate, so the chain stops at an unknown issuer.
        expect((error as ConnectionError).code).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE')
        // Node 26's TLS adds a hint about the system's CA store to its own message.
        expect((error as Error).message).toMatch(
          /^connection to localhost:\d+ failed: unable to verify the first certificate(; if the root CA is installed locally, try running Node\.js with --use-system-ca)?$/,
        )
        expect(native.poolStats).toEqual({ open: 0, idle: 0, waiting: 0, created: 0 })
      } finally {
        await native.close()
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

it.runIf(secure)('accepts any certificate with rejectUnauthorized: false', async () => {
  const native = createNativeTransport({ hosts: parsed!.hosts, tls: { rejectUnauthorized: false } })
  try {
    expect(await firstValue(native, 'SELECT 42')).toBe(42)
  } finally {
    await native.close()
  }
})
