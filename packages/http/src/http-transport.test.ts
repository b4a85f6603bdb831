import { inspect } from 'node:util'
import { ByteWriter, ClickHouseError, ConnectionError, defaultValueMapping } from '@clickwire/protocol'
import { compressFrames } from '@clickwire/protocol/frames'
import { NativeBlockWriter } from '@clickwire/protocol/insert'
import { describe, expect, it } from 'vitest'
import { uint8Body } from '../test/support/native-bodies.js'
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

// The server probe's answer: version(), timezone(), the Revision metric, VERSION_REVISION, VERSION_FULL.
const version = () => reply(200, '25.11.1.1\tEurope/Berlin\t0\t54500\tClickHouse 25.11.1.1\n')

function transport(backend: HttpBackend, options: Partial<HttpTransportOptions> = {}) {
  return new HttpTransport({ url: 'http://ch.test:8123', ...options }, () => backend, {
    loadCodecs: async () => ({}),
  })
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
    const backend = scripted([version(), reply(200, uint8Body(2)), reply(200, uint8Body(1))])
    const http = transport(backend)
    expect(await values(await http.query('SELECT {n:UInt8} AS n', { params: { n: 7 } }))).toEqual([0, 1])
    expect(await values(await http.query('SELECT 1'))).toEqual([0])
    expect(backend.requests).toHaveLength(3)
    const url = new URL(backend.requests[1]!.url)
    expect(url.searchParams.get('param_n')).toBe('7')
    expect(url.searchParams.get('default_format')).toBe('Native')
    // What the native Hello of the same server gives: major.minor.patch, the negotiated revision.
    expect(await http.serverInfo()).toEqual({
      name: 'ClickHouse',
      version: '25.11.1',
      timezone: 'Europe/Berlin',
      // 25.11 names VERSION_REVISION 54500, but no release before 26.8 speaks more than 54488.
      revision: 54488,
      displayName: '',
    })
  })

  it('asks 26.8 on for client_protocol_version only when protocolRevision is given', async () => {
    // A 26.9 answer at 54492: BlockInfo, the custom-serialization byte, Strings as offsets + blob.
    const at54492 = Uint8Array.from(
      (
        '010002ffffffff030000' +
        '0102' +
        '0173' +
        '06537472696e67' +
        '00' +
        '0100000000000000' +
        '0300000000000000' +
        '616263'
      )
        .match(/../g)!
        .map((pair) => Number.parseInt(pair, 16)),
    )
    const latest = () => reply(200, '26.9.2.1\tUTC\t0\t54515\tClickHouse 26.9.2.1\n')
    const asked = scripted([latest(), reply(200, at54492)])
    const strings = await values(await transport(asked, { protocolRevision: 54492 }).query('SELECT s'))
    expect(Array.from(strings)).toEqual(['a', 'bc'])
    expect(new URL(asked.requests[1]!.url).searchParams.get('client_protocol_version')).toBe('54492')
    const plain = scripted([latest(), reply(200, uint8Body(1))])
    await values(await transport(plain).query('SELECT 1'))
    expect(new URL(plain.requests[1]!.url).searchParams.has('client_protocol_version')).toBe(false)
  })

  it('takes the time zone, query id and progress from the response headers', async () => {
    const progress =
      '{"read_rows":"5","read_bytes":"40","total_rows_to_read":"5","written_rows":"0","written_bytes":"0"}'
    const backend = scripted([
      version(),
      reply(200, uint8Body(1), {
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
    const backend = scripted([
      version(),
      stale(),
      reply(200, uint8Body(1)),
      stale(),
      stale(),
      stale(),
      stale(),
    ])
    // Two pooled sockets: a read may meet two stale ones, then it gives up.
    const http = transport(backend, { maxConnections: 2 })
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
    const payload = uint8Body(3)
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
        return reply(200, uint8Body(2))
      },
    ])
    const http = transport(backend, { compression: { response: 'frames' } })
    expect(await values(await http.query('SELECT n'))).toEqual([0, 1])
  })

  it('refuses a statement whose FORMAT clause is not Native before sending anything', async () => {
    const backend = scripted([])
    await expect(transport(backend).query('SELECT 1 AS x FORMAT JSONEachRow')).rejects.toThrow(/queryRaw/)
    expect(backend.requests).toHaveLength(0)
  })

  it('also refuses an answer the server names as another format (a clause the SQL check missed)', async () => {
    const backend = scripted([version(), reply(200, '{"x":1}\n', { 'X-ClickHouse-Format': 'JSONEachRow' })])
    await expect(transport(backend).query('SELECT 1 AS x')).rejects.toThrow(
      "query() reads the rows itself and cannot return FORMAT JSONEachRow output: run the statement without its FORMAT clause through queryRaw(sql, { format: 'JSONEachRow' }), which returns the bytes of any format",
    )
  })

  it('lets each call wait for the shared server probe within its own deadline, never poisoning it', async () => {
    const requests: BackendRequest[] = []
    // The probe answers after 150 ms (unless aborted); queries answer at once.
    const backend: HttpBackend = {
      name: 'slow-probe',
      async send(request) {
        requests.push(request)
        if (!request.url.includes('default_format=Native')) {
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, 150)
            request.signal.addEventListener('abort', () => {
              clearTimeout(timer)
              reject(request.signal.reason)
            })
          })
          return version()
        }
        return reply(200, uint8Body(1))
      },
      async close() {},
    }
    const http = transport(backend)
    const controller = new AbortController()
    const [short, aborted, long] = await Promise.allSettled([
      http.query('SELECT 1', { timeoutMs: 40, queryId: 'short' }),
      http.query('SELECT 1', { signal: controller.signal, queryId: 'aborted' }),
      http.query('SELECT 1', { timeoutMs: 5000, queryId: 'long' }).then(values),
      (async () => controller.abort(new Error('gave up')))(),
    ])
    expect(short).toMatchObject({
      status: 'rejected',
      reason: { name: 'TimeoutError', message: 'query short ran longer than 40 ms' },
    })
    expect(aborted).toMatchObject({
      status: 'rejected',
      reason: { name: 'AbortError', message: 'query aborted was aborted' },
    })
    expect(long).toEqual({ status: 'fulfilled', value: [0] })
    // One probe for all three, not aborted by the two that gave up; then the one query.
    expect(requests.map((request) => request.signal.aborted)).toEqual([false, false])
  })

  it('stops the probe once no call waits for it, and the next call asks again', async () => {
    const requests: BackendRequest[] = []
    const backend: HttpBackend = {
      name: 'silent-then-fine',
      async send(request) {
        requests.push(request)
        if (requests.length === 1) {
          return new Promise<never>((_, reject) =>
            request.signal.addEventListener('abort', () => reject(request.signal.reason)),
          )
        }
        return request.url.includes('default_format=Native') ? reply(200, uint8Body(2)) : version()
      },
      async close() {},
    }
    const http = transport(backend)
    const first = await http.query('SELECT 1', { timeoutMs: 30, queryId: 'q1' }).catch((e: unknown) => e)
    expect(first).toMatchObject({ name: 'TimeoutError', message: 'query q1 ran longer than 30 ms' })
    expect(requests[0]!.signal.aborted).toBe(true)
    expect(await values(await http.query('SELECT 1'))).toEqual([0, 1])
    expect(requests).toHaveLength(3)
  })

  it('pings with an authenticated SELECT 1, and reports the server refusing the credentials', async () => {
    const backend = scripted([
      reply(200, '1\n'),
      reply(
        516,
        'Code: 516. DB::Exception: u: Authentication failed. (AUTHENTICATION_FAILED) (version 25.11.1.1)\n',
        {
          'X-ClickHouse-Exception-Code': '516',
        },
      ),
    ])
    const http = transport(backend, { username: 'u', password: 'pw-secret-1' })
    await http.ping()
    const url = new URL(backend.requests[0]!.url)
    expect(backend.requests[0]!.method).toBe('POST')
    expect(backend.requests[0]!.body).toBe('SELECT 1')
    expect(url.pathname).toBe('/')
    expect(backend.requests[0]!.headers.authorization).toBe(`Basic ${btoa('u:pw-secret-1')}`)
    const refused = await http.ping().catch((e: unknown) => e)
    expect(ClickHouseError.isInstance(refused)).toBe(true)
    expect((refused as ClickHouseError).code).toBe(516)
  })

  it('describes the table for every insert: a column added in between is seen', async () => {
    const describe = (columns: Array<[string, string]>) => {
      const writer = new ByteWriter()
      new NativeBlockWriter({ revision: 0, timezone: 'UTC', mapping: defaultValueMapping }, false).write(
        writer,
        [
          { name: 'name', type: 'String', values: columns.map(([name]) => name) },
          { name: 'type', type: 'String', values: columns.map(([, type]) => type) },
          { name: 'default_type', type: 'String', values: columns.map(() => '') },
        ],
        columns.length,
      )
      return reply(200, writer.copy())
    }
    const drained = () => reply(200, '')
    const backend = scripted([
      version(),
      describe([['v', 'UInt8']]),
      drained(),
      describe([
        ['v', 'UInt8'],
        ['w', 'UInt8'],
      ]),
      drained(),
    ])
    const http = transport(backend)
    await http.insert('t', () => [{ rows: 1, columns: [[1]] }], { columns: ['v'] })
    await http.insert('t', () => [{ rows: 1, columns: [[2], [3]] }], { columns: ['v', 'w'] })
    const queries = backend.requests.map(
      (request) => new URL(request.url).searchParams.get('query') ?? request.body,
    )
    expect(queries).toEqual([
      expect.stringContaining('SELECT version()'),
      'DESCRIBE TABLE `t`',
      'INSERT INTO `t` (`v`) FORMAT Native',
      'DESCRIBE TABLE `t`',
      'INSERT INTO `t` (`v`, `w`) FORMAT Native',
    ])
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
