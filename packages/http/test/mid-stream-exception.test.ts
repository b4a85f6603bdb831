import { blockValues, ClickHouseError, rowObjects } from '@clickwire/protocol'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')

// The brief's query: 1-byte rows stay in the server's 1 MiB output buffer until the throw,
// so 18.16 answers HTTP 500. With `number` beside it, blocks are flushed first and the
// exception is appended to a 200 body: the mid-stream case.
const early = 'SELECT throwIf(number = 1000000) FROM system.numbers LIMIT 2000000'
const late = 'SELECT number, throwIf(number = 1000000) AS t FROM system.numbers LIMIT 2000000'

function expectThrowIf(error: unknown): void {
  expect(ClickHouseError.isInstance(error), String(error)).toBe(true)
  expect((error as ClickHouseError).code).toBe(395)
  expect((error as Error).message).toMatch(/throwIf/)
}

describe('an exception in the middle of a streamed body raises', () => {
  const http = createHttpTransport({ url: server.httpUrl })
  afterAll(() => http.close())

  it('before any data (HTTP 500)', async () => {
    expectThrowIf(await http.query(early).catch((error: unknown) => error))
  })

  it('blocks: after earlier blocks arrived', async () => {
    const result = await http.query(late)
    let rows = 0
    let error: unknown
    try {
      for await (const block of result) rows += block.rows
    } catch (caught) {
      error = caught
    }
    expectThrowIf(error)
    expect(rows).toBeGreaterThan(0)
    expect(rows).toBeLessThanOrEqual(1_000_000)
  })

  it('rows', async () => {
    const result = await http.query(late)
    let rows = 0
    const error = await (async () => {
      for await (const _ of result.rows()) rows++
    })().catch((caught: unknown) => caught)
    expectThrowIf(error)
    expect(rows).toBeGreaterThan(0)
  })

  it('columns', async () => {
    const result = await http.query(late)
    const numbers: ArrayLike<unknown>[] = []
    const error = await (async () => {
      for await (const block of result) numbers.push(blockValues(block)[0]!)
    })().catch((caught: unknown) => caught)
    expectThrowIf(error)
    expect(numbers.length).toBeGreaterThan(0)
    expect(numbers[0]![0]).toBe(0n)
  })

  it('stream (web ReadableStream)', async () => {
    const reader = (await http.query(late)).toReadableStream().getReader()
    let rows = 0
    const error = await (async () => {
      for (;;) {
        const step = await reader.read()
        if (step.done) return
        rows += rowObjects(step.value).length
      }
    })().catch((caught: unknown) => caught)
    expectThrowIf(error)
    expect(rows).toBeGreaterThan(0)
  })

  it('raw, in TSV and in Native', async () => {
    for (const format of ['TabSeparated', 'Native']) {
      const raw = await http.queryRaw(late, { format })
      let bytes = 0
      const error = await (async () => {
        for await (const chunk of raw) bytes += chunk.length
      })().catch((caught: unknown) => caught)
      expectThrowIf(error)
      expect(bytes, format).toBeGreaterThan(0)
    }
  })

  it('also through gzip-compressed responses', async () => {
    const gzip = createHttpTransport({ url: server.httpUrl, compression: { response: 'gzip' } })
    try {
      const result = await gzip.query(late)
      let rows = 0
      const error = await (async () => {
        for await (const block of result) rows += block.rows
      })().catch((caught: unknown) => caught)
      expectThrowIf(error)
      expect(rows).toBeGreaterThan(0)
    } finally {
      await gzip.close()
    }
  })

  it('the transport stays usable afterwards', async () => {
    const result = await http.query('SELECT 42 AS x')
    const rows = []
    for await (const row of result.rows()) rows.push(row)
    expect(rows).toEqual([{ x: 42 }])
  })
})
