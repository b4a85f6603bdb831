import { blockValues, ClickHouseError, ConnectionError, rowObjects } from '@clickwire/protocol'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')
const modern = server.generation === 'modern'

// The brief's query: 1-byte rows stay in the server's 1 MiB output buffer until the throw,
// so 18.16 answers HTTP 500. With `number` beside it, blocks are flushed first and the
// exception is appended to a 200 body: the mid-stream case.
const early = 'SELECT throwIf(number = 1000000) FROM system.numbers LIMIT 2000000'
const late = 'SELECT number, throwIf(number = 1000000) AS t FROM system.numbers LIMIT 2000000'

function expectThrowIf(error: unknown): void {
  expect(ClickHouseError.isInstance(error), String(error)).toBe(true)
  expect((error as ClickHouseError).code).toBe(395)
  expect((error as Error).message).toMatch(/throwIf/)
  // The server's own text, with none of the trailer's framing (26.x: `__exception__`, tag, length).
  expect((error as Error).message).not.toMatch(/__exception__|\r/)
  expect((error as ClickHouseError).codeName).toBe('FUNCTION_THROW_IF_VALUE_IS_NON_ZERO')
}

/** Reads every block of a result: the rows seen before the error, and the error. */
async function drain(result: AsyncIterable<{ rows: number }>): Promise<{ rows: number; error: unknown }> {
  let rows = 0
  try {
    for await (const block of result) rows += block.rows
  } catch (error) {
    return { rows, error }
  }
  return { rows, error: undefined }
}

describe('an exception in the middle of a streamed body raises', () => {
  const http = createHttpTransport({ url: server.httpUrl })
  afterAll(() => http.close())

  it(
    modern
      ? 'before any data: 26.x flushes even 1-byte rows, so the error comes mid-stream (18.16: HTTP 500)'
      : 'before any data (HTTP 500)',
    async () => {
      const outcome = await http.query(early).then(drain, (error: unknown) => ({ rows: -1, error }))
      expectThrowIf(outcome.error)
      // -1: query() itself failed, on the 500 answer.
      if (modern) expect(outcome.rows).toBeGreaterThan(0)
      else expect(outcome.rows).toBe(-1)
    },
  )

  for (const response of [undefined, 'gzip'] as const) {
    it(`wait_end_of_query=1 holds the body back, so the error is an HTTP 500 (${response ?? 'plain'})`, async () => {
      const waiting = createHttpTransport({
        url: server.httpUrl,
        settings: { wait_end_of_query: 1 },
        compression: { response },
      })
      try {
        const error = await waiting.query(late).catch((caught: unknown) => caught)
        expectThrowIf(error)
      } finally {
        await waiting.close()
      }
    })
  }

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

  // 26.x writes the tagged trailer inside the compressed stream and then closes the
  // connection: the bytes before the break must still be inflated and read. Random values,
  // so that the compressed answer outgrows the server's send buffer and streams on every
  // server (26.9's ZSTD frames of counting numbers stay under it: it answers HTTP 500).
  const lateRandom = 'SELECT rand64() AS r, throwIf(number = 1000000) AS t FROM system.numbers LIMIT 2000000'
  for (const response of ['gzip', 'deflate', 'frames'] as const) {
    it(`also through ${response}-compressed responses`, async () => {
      const compressed = createHttpTransport({ url: server.httpUrl, compression: { response } })
      try {
        const { rows, error } = await drain(await compressed.query(lateRandom))
        expectThrowIf(error)
        expect(rows).toBeGreaterThan(0)
        expect(rows).toBeLessThanOrEqual(1_000_000)
      } finally {
        await compressed.close()
      }
    })
  }

  // An error the server can still answer with a status comes in frames too when they were
  // asked for (compress=1), the data before it included: 26.9 does so for the counting
  // numbers above, whose ZSTD frames fit its send buffer, and every server for a short one.
  for (const query of [late, 'SELECT throwIf(1)']) {
    it(`takes the server's text out of a framed error answer: ${query.slice(0, 40)}`, async () => {
      const framed = createHttpTransport({ url: server.httpUrl, compression: { response: 'frames' } })
      try {
        // A 500 rejects the query itself; a late error, the iteration.
        let rows = 0
        let error: unknown
        try {
          for await (const block of await framed.query(query)) rows += block.rows
        } catch (caught) {
          error = caught
        }
        expectThrowIf(error)
        expect((error as Error).message).toMatch(/^Value passed to 'throwIf' function is non.zero/)
        expect(rows).toBeLessThanOrEqual(1_000_000)
      } finally {
        await framed.close()
      }
    })
  }

  // Node's fetch (undici) drops the last chunks of a body whose connection closes without
  // the final chunk, even when read eagerly (measured: 6.86 of 7.54 MB on 26.7), and 26.x
  // closes right after the exception: only the break is left to report.
  for (const response of [undefined, 'gzip'] as const) {
    it(
      modern
        ? `the fetch backend (${response ?? 'plain'}) raises a ConnectionError: fetch drops the tail that holds 26.x's exception`
        : `also through the fetch backend (${response ?? 'plain'})`,
      async () => {
        const fetched = createHttpTransport({
          url: server.httpUrl,
          fetch: globalThis.fetch,
          compression: { response },
        })
        try {
          const { rows, error } = await drain(await fetched.query(late))
          expect(rows).toBeGreaterThan(0)
          if (!modern) return expectThrowIf(error)
          expect(ConnectionError.isInstance(error), String(error)).toBe(true)
          expect((error as Error).message).toMatch(
            /^the response body broke off \d+ bytes into a Native block: terminated/,
          )
        } finally {
          await fetched.close()
        }
      },
    )
  }

  it('the transport stays usable afterwards', async () => {
    const result = await http.query('SELECT 42 AS x')
    const rows = []
    for await (const row of result.rows()) rows.push(row)
    expect(rows).toEqual([{ x: 42 }])
  })
})
