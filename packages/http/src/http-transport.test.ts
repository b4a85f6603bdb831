import { inspect } from 'node:util'
import {
  ByteWriter,
  ClickHouseError,
  ConnectionError,
  compressFrames,
  defaultValueMapping,
  NativeBlockWriter,
} from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import {
  type BackendRequest,
  type BackendResponse,
  backendFailure,
  type HttpBackend,
  headersFrom,
} from './http-backend.js'
import type { HttpTransportOptions } from './http-options.js'
import { HttpTransport } from './http-transport.js'

const encoder = new TextEncoder()

type Reply = BackendResponse | { fail: unknown } | ((request: BackendRequest) => BackendResponse)

function reply(
  status: number,
  body: Uint8Array | string,
  headers: Record<string, string> = {},
): BackendResponse {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body
  let sent = false
  return {
    status,
    headers: headersFrom(headers),
    body: {
      async read() {
        if (sent || bytes.length === 0) return undefined
        sent = true
        return bytes
      },
      cancel() {},
    },
  }
}

/** A backend that answers from a script and records the requests. */
function scripted(replies: Reply[]): HttpBackend & { requests: BackendRequest[] } {
  const requests: BackendRequest[] = []
  return {
    name: 'scripted',
    requests,
    async send(request) {
      requests.push(request)
      const next = replies.shift()
      if (!next) throw new Error(`unexpected request ${request.url}`)
      const answer = typeof next === 'function' ? next(request) : next
      if ('fail' in answer) throw answer.fail
      return answer
    },
    async close() {},
  }
}

const version = () => reply(200, '25.11.1.1\tEurope/Berlin\n')

function transport(backend: HttpBackend, options: Partial<HttpTransportOptions> = {}) {
  return new HttpTransport({ url: 'http://ch.test:8123', ...options }, () => backend, {
    loadCodecs: async () => ({}),
  })
}

function numbers(count: number): Uint8Array {
  const writer = new ByteWriter()
  new NativeBlockWriter({ revision: 0, timezone: 'UTC', mapping: defaultValueMapping }, false).write(
    writer,
    [{ name: 'n', type: 'UInt8', values: Uint8Array.from({ length: count }, (_, i) => i) }],
    count,
  )
  return writer.copy()
}

async function values(
  result: AsyncIterable<{ columns: readonly { column: { values(): ArrayLike<unknown> } }[] }>,
) {
  const out: unknown[] = []
  for await (const block of result) out.push(...Array.from(block.columns[0]!.column.values()))
  return out
}

