// The native protocol at the revision each server negotiates: the smaller of the client's and
// the server's, 54488 with 26.7 and up to 54492 with 26.9 (every field from 54461 up, on the
// wire in both directions), 54412 with 18.16. Values are checked against the server's own
// renderings over HTTP.
import { clientRevision } from '@clickwire/protocol'
import { latestServerLogsMissing, serverRevisionOf } from '@clickwire/testing'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import type { NativeTransport } from '../src/index.js'
import { nativeOn, uniqueName } from './support/native-helpers.js'

const server = inject('clickhouse')
const modern = server.generation === 'modern'
const latest = server.line === '26.9'
/** What the connection negotiates: the smaller of the two revisions. */
const negotiated = Math.min(clientRevision, serverRevisionOf(server) ?? clientRevision)
let native: NativeTransport

beforeAll(() => {
  native = nativeOn(server, { maxConnections: 1 })
})

afterAll(async () => {
  await native.close()
})

async function httpText(sql: string): Promise<string> {
  const response = await fetch(`${server.httpUrl}/?query=${encodeURIComponent(sql)}`)
  return (await response.text()).trim()
}

it('negotiates the smaller of the two revisions', async () => {
  const info = await native.serverInfo()
  expect(info.revision).toBe(negotiated)
  if (!modern) expect(info.revision).toBe(54412)
  // The Hello fields that follow the gated ones (time zone, display name, patch) are read in
  // place: a misread field before them would garble these.
  expect(info.timezone).toBe(await httpText('SELECT timezone()'))
  expect(info.version).toBe(
    await httpText('SELECT version()').then((v) => v.split('.').slice(0, 3).join('.')),
  )
})

it('sends a ClientInfo the server reads back field by field (Query packet gates up to 54488)', async () => {
  const queryId = uniqueName('client_info')
  const stream = await native.query(
    'SELECT client_name, client_revision, interface, is_initial_query FROM system.processes WHERE query_id = {id:String}',
    { params: { id: queryId }, queryId },
  )
  const rows: string[] = []
  for await (const block of stream) {
    for (let row = 0; row < block.rows; row++) {
      rows.push(block.columns.map((column) => String(column.column.get(row))).join('|'))
    }
  }
  // client_revision is the client's own revision (its ClientInfo says so, whatever was
  // negotiated); 26.9 shows `interface` as an Enum8 ('TCP' = 1), 26.7 and 18.16 as a number.
  expect(rows).toEqual([`clickwire|${clientRevision}|${latest ? 'TCP' : '1'}|1`])
})

it.skipIf(latest).each(['lz4', 'none'] as const)(
  `reads server logs and profile events on a %s connection (compressed from 54481)${latest ? ` (skipped on 26.9: ${latestServerLogsMissing})` : ''}`,
  async (compression) => {
    const each = nativeOn(server, { compression, maxConnections: 1 })
    try {
      // An error makes a log message on both generations (18.16 forwards only what passes
      // its own logger level, "warning" in the harness).
      const entries: { text: string }[] = []
      let profileBlocks = 0
      const error = await each
        .query('SELECT throwIf(number = 3) FROM numbers(10)', {
          settings: { send_logs_level: 'error' },
          onLog: (batch) => entries.push(...batch),
        })
        .then(async (stream) => {
          for await (const _ of stream);
        })
        .catch((caught) => caught)
      expect(error).toMatchObject({ code: 395 })
      expect(entries.length).toBeGreaterThan(0)
      expect(entries[0]!.text).toMatch(/395/)
      const stream = await each.query('SELECT sum(number) FROM numbers(100000)', {
        onProfileEvents: () => profileBlocks++,
      })
      const sums: unknown[] = []
      for await (const block of stream) sums.push(block.columns[0]!.column.get(0))
      // The connection stayed in sync after the compressed Log and ProfileEvents blocks.
      expect(sums).toEqual([4999950000n])
      // 18.16 (54412) has no ProfileEvents packet (54451).
      if (modern) expect(profileBlocks).toBeGreaterThan(0)
      else expect(profileBlocks).toBe(0)
    } finally {
      await each.close()
    }
  },
)

it.each(['lz4', 'none'] as const)('reports the exact rows an insert wrote (%s)', async (compression) => {
  const table = uniqueName('rows_written')
  const each = nativeOn(server, { compression, maxConnections: 1, insertBlockRows: 1000 })
  try {
    await each.command(`CREATE TABLE ${table} (id UInt32) ENGINE = MergeTree ORDER BY id`)
    const ids = Uint32Array.from({ length: 4321 }, (_, i) => i)
    const result = await each.insert(table, () => [{ rows: ids.length, columns: [ids] }])
    expect(result.rowsWritten).toBe(4321)
    expect(await httpText(`SELECT count() FROM ${table}`)).toBe('4321')
  } finally {
    await each.command(`DROP TABLE IF EXISTS ${table}`)
    await each.close()
  }
})

it.skipIf(!modern)(
  'gives up on many large results in a row and the server still answers (modern only: the embedded engine was seen to shut down)',
  async () => {
    const each = nativeOn(server, { maxConnections: 1 })
    try {
      for (let i = 0; i < 25; i++) {
        const stream = await each.query(
          "SELECT number::Dynamic AS d, toJSONString(map('a', number))::JSON AS j FROM numbers(10000000)",
        )
        await expect(
          (async () => {
            for await (const block of stream) throw new Error(`gave up after ${block.rows} rows`)
          })(),
        ).rejects.toThrow(/gave up/)
      }
      const ping = await fetch(`${server.httpUrl}/ping`)
      expect(await ping.text()).toBe('Ok.\n')
      expect(await httpText('SELECT 1')).toBe('1')
      // The connection was drained (Cancel, then up to EndOfStream) and is reused.
      expect(each.poolStats.created).toBe(1)
    } finally {
      await each.close()
    }
  },
  60_000,
)
