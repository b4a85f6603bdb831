import { ConnectionError } from '@clickwire/protocol'
import { type ForkProxy, startForkProxy } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')
// 26.x sends X-ClickHouse-Query-Id itself, which the fork passes on renamed; 18.16 sends
// none, so the fork adds its own (reported-<id>).
const reported = (id: string) => (server.generation === 'modern' ? id : `reported-${id}`)
const { user, password } = server.users.password

describe('a fork that renamed X-ClickHouse-* to X-Datastore-*', () => {
  let proxy: ForkProxy
  const summary = {
    read_rows: '3',
    read_bytes: '24',
    written_rows: '0',
    written_bytes: '0',
    total_rows_to_read: '3',
  }
  beforeAll(async () => {
    proxy = await startForkProxy({
      target: server.httpUrl,
      prefix: 'X-Datastore-',
      summary,
      progress: summary,
      reportQueryId: (id) => `reported-${id}`,
    })
  })
  afterAll(() => proxy.close())

  it('refuses the default prefix with 401', async () => {
    const http = createHttpTransport({ url: proxy.url, username: user, password, auth: 'headers' })
    const error = await http
      .ping()
      .then(() => http.query('SELECT 1'))
      .catch((caught: unknown) => caught)
    expect(ConnectionError.isInstance(error), String(error)).toBe(true)
    expect((error as ConnectionError).code).toBe('HTTP_401')
    expect(proxy.refused).toBeGreaterThan(0)
    await http.close()
  })

  for (const auth of ['headers', 'basic'] as const) {
    it(`authenticates with headerPrefix X-Datastore- (${auth}) and reads the fork's headers`, async () => {
      const http = createHttpTransport({
        url: proxy.url,
        username: user,
        password,
        auth,
        headerPrefix: 'X-Datastore-',
      })
      try {
        const refused = proxy.refused
        let seen: unknown
        const result = await http.query('SELECT number FROM system.numbers LIMIT 3', {
          queryId: `fork-${auth}`,
          onProgress: (progress) => {
            seen = progress
          },
        })
        const rows = []
        for await (const row of result.rows()) rows.push(row.number)
        expect(rows).toEqual([0n, 1n, 2n])
        // The id comes from the fork's X-Datastore-Query-Id header.
        expect(result.queryId).toBe(reported(`fork-${auth}`))
        expect(result.progress.readRows).toBe(3)
        expect(result.progress.readBytes).toBe(24)
        expect(seen).toEqual(result.progress)
        expect(proxy.refused).toBe(refused)
        // What went through: the fork's headers only.
        const names = proxy.seenHeaders.at(-1)!
        if (auth === 'headers')
          expect(names).toEqual(expect.arrayContaining(['x-datastore-user', 'x-datastore-key']))
        else expect(names).toContain('authorization')
        const raw = await http.queryRaw('SELECT 1', { queryId: `fork-raw-${auth}` })
        expect(await raw.text()).toBe('1\n')
        expect(raw.queryId).toBe(reported(`fork-raw-${auth}`))
        const inserted = await http.command('SELECT 1')
        expect(inserted.progress.readRows).toBe(3)
      } finally {
        await http.close()
      }
    })
  }
})
