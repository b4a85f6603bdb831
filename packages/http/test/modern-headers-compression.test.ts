import { emptyProgress, type Progress } from '@clickwire/protocol'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')
const modern = server.generation === 'modern'

// 30 M rows of UInt64 read, one row out: the answer (and so its headers) comes only at the
// end, so the summary holds the whole query's figures.
const counted = 'SELECT count() AS c FROM numbers(30000000) WHERE NOT ignore(number)'
const wholeRead = { readRows: 30_000_000, readBytes: 240_000_000, totalRowsToRead: 30_000_000 }

async function rowsOf(http: ReturnType<typeof createHttpTransport>, sql: string) {
  const out: Record<string, unknown>[] = []
  for await (const row of (await http.query(sql)).rows()) out.push(row)
  return out
}

/** A fetch that records the URL of every request and the first bytes of every answer. */
function recordingFetch() {
  const seen: { url: string; encoding: string | null; head: Uint8Array }[] = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init)
    const [mine, theirs] = response.body ? response.body.tee() : [undefined, undefined]
    const entry = {
      url: String(input),
      encoding: response.headers.get('content-encoding'),
      head: new Uint8Array(),
    }
    seen.push(entry)
    if (mine) {
      const reader = mine.getReader()
      void reader.read().then((step) => {
        if (!step.done) entry.head = step.value
        return reader.cancel()
      })
    }
    return new Response(theirs ?? null, { status: response.status, headers: response.headers })
  }
  return { fetch, seen }
}

describe(`response compression on ${server.version}: exact values`, () => {
  const opened: ReturnType<typeof createHttpTransport>[] = []
  afterAll(async () => {
    for (const http of opened) await http.close()
  })
  // Mixed widths and strings, 200 000 rows: several blocks and several compressed frames.
  const mixed =
    'SELECT number AS n, toInt32(toInt64(number) - 100000) AS i, toString(number * 7) AS s, number / 4 AS f ' +
    'FROM system.numbers LIMIT 200000'
  const sums = 'SELECT sum(n) AS n, sum(i) AS i, sum(length(s)) AS s, sum(f) AS f FROM (' + mixed + ')'

  for (const response of ['gzip', 'deflate', 'frames'] as const) {
    it(`${response}: every row equals the uncompressed answer, and the server's own sums`, async () => {
      const plain = createHttpTransport({ url: server.httpUrl })
      const compressed = createHttpTransport({ url: server.httpUrl, compression: { response } })
      opened.push(plain, compressed)
      const expected = await rowsOf(plain, mixed)
      const got = await rowsOf(compressed, mixed)
      expect(got.length).toBe(200_000)
      expect(got).toEqual(expected)
      expect(got[199_999]).toEqual({ n: 199_999n, i: 99_999, s: '1399993', f: 49_999.75 })
      const [oracle] = await rowsOf(plain, sums)
      const own = {
        n: got.reduce((sum, row) => sum + (row.n as bigint), 0n),
        i: BigInt(got.reduce((sum, row) => sum + (row.i as number), 0)),
        s: BigInt(got.reduce((sum, row) => sum + (row.s as string).length, 0)),
        f: got.reduce((sum, row) => sum + (row.f as number), 0),
      }
      expect(own).toEqual(oracle)
    })
  }

  it(
    modern
      ? 'frames: 26.x answers compress=1 with compressed frames, and the transport uses them'
      : 'frames: Debian 18.16 answers compress=1 with an empty body, so the transport falls back to plain answers',
    async () => {
      const { fetch, seen } = recordingFetch()
      const http = createHttpTransport({ url: server.httpUrl, fetch, compression: { response: 'frames' } })
      opened.push(http)
      expect(await rowsOf(http, 'SELECT number AS n FROM system.numbers LIMIT 3')).toEqual([
        { n: 0n },
        { n: 1n },
        { n: 2n },
      ])
      const query = seen.at(-1)!
      expect(query.url.includes('compress=1')).toBe(modern)
      // A frame: 16 bytes of checksum, then the method byte (0x82 LZ4, 0x90 ZSTD, 0x02 none):
      // the server's network_compression_method, ZSTD(3) by default from 26.9, LZ4 before.
      if (modern) expect(query.head[16]).toBe(server.line === '26.9' ? 0x90 : 0x82)
    },
  )

  // The caller chooses the method of the answers with the setting (clickwire names none: a
  // readonly = 1 profile refuses it); 26.9 follows it, 26.7 frames HTTP answers in LZ4 whatever it says.
  for (const [name, method] of [
    ['lz4', 0x82],
    ['zstd', 0x90],
  ] as const) {
    it(
      !modern
        ? `frames with network_compression_method=${name}: Debian 18.16 answers plain`
        : server.line === '26.7'
          ? `frames with network_compression_method=${name}: 26.7 frames its HTTP answers in LZ4 whatever it says`
          : `frames with network_compression_method=${name}: the answers come in ${name}`,
      async () => {
        const { fetch, seen } = recordingFetch()
        const http = createHttpTransport({
          url: server.httpUrl,
          fetch,
          compression: { request: 'lz4', response: 'frames' },
          settings: { network_compression_method: name },
        })
        opened.push(http)
        expect(
          await rowsOf(http, 'SELECT number AS n, toString(number) AS s FROM system.numbers LIMIT 3'),
        ).toEqual([
          { n: 0n, s: '0' },
          { n: 1n, s: '1' },
          { n: 2n, s: '2' },
        ])
        if (modern) expect(seen.at(-1)!.head[16]).toBe(server.line === '26.7' ? 0x82 : method)
      },
    )
  }

  it('gzip: the server really compressed the answer', async () => {
    const { fetch, seen } = recordingFetch()
    const http = createHttpTransport({ url: server.httpUrl, fetch, compression: { response: 'gzip' } })
    opened.push(http)
    expect(await rowsOf(http, 'SELECT 1 AS one')).toEqual([{ one: 1 }])
    expect(seen.at(-1)!.encoding).toBe('gzip')
  })
})