describe('HttpTransport over a scripted backend', () => {
  it('asks the server version once and sends placeholders as param_ fields to new servers', async () => {
    const backend = scripted([version(), reply(200, numbers(2)), reply(200, numbers(1))])
    const http = transport(backend)
    expect(await values(await http.query('SELECT {n:UInt8} AS n', { params: { n: 7 } }))).toEqual([0, 1])
    expect(await values(await http.query('SELECT 1'))).toEqual([0])
    expect(backend.requests).toHaveLength(3)
    const url = new URL(backend.requests[1]!.url)
    expect(url.searchParams.get('param_n')).toBe('7')
    expect(url.searchParams.get('default_format')).toBe('Native')
    expect(await http.serverInfo()).toMatchObject({
      version: '25.11.1.1',
      timezone: 'Europe/Berlin',
      revision: 0,
    })
  })

  it('takes the time zone, query id and progress from the response headers', async () => {
    const progress =
      '{"read_rows":"5","read_bytes":"40","total_rows_to_read":"5","written_rows":"0","written_bytes":"0"}'
    const backend = scripted([
      version(),
      reply(200, numbers(1), {
        'X-ClickHouse-Query-Id': 'server-id',
        'X-ClickHouse-Timezone': 'Asia/Tokyo',
        'X-ClickHouse-Summary': progress,
      }),
    ])
    let seen = 0
    const result = await transport(backend).query('SELECT 1', { onProgress: (p) => void (seen = p.readRows) })
    expect(result.queryId).toBe('server-id')
    expect(result.progress.readRows).toBe(5)
    expect(seen).toBe(5)
  })

  it('turns error statuses into ClickHouseError, other failures into ConnectionError', async () => {
    const backend = scripted([
      version(),
      reply(
        404,
        'Code: 60. DB::Exception: Table default.x does not exist. (UNKNOWN_TABLE) (version 25.11.1.1)\n',
      ),
      reply(502, '<html>bad gateway</html>'),
      reply(500, 'inflate failed: data error', { 'X-ClickHouse-Exception-Code': '354' }),
    ])
    const http = transport(backend)
    const unknown = await http.query('SELECT * FROM x').catch((e: unknown) => e)
    expect(ClickHouseError.isInstance(unknown)).toBe(true)
    expect((unknown as ClickHouseError).code).toBe(60)
    const gateway = await http.query('SELECT 1').catch((e: unknown) => e)
    expect(ConnectionError.isInstance(gateway)).toBe(true)
    expect((gateway as ConnectionError).code).toBe('HTTP_502')
    const coded = await http.query('SELECT 1').catch((e: unknown) => e)
    expect((coded as ClickHouseError).code).toBe(354)
  })

  it('retries a read after a stale socket, once per pooled socket at most, never a write', async () => {
    const stale = () => ({
      fail: backendFailure('before-response', new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    })
    const backend = scripted([version(), stale(), reply(200, numbers(1)), stale(), stale(), stale(), stale()])
    // Two pooled sockets: a read may meet two stale ones, then it gives up.
    const http = transport(backend, { maxOpenConnections: 2 })
    expect(await values(await http.query('SELECT 1'))).toEqual([0])
    expect(http.retries).toBe(1)
    const thrice = await http.query('SELECT 2').catch((e: unknown) => e)
    expect(ConnectionError.isInstance(thrice)).toBe(true)
    expect(http.retries).toBe(3)
    const write = await http.command('ALTER TABLE t DELETE WHERE 1').catch((e: unknown) => e)
    expect(ConnectionError.isInstance(write)).toBe(true)
    expect((write as ConnectionError).code).toBe('UND_ERR_SOCKET')
    expect(http.retries).toBe(3)
    expect(backend.requests).toHaveLength(7)
  })

  it('decodes compressed-frame responses where the server gets them right', async () => {
    const payload = numbers(3)
    const backend = scripted([
      version(),
      reply(200, compressFrames(encoder.encode('1\n'), 'none')),
      (request) => {
        expect(new URL(request.url).searchParams.get('compress')).toBe('1')
        return reply(200, compressFrames(payload, 'none'))
      },
    ])
    const http = transport(backend, { compression: { response: 'frames' } })
    expect(await values(await http.query('SELECT n'))).toEqual([0, 1, 2])
  })

  it('falls back to plain responses where compress=1 answers nothing', async () => {
    const backend = scripted([
      version(),
      reply(200, ''),
      (request) => {
        expect(new URL(request.url).searchParams.get('compress')).toBeNull()
        return reply(200, numbers(2))
      },
    ])
    const http = transport(backend, { compression: { response: 'frames' } })
    expect(await values(await http.query('SELECT n'))).toEqual([0, 1])
  })

  it('refuses a statement whose FORMAT clause is not Native, where the server names it', async () => {
    const backend = scripted([version(), reply(200, '{"x":1}\n', { 'X-ClickHouse-Format': 'JSONEachRow' })])
    await expect(transport(backend).query('SELECT 1 AS x FORMAT JSONEachRow')).rejects.toThrow(/queryRaw/)
  })

  it('shows no credentials when inspected', () => {
    const http = transport(scripted([]), { username: 'u', password: 'inspect-secret-123' })
    for (const text of [inspect(http, { showHidden: true, depth: 5 }), String(http), JSON.stringify(http)]) {
      expect(text).not.toContain('inspect-secret-123')
      expect(text).toContain('ch.test')
    }
  })

  it('refuses work once closed', async () => {
    const http = transport(scripted([]))
    await http.close()
    await expect(http.query('SELECT 1')).rejects.toThrow(/closed/)
  })
})
