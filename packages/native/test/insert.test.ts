// Inserts: the header with defaults, many streamed blocks with bounded memory, rows
// confirmed, and server errors before and during the data (nothing reported written).

import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import {
  AbortError,
  ClickHouseError,
  type ColumnMeta,
  type InsertBatch,
  UsageError,
} from '@clickwire/protocol'
import { clickhouseClient } from '@clickwire/testing'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import type { NativeTransport } from '../src/index.js'
import { connectionMark, firstValue, markConnection, nativeOn, uniqueName } from './support/native-helpers.js'

const server = inject('clickhouse')
let native: NativeTransport
const tables: string[] = []

beforeAll(() => {
  native = nativeOn(server, { maxConnections: 1 })
})

afterAll(async () => {
  for (const table of tables) await native.command(`DROP TABLE IF EXISTS ${table}`)
  await native.close()
})

async function createTable(structure: string, engine = 'Memory'): Promise<string> {
  const table = uniqueName('native_insert')
  tables.push(table)
  await native.command(`CREATE TABLE ${table} (${structure}) ENGINE = ${engine}`)
  return table
}

it('gets the header with the column defaults and confirms every row in blocks of the configured size', async () => {
  // MergeTree with merges stopped: each block the server receives becomes one part, which
  // system.parts shows on both generations (26.x's Memory engine joins blocks on read).
  const table = await createTable(
    "id UInt32, label String DEFAULT concat('#', toString(id)), m UInt64 MATERIALIZED id * 2",
    'MergeTree ORDER BY tuple()',
  )
  await native.command(`SYSTEM STOP MERGES ${table}`)
  const small = nativeOn(server, { insertBlockRows: 30_000 })
  let header: readonly ColumnMeta[] = []
  try {
    const ids = Uint32Array.from({ length: 100_000 }, (_, i) => i)
    const result = await small.insert(
      table,
      (columns) => {
        header = columns
        return [{ rows: ids.length, columns: [ids, Array.from(ids, (id) => `#${id}`)] }]
      },
      // No squashing on the server, so the stored blocks show the blocks sent.
      {
        queryId: `insert-${Date.now()}`,
        settings: { min_insert_block_size_rows: 0, min_insert_block_size_bytes: 0 },
      },
    )
    // The header leaves the MATERIALIZED column out. 18.16 sends no TableColumns packet
    // (so no default expressions) even at 54412; 26.7 sends it (compressed from 54481) with
    // the expression as the server renders it.
    const label =
      server.generation === 'modern'
        ? { defaultKind: 'DEFAULT', defaultExpression: "concat('#', toString(id))" }
        : { defaultKind: '', defaultExpression: undefined }
    expect(
      header.map(({ name, type, defaultKind, defaultExpression }) => ({
        name,
        type,
        defaultKind,
        defaultExpression,
      })),
    ).toEqual([
      { name: 'id', type: 'UInt32', defaultKind: '', defaultExpression: undefined },
      { name: 'label', type: 'String', ...label },
    ])
    // 18.16 (54412) reports no written rows in Progress; its EndOfStream after our end
    // marker confirms all rows sent. 26.7 reports them only in ProfileEvents.
    expect(result.rowsWritten).toBe(100_000)
    expect(result.queryId).toMatch(/^insert-/)
  } finally {
    await small.close()
  }
  const counts = await clickhouseClient(
    server,
    `SELECT count(), sum(m), countIf(label = concat('#', toString(id))) FROM ${table} FORMAT TSV`,
  )
  expect(counts.trim()).toBe('100000\t9999900000\t100000')
  // The server stored blocks of at most 30,000 rows: the batch was cut.
  const parts = await clickhouseClient(
    server,
    `SELECT rows FROM system.parts WHERE database = currentDatabase() AND table = '${table}' AND active ORDER BY rows DESC FORMAT TSV`,
  )
  expect(parts.trim().split('\n').map(Number)).toEqual([30_000, 30_000, 30_000, 10_000])
})