describe(`progress and summary headers on ${server.version}`, () => {
  const http = createHttpTransport({ url: server.httpUrl })
  afterAll(() => http.close())

  it(
    modern
      ? 'query(): X-ClickHouse-Progress and -Summary give the final figures to result.progress and onProgress'
      : 'query(): Debian 18.16 sends no progress or summary headers, so progress stays zero',
    async () => {
      const seen: Progress[] = []
      const result = await http.query(counted, {
        settings: { send_progress_in_http_headers: 1, http_headers_progress_interval_ms: 10 },
        onProgress: (progress) => {
          seen.push(progress)
        },
      })
      const rows = []
      for await (const row of result.rows()) rows.push(row)
      expect(rows).toEqual([{ c: 30_000_000n }])
      if (!modern) {
        expect(result.progress).toEqual(emptyProgress)
        expect(seen).toEqual([])
        return
      }
      expect(result.progress).toMatchObject({ ...wholeRead, writtenRows: 0, writtenBytes: 0 })
      expect(result.progress.elapsedNs).toBeGreaterThan(0)
      expect(seen).toEqual([result.progress])
    },
  )

  it(
    modern
      ? 'command() and insert(): X-ClickHouse-Summary gives the rows written'
      : 'command() and insert(): no summary on Debian 18.16, rowsWritten counted by the client',
    async () => {
      await http.command('DROP TABLE IF EXISTS http_summary')
      await http.command('CREATE TABLE http_summary (x UInt64) ENGINE = Memory')
      try {
        const command = await http.command('INSERT INTO http_summary SELECT number FROM numbers(12345)')
        const inserted = await http.insert('http_summary', () => [
          { rows: 3, columns: [BigUint64Array.of(1n, 2n, 3n)] },
        ])
        expect(inserted.rowsWritten).toBe(3)
        if (!modern) {
          expect(command.progress).toEqual(emptyProgress)
          expect(inserted.progress).toEqual(emptyProgress)
          return
        }
        expect(command.progress).toMatchObject({
          writtenRows: 12_345,
          writtenBytes: 98_760,
          readRows: 12_345,
        })
        expect(inserted.progress).toMatchObject({ writtenRows: 3, writtenBytes: 24 })
      } finally {
        await http.command('DROP TABLE http_summary')
      }
    },
  )
})
