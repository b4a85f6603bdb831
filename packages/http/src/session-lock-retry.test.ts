// A request of a session that the server refuses with SESSION_IS_LOCKED (373) - the lock of
// a request stopped on our side that still ends on the server - is sent again, within its
// own deadline, keeping its connection slot; one outside a session, or with a streamed
// body, is not.
import { TimeoutError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { uint8Body } from '../test/support/native-bodies.js'
import { type BackendRequest, type BackendResponse, type HttpBackend, headersFrom } from './http-backend.js'
import { HttpTransport } from './http-transport.js'

const encoder = new TextEncoder()

function answer(chunks: Uint8Array[], status = 200, headers: Record<string, string> = {}): BackendResponse {
  const queue = [...chunks]
  return {
    status,
    headers: headersFrom(headers),
    body: {
      async read() {
        return queue.shift()
      },
      cancel() {},
    },
  }
}

const locked = () =>
  answer([encoder.encode('Code: 373. DB::Exception: Session is locked by a concurrent client.')], 500, {
    'x-clickhouse-exception-code': '373',
  })

/** Answers the probe; the first `lockedFor` SELECTs with SESSION_IS_LOCKED, later ones with a block. */
function backend(lockedFor: number): HttpBackend & { selects: string[] } {
  const state = {
    name: 'locked',
    selects: [] as string[],
    async send(request: BackendRequest) {
      const text = typeof request.body === 'string' ? request.body : ''
      if (text.includes('version()'))
        return answer([encoder.encode('25.11.1.1\tUTC\t0\t54500\tClickHouse 25.11.1.1\n')])
      state.selects.push(new URL(request.url).searchParams.get('session_id') ?? '')
      return state.selects.length <= lockedFor ? locked() : answer([uint8Body(2)])
    },
    async close() {},
  }
  return state
}

function transport(http: HttpBackend, sessionId?: string) {
  return new HttpTransport({ url: 'http://ch.test:8123', sessionId, maxConnections: 1 }, () => http, {
    loadCodecs: async () => ({}),
  })
}

describe('SESSION_IS_LOCKED', () => {
  it('is waited out in a session: the request is sent again until the session is free', async () => {
    const server = backend(3)
    const http = transport(server, 's1')
    const result = await http.query('SELECT 1')
    for await (const _ of result) {
      // read to the end
    }
    expect(server.selects).toEqual(['s1', 's1', 's1', 's1'])
    await http.close()
  })

  it('ends with the call’s own TimeoutError when the session stays locked', async () => {
    const server = backend(1_000)
    const http = transport(server, 's2')
    const error = await http.query('SELECT 1', { timeoutMs: 300 }).catch((caught: unknown) => caught)
    expect(TimeoutError.isInstance(error), String(error)).toBe(true)
    // The slot was given back: the next call is not stuck behind it.
    server.selects.length = 1_000
    const next = await http.query('SELECT 1', { timeoutMs: 2_000 })
    for await (const _ of next) {
      // read to the end
    }
    await http.close()
  })

  it('is the server’s error outside a session', async () => {
    const server = backend(1)
    const http = transport(server)
    const error = await http.query('SELECT 1').catch((caught: unknown) => caught)
    expect((error as { code?: number }).code).toBe(373)
    expect(server.selects).toEqual([''])
    await http.close()
  })
})