/** V8's gc(), reached without --expose-gc on the command line. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

it('streams a 5M-row insert from an async generator with flat memory', { timeout: 240_000 }, async () => {
  const table = await createTable('n UInt64, s String', 'Null')
  const rows = 5_000_000
  const batchRows = 65_536
  let baseline = 0
  let peak = 0
  let produced = 0
  let batches = 0
  let peakJs = 0
  // Strings come from a small pool, so the producer's own garbage (per batch one typed
  // array and one array of references) does not hide what the transport keeps.
  const pool = Array.from({ length: 1000 }, (_, i) => `row ${i}`)
  async function* generate(): AsyncGenerator<InsertBatch> {
    for (let start = 0; start < rows; start += batchRows) {
      const count = Math.min(batchRows, rows - start)
      const numbers = new BigUint64Array(count)
      const strings = new Array<string>(count)
      for (let i = 0; i < count; i++) {
        numbers[i] = BigInt(start + i)
        strings[i] = pool[(start + i) % 1000]!
      }
      produced += count
      yield { rows: count, columns: [numbers, strings] }
      batches++
      if (batches === 10) baseline = process.memoryUsage.rss()
      if (batches > 10) {
        peak = Math.max(peak, process.memoryUsage.rss())
        if (batches % 10 === 0) {
          // What the JS side keeps, not the garbage it has yet to collect: how much of that
          // waits depends on the Node line's heap sizing (Node 26 keeps ~10 MiB more).
          collectGarbage()
          const memory = process.memoryUsage()
          peakJs = Math.max(peakJs, memory.heapUsed + memory.arrayBuffers)
        }
      }
    }
  }
  const started = performance.now()
  const result = await native.insert(table, () => generate())
  const seconds = (performance.now() - started) / 1000
  expect(produced).toBe(rows)
  expect(result.rowsWritten).toBe(rows)
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1)
  const growthMiB = (peak - baseline) / 2 ** 20
  console.log(
    `5M-row insert: ${seconds.toFixed(1)} s, RSS after 10 batches ${mib(baseline)} MiB, peak ${mib(peak)} MiB (growth ${growthMiB.toFixed(1)} MiB), JS heap + buffers kept (after a GC) at most ${mib(peakJs)} MiB`,
  )
  // ~80 MB of values go out (~180 MB of Native bytes before LZ4); each batch is encoded,
  // compressed and written before the generator is asked for the next one. What the JS
  // side keeps stays small; RSS climbs some tens of MiB more (allocator and GC slack,
  // measured to level off on a 20M-row run) before it flattens.
  expect(peakJs).toBeLessThan(64 * 2 ** 20)
  expect(growthMiB).toBeLessThan(128)
})

it('counts the rows the server stored for a many-block insert into MergeTree', async () => {
  const table = await createTable('n UInt64, s String', 'MergeTree ORDER BY n')
  const wide = nativeOn(server, { insertBlockRows: 50_000 })
  try {
    async function* generate(): AsyncGenerator<InsertBatch> {
      for (let start = 0; start < 500_000; start += 100_000) {
        const numbers = BigUint64Array.from({ length: 100_000 }, (_, i) => BigInt(start + i))
        yield { rows: 100_000, columns: [numbers, Array.from(numbers, String)] }
      }
    }
    const result = await wide.insert(table, () => generate())
    expect(result.rowsWritten).toBe(500_000)
  } finally {
    await wide.close()
  }
  expect((await clickhouseClient(server, `SELECT count(), sum(n) FROM ${table} FORMAT TSV`)).trim()).toBe(
    '500000\t124999750000',
  )
})

it('surfaces a server error raised by the data, reports nothing written, and drops the connection', async () => {
  // The MATERIALIZED expression parses s on insert: the second block cannot be parsed.
  const table = await createTable('s String, m UInt8 MATERIALIZED toUInt8(s)')
  const small = nativeOn(server, { insertBlockRows: 2, maxConnections: 1 })
  try {
    await markConnection(small, 300_030)
    let result: unknown
    const error = await small
      .insert(table, () => [{ rows: 6, columns: [['1', '2', '3', 'abc', '5', '6']] }])
      .then(
        (value) => {
          result = value
        },
        (caught: unknown) => caught,
      )
    expect(result).toBeUndefined()
    expect(ClickHouseError.isInstance(error)).toBe(true)
    expect((error as ClickHouseError).code).toBe(6)
    expect((error as ClickHouseError).message).toContain('Cannot parse string')
    // The server may still hold our later blocks unread: that connection is not reused.
    expect(small.poolStats).toEqual({ open: 0, idle: 0, waiting: 0, created: 1 })
    expect(await connectionMark(small)).toBe(262_144)
    // Nothing was stored either: the server squashes small insert blocks
    // (min_insert_block_size_rows) and the error came before the squashed block was written.
    expect(await firstValue(small, `SELECT count() FROM ${table}`)).toBe(0n)
  } finally {
    await small.close()
  }
})

it('surfaces errors the server raises before the data and keeps the connection', async () => {
  const table = await createTable('s String, m UInt8 MATERIALIZED toUInt8(s)')
  await markConnection(native, 300_031)
  const materialized = await native
    .insert(table, () => [{ rows: 1, columns: [['1'], [1]] }], { columns: ['s', 'm'] })
    .catch((caught: unknown) => caught)
  expect(ClickHouseError.isInstance(materialized)).toBe(true)
  expect((materialized as ClickHouseError).message).toContain(
    'Cannot insert column m, because it is MATERIALIZED column',
  )
  const missing = await native.insert('clickwire_no_such_table', () => []).catch((caught: unknown) => caught)
  expect(missing).toMatchObject({ code: 60 })
  expect(await connectionMark(native)).toBe(300_031)
  expect(await firstValue(native, `SELECT count() FROM ${table}`)).toBe(0n)
})

it('refuses a value outside its type before sending it, writing nothing', async () => {
  const table = await createTable('x UInt8')
  const error = await native
    .insert(table, () => [{ rows: 3, columns: [[1, 300, 2]] }])
    .catch((caught: unknown) => caught)
  expect(UsageError.isInstance(error)).toBe(true)
  expect((error as Error).message).toMatch(/^column \[0\] "x" UInt8: /)
  expect(await firstValue(native, `SELECT count() FROM ${table}`)).toBe(0n)
  expect(native.poolStats.open).toBe(1)
})

it('stops an insert on abort, writing nothing more', async () => {
  const table = await createTable('n UInt64', 'Null')
  const controller = new AbortController()
  async function* endless(): AsyncGenerator<InsertBatch> {
    for (let i = 0; ; i++) {
      if (i === 5) controller.abort(new Error('enough'))
      yield { rows: 1000, columns: [new BigUint64Array(1000)] }
    }
  }
  const error = await native
    .insert(table, () => endless(), { signal: controller.signal })
    .catch((caught: unknown) => caught)
  expect(AbortError.isInstance(error)).toBe(true)
  expect(native.poolStats).toMatchObject({ waiting: 0 })
  expect(await firstValue(native, 'SELECT 1')).toBe(1)
})

it('refuses an INSERT with inline rows sent as a command where the server would drop them (18.16), and runs it on 26.x', async () => {
  const table = await createTable('a UInt8')
  await markConnection(native, 424_242)
  if (server.generation === 'legacy') {
    // 18.16 answers such a query with a Data header and waits for blocks: the inline rows
    // would be lost, so the client refuses before any is.
    await expect(native.command(`INSERT INTO ${table} VALUES (2), (3)`)).rejects.toThrow(UsageError)
    await expect(native.command(`INSERT INTO ${table} VALUES (2), (3)`)).rejects.toThrow(
      /pass them to insert\(table, rows\)/,
    )
    expect(await firstValue(native, `SELECT count() FROM ${table}`)).toBe(0n)
  } else {
    // 26.x parses the inline rows itself and asks for no blocks, as HTTP does everywhere.
    await native.command(`INSERT INTO ${table} VALUES (2), (3)`)
    expect(await firstValue(native, `SELECT sum(a) * 100 + count() FROM ${table}`)).toBe(502n)
    await native.command(`TRUNCATE TABLE ${table}`)
  }
  // The same connection (pool of 1) is still in sync.
  expect(await connectionMark(native)).toBe(424_242)
  // INSERT ... SELECT needs no rows from the client and works as a command.
  await native.command(`INSERT INTO ${table} SELECT 7`)
  expect(await firstValue(native, `SELECT sum(a) FROM ${table}`)).toBe(7n)
})

it.each(['none', 'lz4'] as const)(
  'stores an in-memory insert of several blocks whole (compression %s)',
  async (compression) => {
    // Uncompressed, a pre-encoded block goes out as it is after its packet header, with its
    // last byte held back until the next packet: every byte must still arrive in order.
    const table = await createTable('id UInt32, label String')
    const writer = nativeOn(server, { compression, insertBlockRows: 30_000, maxConnections: 1 })
    try {
      const ids = Uint32Array.from({ length: 100_000 }, (_, i) => i)
      const result = await writer.insert(table, () => [
        { rows: ids.length, columns: [ids, Array.from(ids, (id) => `#${id}`)] },
      ])
      expect(result.rowsWritten).toBe(100_000)
    } finally {
      await writer.close()
    }
    const summary = await firstValue(
      native,
      `SELECT toString((count(), sum(id), countIf(label = concat('#', toString(id))))) FROM ${table}`,
    )
    expect(summary).toBe('(100000,4999950000,100000)')
  },
)
